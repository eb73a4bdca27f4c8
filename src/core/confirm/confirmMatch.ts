// Which element names need the person's word before a press (the confirm_before setting), written
// once for every OS and every way a press is aimed (by name, element_index or point).
//
// An entry matches a name, case-insensitively, when the name is the entry or starts with it
// followed by a non-letter: "Delete" matches "Delete", "Delete…", "delete all" and "Delete 3
// files", never "Deleted items" nor "Sender" for "Send". An entry with `*` is a pattern over the
// whole name (`*` stands for any text, possibly none): "*delete*" matches "Undelete"; "Move to
// *" matches "Move to Trash". Only the element's name is compared: a role or a value is no
// promise of what the press does.

import type { ElementNode, Point } from '../model.js';
import { holds } from '../tree/lineage.js';
import { elementAtPoint } from '../tree/query.js';

/** The default list: the presses a person most often wants to be asked about. */
export const DEFAULT_CONFIRM_BEFORE: readonly string[] = Object.freeze([
  'Send',
  'Pay',
  'Buy',
  'Purchase',
  'Order',
  'Delete',
  'Remove',
  'Transfer',
  'Submit',
  'Publish',
  'Confirm',
]);

export const MAX_CONFIRM_ENTRIES = 200;
export const MAX_CONFIRM_ENTRY_CHARS = 80;

const LETTER = /\p{L}/u;

/**
 * Element actions that press (AT-SPI's and AX's names, and the canonical ones): these ask as a
 * left click does. Others (expand, show-menu, increment…) do not commit anything.
 */
const PRESS_ACTIONS: ReadonlySet<string> = new Set(['press', 'click', 'activate', 'toggle', 'confirm', 'jump', 'open', 'axpress', 'axconfirm', 'axpick']);

/** Whether an element action presses (so a confirm_before element asks first). */
export function isPressAction(action: string): boolean {
  return PRESS_ACTIONS.has(action.trim().toLowerCase());
}

function patternOf(entry: string): RegExp {
  const parts = entry.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 'isu');
}

/** Whether `name` is one `entry` names (the rules above). */
export function nameMatchesEntry(name: string, entry: string): boolean {
  const wanted = entry.trim();
  const have = name.trim();
  if (!wanted || !have) return false;
  if (wanted.includes('*')) return patternOf(wanted).test(have);
  if (have.slice(0, wanted.length).toLowerCase() !== wanted.toLowerCase()) return false;
  const next = have.slice(wanted.length);
  return next === '' || !LETTER.test([...next][0]);
}

/** The first entry of `list` that `name` matches, or null. */
export function confirmEntryFor(name: string | undefined, list: readonly string[]): string | null {
  if (!name) return null;
  return list.find((entry) => nameMatchesEntry(name, entry)) ?? null;
}

/**
 * The element a press at `point` would press, when its name needs the person's word: the one
 * elementAtPoint picks among the matching elements containing the point (a label inside a
 * "Delete" button, or the button around an unnamed icon, both lead to the button). Null when no
 * matching element contains the point.
 */
export function confirmTargetAtPoint(elements: readonly ElementNode[], point: Point, list: readonly string[]): ElementNode | null {
  return elementAtPoint(elements, point, (element) => confirmEntryFor(element.text, list) !== null);
}

/**
 * The same for a click aimed at `target` (by its name or element_index): only an element the
 * press goes through counts, the target's own container or something inside it (the "Delete"
 * button around a label). An element of another branch that merely lies under the point does
 * not: an option of an open <select> list drawn over the form's "Submit order" button is the
 * option, and asking the person about "Submit order" would put the wrong question to them.
 */
export function confirmTargetOfElementPress(elements: readonly ElementNode[], target: ElementNode, point: Point, list: readonly string[]): ElementNode | null {
  return elementAtPoint(elements, point, (element) => confirmEntryFor(element.text, list) !== null && (holds(elements, element, target) || holds(elements, target, element)));
}
