// Where a long value changed: typing a word into a long document changes one spot of it, and a
// summary that shows the first 80 characters of the old and new value shows the same thing
// twice. An excerpt keeps the changed part and a little of what surrounds it, marking what was
// left out on each side with its length: `(+1200 chars)…seen the changed part…(+300 chars)`.

import { cutText } from './treeFormat.js';

/** Characters of unchanged text kept on each side of the change (less when the room is small). */
const CONTEXT_CHARS = 20;

/** Code points in text[from, to) (a surrogate pair counts once). */
function codePoints(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff && i > from) {
      const previous = text.charCodeAt(i - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) continue;
    }
    count++;
  }
  return count;
}

/** Moves a UTF-16 position off the low half of a surrogate pair (back onto its start). */
function onBoundary(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at;
  const code = text.charCodeAt(at);
  const previous = text.charCodeAt(at - 1);
  return code >= 0xdc00 && code <= 0xdfff && previous >= 0xd800 && previous <= 0xdbff ? at - 1 : at;
}

/**
 * The old and new value as a summary shows them, each at most about `maxChars` code points: whole
 * when both fit, else the changed span of each with CONTEXT_CHARS of unchanged text around it,
 * the parts left out counted. A changed span longer than the room is cut like any text.
 */
export function excerptChange(before: string, after: string, maxChars: number): { before: string; after: string } {
  if (before.length <= maxChars && after.length <= maxChars) return { before, after };
  let prefix = 0;
  const shortest = Math.min(before.length, after.length);
  while (prefix < shortest && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < shortest - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  // Context is counted in UTF-16 units (then moved off a surrogate pair's middle): it only needs to be about right.
  const context = Math.min(CONTEXT_CHARS, Math.floor(maxChars / 4));
  const side = (text: string): string => {
    const start = onBoundary(text, Math.max(0, prefix - context));
    const end = onBoundary(text, Math.min(text.length, text.length - suffix + context));
    const head = codePoints(text, 0, start);
    const tail = codePoints(text, end);
    const body = cutText(text.slice(start, end), maxChars);
    return `${head ? `(+${head} chars)…` : ''}${body}${tail ? `…(+${tail} chars)` : ''}`;
  };
  return { before: side(before), after: side(after) };
}
