// AtspiStateType: a state set travels as two uint32 words; bit n of the 64-bit set is state n.

export const STATE = {
  active: 1,
  armed: 2,
  busy: 3,
  checked: 4,
  collapsed: 5,
  defunct: 6,
  editable: 7,
  enabled: 8,
  expandable: 9,
  expanded: 10,
  focusable: 11,
  focused: 12,
  modal: 16,
  multiLine: 17,
  multiselectable: 18,
  pressed: 20,
  selectable: 22,
  selected: 23,
  sensitive: 24,
  showing: 25,
  singleLine: 26,
  stale: 27,
  visible: 30,
  managesDescendants: 31,
  indeterminate: 32,
  readOnly: 43,
  checkable: 41,
} as const;

export type StateName = keyof typeof STATE;

/** Whether the state words carry state `bit`. Missing words count as zero. */
export function hasState(words: readonly number[], bit: number): boolean {
  const word = words[bit >> 5] ?? 0;
  return ((word >>> (bit & 31)) & 1) === 1;
}

/** The named states set in the words (for logs and tests). */
export function stateNames(words: readonly number[]): StateName[] {
  return (Object.keys(STATE) as StateName[]).filter((name) => hasState(words, STATE[name]));
}
