// The tree text format: what the model reads in a tree file and what diff lines are made of.
//
//   #N [Role] "name" value:"…" x:N y:N w:W h:H visible [focused] [disabled] [secure] [selected]
//
// - `#N` is the element's element_index, the number a call takes to name it (diff lines carry
//   it too), so no agent has to count lines.
// - One element per line, in pre-order. "name" is the element's label (its accessible name,
//   else its description; "" when it has none); `value:"…"` is what it holds (a field's text, a
//   slider's number, a combo box's choice, checked/unchecked), only where it has one. Text is
//   escaped so it can never break the line or the quoting, and cut at MAX_TEXT_CHARS code
//   points with the cut marked `…(+N chars)`; a value the backend read only in part (a big
//   document) says so: `…(+N chars, more not read)`.
// - Geometry is rounded to whole points and left out when the backend gave no bounds.
// - The first flag is always `visible` or `hidden`; then, only when they hold: `focused`,
//   `disabled` (not enabled), `secure` (a password field: it keeps its name, its value is never
//   printed, even if a backend filled it in by mistake), `selected`.
// - A tree file starts with exactly TREE_HEADER_LINES lines beginning with '# '. Element index k
//   is on line k + TREE_HEADER_LINES + 1 (tests and the bench rely on it; agents read `#N`).

import type { ElementNode, TreeSnapshot } from '../model.js';

/** Element text is cut after this many code points in tree lines. */
export const MAX_TEXT_CHARS = 160;

/** Number of '# ' header lines at the top of formatTree output (always the same). */
export const TREE_HEADER_LINES = 4;

/** Line number (1-based, as `grep -n` prints it) of element index `index` in formatTree output. */
export function lineNumberOfIndex(index: number): number {
  return index + TREE_HEADER_LINES + 1;
}

/** element_index shown on 1-based line `lineNumber` of formatTree output (null for header lines). */
export function indexOfLineNumber(lineNumber: number): number | null {
  const index = lineNumber - TREE_HEADER_LINES - 1;
  return index >= 0 ? index : null;
}

const NAMED_ESCAPES: Record<string, string> = {
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\\': '\\\\',
};

const NEEDS_ESCAPE = {
  '"': /["\\\p{Cc}\u2028\u2029\ud800-\udfff]/u,
  "'": /['\\\p{Cc}\u2028\u2029\ud800-\udfff]/u,
};

function hex4(code: number): string {
  return '\\u' + code.toString(16).padStart(4, '0');
}

/**
 * Escapes text for a quoted field: newline/CR/tab as \n \r \t, backslash as \\, the quote
 * character as \" (or \'), and every other control, line/paragraph separator or lone
 * surrogate as \uXXXX. Emoji and other astral characters pass through intact.
 */
export function escapeText(text: string, quote: '"' | "'" = '"'): string {
  // Most UI text needs no escaping: check with one regex scan before building a new string.
  // (With the u flag, the surrogate range only matches lone surrogates.)
  if (!NEEDS_ESCAPE[quote].test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const code = text.charCodeAt(i);
    if (ch === quote) {
      out += '\\' + quote;
    } else if (NAMED_ESCAPES[ch] !== undefined) {
      out += NAMED_ESCAPES[ch];
    } else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) {
      out += hex4(code);
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += ch + text[i + 1];
        i++;
      } else {
        out += hex4(code); // lone high surrogate: would be invalid UTF-8 in the file
      }
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      out += hex4(code); // lone low surrogate
    } else {
      out += ch;
    }
  }
  return out;
}

/**
 * Cuts `text` after `maxChars` code points (never inside a surrogate pair) and marks the cut
 * with `…(+N chars)`, N counting the code points left out. Short text is returned unchanged.
 * `unreadRest`: the text is itself only the start of something longer that was never read (a
 * big document's value), so the mark says so — `…(+N chars, more not read)`, or
 * `…(more not read)` when what was read fits.
 */
export function cutText(text: string, maxChars: number = MAX_TEXT_CHARS, unreadRest = false): string {
  const unread = unreadRest ? UNREAD_MARK : '';
  // Fast path: a UTF-16 length within the limit means the code point count is too.
  if (text.length <= maxChars) return unreadRest ? `${text}…(${unread})` : text;
  let codePoints = 0;
  let cutAt = -1;
  for (let i = 0; i < text.length; i++) {
    if (codePoints === maxChars && cutAt < 0) cutAt = i;
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    codePoints++;
  }
  if (cutAt < 0) return unreadRest ? `${text}…(${unread})` : text;
  return `${text.slice(0, cutAt)}…(+${codePoints - maxChars} chars${unreadRest ? `, ${unread}` : ''})`;
}

/**
 * The first `cap` characters (code points: AT-SPI counts offsets in them) of `text`, and whether
 * it had more: how backends cut a long value they read (ElementNode.valueTruncated).
 */
export function firstCharacters(text: string, cap: number): { text: string; truncated: boolean } {
  // A UTF-16 length within the cap means the code point count is too.
  if (text.length <= cap) return { text, truncated: false };
  let codePoints = 0;
  for (let i = 0; i < text.length; i++) {
    if (codePoints === cap) return { text: text.slice(0, i), truncated: true };
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    codePoints++;
  }
  return { text, truncated: false };
}

/** What a cut mark adds when the app holds more than was read. */
const UNREAD_MARK = 'more not read';

/** Cut, then escape, then wrap in the quote character (`unreadRest`: see cutText). */
export function quoteText(text: string, quote: '"' | "'" = '"', maxChars: number = MAX_TEXT_CHARS, unreadRest = false): string {
  return quote + escapeText(cutText(text, maxChars, unreadRest), quote) + quote;
}

/** The element's label as trees show it (a secure field's label is shown: it is not secret). */
export function displayText(el: ElementNode): string {
  return el.text;
}

/** The element's value as trees show it: none for a secure field, whatever the backend put there. */
export function displayValue(el: ElementNode): string | undefined {
  return el.secure ? undefined : el.value;
}

const bracketedRoles = new Map<string, string>();

/** Role in brackets, letters/digits/-/_ only: roles come from backends, so nothing in one may break the line or the brackets. */
function formatRole(role: string): string {
  let bracketed = bracketedRoles.get(role);
  if (bracketed === undefined) {
    bracketed = `[${role.replace(/[^\p{L}\p{N}_-]+/gu, '') || 'Unknown'}]`;
    // Roles are a small vocabulary; the cap only guards against a backend inventing endless ones.
    if (bracketedRoles.size < 1000) bracketedRoles.set(role, bracketed);
  }
  return bracketed;
}

/** `[Role] "text"`: the part of a tree line that names the element. */
export function formatElementLabel(el: ElementNode): string {
  return `${formatRole(el.role)} ${quoteText(displayText(el))}`;
}

/** ` x:N y:N w:W h:H` (rounded), or '' when the element has no bounds. */
export function formatGeometry(el: ElementNode): string {
  if (!el.bounds) return '';
  const { x, y, width, height } = el.bounds;
  return ` x:${Math.round(x)} y:${Math.round(y)} w:${Math.round(width)} h:${Math.round(height)}`;
}

/** ` value:"…"`, or '' when the element shows no value. */
export function formatValue(el: ElementNode): string {
  const value = displayValue(el);
  return value === undefined ? '' : ` value:${quoteText(value, '"', MAX_TEXT_CHARS, el.valueTruncated === true)}`;
}

export function formatElementLine(el: ElementNode): string {
  let line = formatElementLabel(el) + formatValue(el) + formatGeometry(el);
  line += el.visible ? ' visible' : ' hidden';
  if (el.focused) line += ' focused';
  if (!el.enabled) line += ' disabled';
  if (el.secure) line += ' secure';
  if (el.selected) line += ' selected';
  return line;
}

/** `#N <line>`: a tree line with the element_index a call takes to name the element. */
export function formatIndexedLine(el: ElementNode): string {
  return `#${el.index} ${formatElementLine(el)}`;
}

/**
 * The tree file: TREE_HEADER_LINES header lines, then one line per element in the snapshot's
 * order (pre-order: element index k on line k + TREE_HEADER_LINES + 1). Ends with a newline.
 */
export function formatTree(snapshot: TreeSnapshot): string {
  const { elements } = snapshot;
  let visible = 0;
  for (const el of elements) if (el.visible) visible++;
  const truncated = snapshot.truncated
    ? `truncated: ${snapshot.truncated.reason} (${escapeText(snapshot.truncated.detail)})`
    : 'truncated: no';
  const header = [
    `# app: ${escapeText(snapshot.app)}  pid: ${snapshot.pid}`,
    `# elements: ${elements.length}  visible: ${visible}  ${truncated}`,
    '# format: #element_index [Role] "name" value:"…" (when it holds one) x y w h visible|hidden [focused] [disabled] [secure] [selected]',
    '# #N at the start of a line is the element_index to send for that element',
  ];
  const lines = new Array<string>(header.length + elements.length);
  for (let i = 0; i < header.length; i++) lines[i] = header[i];
  for (let i = 0; i < elements.length; i++) lines[header.length + i] = formatIndexedLine(elements[i]);
  return lines.join('\n') + '\n';
}
