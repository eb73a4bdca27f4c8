// get_window_state's text: the app's element lines (each starts with its element_index, #N),
// filtered by a query (case-insensitive, on the role or the text of the line) so a model can ask
// for "the Save button" without reading 2,000 lines. The whole tree stays in the file.

import { indexOfLineNumber } from '../core/tree/treeFormat.js';

/** Lines shown in the answer at most; the rest are counted and left in the file. */
export const MAX_STATE_LINES = 300;

export interface TaggedLines {
  lines: string[];
  matched: number;
  total: number;
  /** More lines matched than fit: only visible ones were shown (hidden ones stay in the file). */
  visibleOnly: boolean;
}

/** A quoted name or value on a tree line, which may contain any word. */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/** Whether a tree line's flags (after its quoted name and value) say the element is visible. */
export function isVisibleLine(line: string): boolean {
  return / visible(?: |$)/.test(line.replace(QUOTED, '""'));
}

/**
 * Tree file text → its element lines (`#N [Role] …`) that match `query`. When more match than
 * `max`, the visible ones are shown: an audit found Writer's first 300 lines to be 295 hidden
 * menu items, 16 KB a model reads for nothing.
 */
export function taggedTreeLines(treeText: string, query: string | undefined, max = MAX_STATE_LINES): TaggedLines {
  const needle = query?.trim().toLowerCase();
  const matching: string[] = [];
  let total = 0;
  treeText.split('\n').forEach((line, position) => {
    const index = indexOfLineNumber(position + 1);
    if (index === null || line === '') return;
    total++;
    // The query looks at the element (role, name, value…), not at its `#N` index: "1" must not
    // match every element whose index has a 1 in it.
    if (needle && !line.replace(/^#\d+ /, '').toLowerCase().includes(needle)) return;
    matching.push(line);
  });
  if (matching.length <= max) return { lines: matching, matched: matching.length, total, visibleOnly: false };
  return { lines: matching.filter(isVisibleLine).slice(0, max), matched: matching.length, total, visibleOnly: true };
}
