// Tree diff: what an action changed in the target app, as the model reads it.
//
//   - <tree line>                                  gone (removed, or turned hidden)
//   + #N <tree line>                               new (added, or turned visible)
//   ~ #N [Role] "name" | text: 'old' -> 'new'      same element, another label
//   ~ #N [Role] "name" | value: 'old' -> 'new'     same element, another value (typed text, a number…)
//
// `#N` is the element's element_index in the tree after the action, the tree the next call's
// indexes are resolved against (elementIndex.ts); a `-` line has none: nothing there to act on.
//
// Elements are paired across the two snapshots by treeMatch.ts (identity, unchanged content,
// block moves, renames near the same place); a pair whose text differs is a rename (`~`), not a
// `-` and a `+`, and a pair that only moved prints nothing. Pairing goes by labels, so a field
// whose value changed is still the same field.
//
// Noise that never prints:
//   - coordinate-only moves and resizes;
//   - scroll bars and everything inside them (role ScrollBar and its descendants: thumbs,
//     arrows, the Slider some toolkits put inside) — their values change on every scroll;
//   - text-less churn: elements of a NOISE_ROLES role (rows, cells, list/tree items, menus and
//     menu items, separators, and layout containers: fillers, panels, groups, sections, scroll
//     panes, viewports) with empty text coming or going;
//   - hidden elements coming or going (the person could not see them either);
//   - focus moving (every click moves it; the tree file shows `focused`).
// State that prints: visibility (an element that turns visible is `+`, one that turns hidden is
// `-`), `enabled: true -> false` and `selected: false -> true` on a `~` line (a checkbox got
// checked, a button got enabled). A secure field's value is treated as absent on both sides, so
// it can never show up in a diff or a text change, not even as "it changed".

import type { ElementNode } from '../model.js';
import type { TextChange } from '../call/result.js';
import { displayText, displayValue, formatElementLabel, formatElementLine, formatGeometry, formatIndexedLine, quoteText } from './treeFormat.js';
import type { MatchSide } from './matchSide.js';
import { matchTrees } from './treeMatch.js';

export interface TreeDiff {
  added: ElementNode[];
  removed: ElementNode[];
  changed: Array<{ before: ElementNode; after: ElementNode }>;
  /** Elements still there whose element_index is another after the action (an index from before names something else). */
  renumbered: number;
}

/** Roles whose text-less elements coming and going is layout churn, not news. */
export const NOISE_ROLES: ReadonlySet<string> = new Set([
  'TableRow', 'TableCell', 'Row', 'Cell', 'ListItem', 'TreeItem', 'TreeTableCell',
  'Menu', 'MenuItem', 'CheckMenuItem', 'RadioMenuItem', 'MenuBarItem', 'Separator',
  'Filler', 'Panel', 'Group', 'Section', 'Column', 'ColumnHeader', 'TableColumnHeader',
  'ScrollPane', 'ScrollArea', 'Viewport', 'LayeredPane', 'SplitPane', 'Splitter',
  'PopupMenu', 'TearoffMenuItem', 'TableRowHeader', 'RedundantObject',
]);

/** Roles that are scroll-bar noise together with their whole subtree. */
export const SCROLL_BAR_ROLES: ReadonlySet<string> = new Set(['ScrollBar']);

/** In `~` lines old and new text are printed whole, up to this many code points each. */
export const MAX_CHANGE_TEXT_CHARS = 100_000;

/** 1 for each element that is a scroll bar or inside one (any order of parents, cycles ignored). */
function scrollBarMembers(side: MatchSide): Uint8Array {
  const n = side.elements.length;
  const own = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (SCROLL_BAR_ROLES.has(side.elements[i].role)) own[i] = 1;
  const inside = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const parent = side.parentPos[i];
    if (parent < i) {
      // Pre-order (the usual case): the parent is done already.
      inside[i] = own[i] | (parent < 0 ? 0 : inside[parent]);
      continue;
    }
    let flag = own[i];
    for (let up = parent, steps = 0; up >= 0 && !flag && steps < n; up = side.parentPos[up], steps++) flag = own[up];
    inside[i] = flag;
  }
  return inside;
}

/** Text-less layout/row churn: a NOISE_ROLES element without text. */
function isTextlessNoise(side: MatchSide, pos: number): boolean {
  return side.isTextless(pos) && NOISE_ROLES.has(side.elements[pos].role);
}

/** An element coming or going that nobody needs to hear about. */
function isChurn(side: MatchSide, inScrollBar: Uint8Array, pos: number): boolean {
  return !side.elements[pos].visible || inScrollBar[pos] === 1 || isTextlessNoise(side, pos);
}

/** The state differences a `~` line reports (visibility is reported as + / - instead). */
function stateChanges(before: ElementNode, after: ElementNode): string[] {
  const parts: string[] = [];
  if (before.enabled !== after.enabled) parts.push(`enabled: ${before.enabled} -> ${after.enabled}`);
  if (before.selected !== undefined && after.selected !== undefined && before.selected !== after.selected) {
    parts.push(`selected: ${before.selected} -> ${after.selected}`);
  }
  return parts;
}

/** A value that appeared, went, or became another (absent on one side counts as ''). */
function valueChanged(before: ElementNode, after: ElementNode): boolean {
  return (displayValue(before) ?? '') !== (displayValue(after) ?? '');
}

export function diffTrees(before: readonly ElementNode[], after: readonly ElementNode[]): TreeDiff {
  const { before: b, after: a } = matchTrees(before, after);
  const bScroll = scrollBarMembers(b);
  const aScroll = scrollBarMembers(a);

  const diff: TreeDiff = { added: [], removed: [], changed: [], renumbered: 0 };
  for (let i = 0; i < before.length; i++) {
    const j = b.pair[i];
    if (j >= 0 && before[i].index !== after[j].index) diff.renumbered++;
    if (j < 0) {
      if (!isChurn(b, bScroll, i)) diff.removed.push(before[i]);
      continue;
    }
    if (bScroll[i] || aScroll[j]) continue;
    const was = before[i];
    const now = after[j];
    if (was.visible && !now.visible) {
      if (!isTextlessNoise(b, i)) diff.removed.push(was);
      continue;
    }
    if (!was.visible && now.visible) continue; // reported from the after side, in its order
    if (!was.visible) continue; // hidden on both sides: nothing the person saw changed
    const textChanged = displayText(was) !== displayText(now) || valueChanged(was, now);
    if (textChanged || was.enabled !== now.enabled || was.selected !== now.selected) {
      if (!textChanged && !stateChanges(was, now).length) continue; // selected unknown on one side
      diff.changed.push({ before: was, after: now });
    }
  }
  for (let j = 0; j < after.length; j++) {
    const i = a.pair[j];
    if (i < 0) {
      if (!isChurn(a, aScroll, j)) diff.added.push(after[j]);
    } else if (!before[i].visible && after[j].visible && !aScroll[j] && !bScroll[i]) {
      if (!isTextlessNoise(a, j)) diff.added.push(after[j]);
    }
  }
  return diff;
}

/** `~ [Role] "name" | text: 'old' -> 'new', value: 'a' -> 'b', selected: false -> true` (geometry added after an empty name). */
export function formatChangeLine(before: ElementNode, after: ElementNode): string {
  const parts: string[] = [];
  const quote = (text: string, unreadRest = false): string => quoteText(text, "'", MAX_CHANGE_TEXT_CHARS, unreadRest);
  const oldText = displayText(before);
  const newText = displayText(after);
  if (oldText !== newText) parts.push(`text: ${quote(oldText)} -> ${quote(newText)}`);
  if (valueChanged(before, after)) {
    parts.push(`value: ${quote(displayValue(before) ?? '', before.valueTruncated)} -> ${quote(displayValue(after) ?? '', after.valueTruncated)}`);
  }
  parts.push(...stateChanges(before, after));
  // Without text, a `~` line would not say which element (which row got selected): add where it is.
  const where = newText === '' ? formatGeometry(after) : '';
  return `~ #${after.index} ${formatElementLabel(after)}${where} | ${parts.join(', ')}`;
}

/** The diff file body: `-` lines (old order), `+` lines (new order), then `~` lines. '' when empty. */
export function formatDiff(diff: TreeDiff): string {
  const lines: string[] = [];
  for (const el of diff.removed) lines.push(`- ${formatElementLine(el)}`);
  for (const el of diff.added) lines.push(`+ ${formatIndexedLine(el)}`);
  for (const { before, after } of diff.changed) lines.push(formatChangeLine(before, after));
  return lines.length ? lines.join('\n') + '\n' : '';
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * "2 added, 1 removed, 1 text change, 1 value change, 1 state change" or "no changes". The text
 * and value counts are those of textChanges' entries (an element whose label and value both
 * changed counts once in each), so the summary and the list under it agree.
 */
export function summarizeDiff(diff: TreeDiff): string {
  let text = 0;
  let value = 0;
  let state = 0;
  for (const { before, after } of diff.changed) {
    const textChanged = displayText(before) !== displayText(after);
    const valueChange = valueChanged(before, after);
    if (textChanged) text++;
    if (valueChange) value++;
    if (!textChanged && !valueChange) state++;
  }
  const parts: string[] = [];
  if (diff.added.length) parts.push(`${diff.added.length} added`);
  if (diff.removed.length) parts.push(`${diff.removed.length} removed`);
  if (text) parts.push(plural(text, 'text change'));
  if (value) parts.push(plural(value, 'value change'));
  if (state) parts.push(plural(state, 'state change'));
  return parts.length ? parts.join(', ') : 'no changes';
}

/** Whole old/new strings of every label and value change (a secure field's value never appears). */
export function textChanges(diff: TreeDiff): TextChange[] {
  const changes: TextChange[] = [];
  for (const { before, after } of diff.changed) {
    const oldText = displayText(before);
    const newText = displayText(after);
    if (oldText !== newText) changes.push({ role: after.role, before: oldText, after: newText });
    if (valueChanged(before, after)) changes.push({ role: after.role, name: newText, field: 'value', before: displayValue(before) ?? '', after: displayValue(after) ?? '' });
  }
  return changes;
}
