// Element queries: how a tool's { text, role, element_index } picks one element of a snapshot,
// and what the model is told when nothing matches.
//
// Matching: text is a case-insensitive substring of the element's label (name) or of its value;
// role matches a role that starts with or contains it, ignoring case, spaces, '-' and '_'
// ("button" matches "PushButton", "toggle" matches "ToggleButton", "menu item" matches
// "MenuItem"). Among matches the winner is the first by: not in a window a modal dialog blocks, visible, enabled, matched by its label
// rather than its value, editable (only when the step needs a field: a click followed by
// typing, or setting a value), interactive (it can be pressed or typed into, where the other is
// static text), actionable, exact text (ignoring case), shorter text, document order. So "Courier
// note" picks the entry labelled so, not the static label beside it that shares the name — for
// a click alone too; what decided is returned as facts (Choice) for the answer to explain. A
// secure field's value is never matched. Refused rather than guessed: an element only a modal
// dialog's blocked window has, and matches in different windows that only shortness or document
// order would tell apart (the error lists them with their windows).

import { TandemError } from '../errors.js';
import type { ElementNode, Point } from '../model.js';
import type { ElementQuery } from '../call/steps.js';
import { MAX_TEXT_CHARS, displayText, displayValue, formatElementLabel, formatElementLine, formatIndexedLine } from './treeFormat.js';
import { topLevelOf } from './windowFacts.js';
import { rectContains } from './windowChoice.js';

const DEFAULT_CANDIDATES = 5;

function fold(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

function foldRole(role: string): string {
  return role.toLowerCase().replace(/[\s_-]+/g, '');
}

export function roleMatches(role: string, filter: string): boolean {
  const wanted = foldRole(filter);
  return wanted === '' || foldRole(role).includes(wanted);
}

/** An element's index and tree line, as candidate lists show it: `#12 [PushButton] "Save" …`. */
export function formatCandidate(el: ElementNode): string {
  return formatIndexedLine(el);
}

function describeQuery(query: ElementQuery): string {
  const parts: string[] = [];
  if (query.text !== undefined) parts.push(`text ${JSON.stringify(query.text)}`);
  if (query.role !== undefined) parts.push(`role ${JSON.stringify(query.role)}`);
  if (query.index !== undefined) parts.push(`element_index ${query.index}`);
  return parts.join(' and ');
}

/** What the step will do with the element: typing needs a field, a click an actionable element. */
export type ElementPurpose = 'any' | 'editable';

/**
 * Roles of elements that take typed text (AT-SPI and AX names, PascalCase): the guess for
 * elements whose backend did not say (ElementNode.editable).
 */
const EDITABLE_ROLES: ReadonlySet<string> = new Set([
  'Text', 'Entry', 'PasswordText', 'SpinButton', 'ComboBox', 'Terminal', 'DocumentText', 'Editbar',
  'TextField', 'TextArea', 'SecureTextField', 'SearchField',
]);

export function isEditable(el: ElementNode): boolean {
  return el.editable ?? EDITABLE_ROLES.has(el.role);
}

/**
 * Roles of static text: not what a click means even when the toolkit gives them an action (GTK 4
 * labels offer one, for their mnemonic), so a label never wins over the field it names.
 */
const STATIC_TEXT_ROLES: ReadonlySet<string> = new Set(['Label', 'StaticText', 'Static', 'Caption', 'Heading', 'Paragraph']);

/** Something a person clicks to act or to type: not static text, not a container. */
function isInteractive(el: ElementNode): boolean {
  return (el.actionable && !STATIC_TEXT_ROLES.has(el.role)) || isEditable(el);
}

function labelMatches(el: ElementNode, foldedText: string): boolean {
  return fold(displayText(el)).includes(foldedText);
}

function valueMatches(el: ElementNode, foldedText: string): boolean {
  const value = displayValue(el);
  return value !== undefined && fold(value).includes(foldedText);
}

function matches(el: ElementNode, foldedText: string | undefined, role: string | undefined): boolean {
  if (role !== undefined && !roleMatches(el.role, role)) return false;
  if (foldedText !== undefined && !labelMatches(el, foldedText) && !valueMatches(el, foldedText)) return false;
  return true;
}

/** Why one match beat another: the first criterion that told them apart. */
export type ChoiceReason = 'unblocked' | 'visible' | 'enabled' | 'editable' | 'interactive' | 'actionable' | 'label' | 'exact' | 'shorter' | 'first';

/** Which criterion puts `a` before `b` (negative) or after (positive), and its name. */
function compareMatches(a: ElementNode, b: ElementNode, foldedText: string | undefined, purpose: ElementPurpose): { order: number; reason: ChoiceReason } {
  const blockedA = a.blockedBy !== undefined;
  if (blockedA !== (b.blockedBy !== undefined)) return { order: blockedA ? 1 : -1, reason: 'unblocked' };
  if (a.visible !== b.visible) return { order: a.visible ? -1 : 1, reason: 'visible' };
  if (a.enabled !== b.enabled) return { order: a.enabled ? -1 : 1, reason: 'enabled' };
  // What an element is called identifies it better than what it happens to hold: a document
  // containing the word "Save" is no "Save" button.
  if (foldedText !== undefined) {
    const byLabelA = labelMatches(a, foldedText);
    const byLabelB = labelMatches(b, foldedText);
    if (byLabelA !== byLabelB) return { order: byLabelA ? -1 : 1, reason: 'label' };
  }
  if (purpose === 'editable' && isEditable(a) !== isEditable(b)) return { order: isEditable(a) ? -1 : 1, reason: 'editable' };
  if (isInteractive(a) !== isInteractive(b)) return { order: isInteractive(a) ? -1 : 1, reason: 'interactive' };
  if (a.actionable !== b.actionable) return { order: a.actionable ? -1 : 1, reason: 'actionable' };
  const textA = displayText(a);
  const textB = displayText(b);
  if (foldedText !== undefined) {
    const exactA = fold(textA) === foldedText;
    const exactB = fold(textB) === foldedText;
    if (exactA !== exactB) return { order: exactA ? -1 : 1, reason: 'exact' };
  }
  if (textA.length !== textB.length) return { order: textA.length - textB.length, reason: 'shorter' };
  return { order: a.index - b.index, reason: 'first' };
}

/** The element a text/role query picked, and — when others matched too — what set it apart. */
export interface Choice {
  element: ElementNode;
  /** Other elements that matched. */
  others: number;
  /** The best of the others, and the criterion that put the chosen one first. */
  runnerUp?: ElementNode;
  reason?: ChoiceReason;
}

function findByIndex(elements: readonly ElementNode[], index: number): ElementNode | undefined {
  const direct = elements[index];
  if (direct && direct.index === index) return direct;
  return elements.find((el) => el.index === index);
}

/**
 * The element `query` designates. Throws TandemError 'bad-input' for an empty query,
 * 'stale-element' when element_index is not (or no longer) that element, and 'not-found' with
 * the closest candidates when nothing matches.
 */
export function findElement(elements: readonly ElementNode[], query: ElementQuery, purpose: ElementPurpose = 'any'): ElementNode {
  return chooseElement(elements, query, purpose).element;
}

/** Like findElement, with what set the chosen element apart from the other matches. */
export function chooseElement(elements: readonly ElementNode[], query: ElementQuery, purpose: ElementPurpose = 'any'): Choice {
  const hasText = query.text !== undefined && query.text !== '';
  const hasRole = query.role !== undefined && query.role.trim() !== '';
  if (query.index === undefined && !hasText && !hasRole) {
    throw new TandemError('bad-input', 'No element was named: the query has no text, role or element_index.', { reason: 'no-query' });
  }
  const foldedText = hasText ? fold(query.text!) : undefined;
  const role = hasRole ? query.role : undefined;

  if (query.index !== undefined) {
    const el = findByIndex(elements, query.index);
    if (!el) {
      throw new TandemError(
        'stale-element',
        `element_index ${query.index} is not in the current tree (${elements.length ? `indices 0–${elements.length - 1}` : 'it is empty'}).`,
        { index: query.index, elementCount: elements.length },
      );
    }
    if (!matches(el, foldedText, role)) {
      throw new TandemError(
        'stale-element',
        `element_index ${query.index} is now ${formatCandidate(el)}, which does not match ${describeQuery({ ...query, index: undefined })}: the tree changed.`,
        { index: query.index, element: formatElementLine(el) },
      );
    }
    return { element: el, others: 0 };
  }

  let best: ElementNode | undefined;
  let runnerUp: ElementNode | undefined;
  let others = 0;
  for (const el of elements) {
    if (!matches(el, foldedText, role)) continue;
    if (!best) {
      best = el;
      continue;
    }
    others++;
    if (compareMatches(el, best, foldedText, purpose).order < 0) {
      runnerUp = best;
      best = el;
    } else if (!runnerUp || compareMatches(el, runnerUp, foldedText, purpose).order < 0) {
      runnerUp = el;
    }
  }
  if (best) {
    refuseBlocked(elements, best);
    if (!runnerUp) return { element: best, others };
    const reason = compareMatches(best, runnerUp, foldedText, purpose).reason;
    if (UNCLEAR_REASONS.has(reason) && topLevelOf(elements, best) !== topLevelOf(elements, runnerUp)) {
      throw ambiguousError(elements, query, best, (el) => el === best || (matches(el, foldedText, role) && UNCLEAR_REASONS.has(compareMatches(best, el, foldedText, purpose).reason)));
    }
    return { element: best, others, runnerUp, reason };
  }

  const candidates = closestCandidates(elements, query, DEFAULT_CANDIDATES);
  const lines = candidates.map((el) => `  ${formatCandidate(el)}`);
  const message =
    `No element matches ${describeQuery(query)}.` +
    (lines.length
      ? `\nClosest elements (#element_index, then the tree line):\n${lines.join('\n')}`
      : ' The tree has no element close to it.');
  throw new TandemError('not-found', message, { candidates: candidates.map(formatCandidate) });
}

// — targets a person could not reach, or could not tell apart —

/** Criteria too weak to choose between elements of different windows: the agent must say which. */
const UNCLEAR_REASONS: ReadonlySet<ChoiceReason> = new Set(['shorter', 'first']);

/** Most candidates an ambiguity error lists. */
const MAX_AMBIGUOUS = 8;

/** The window (top-level element) an element is in, as its tree label, for candidate lists. */
function windowLabel(elements: readonly ElementNode[], el: ElementNode): string {
  const top = topLevelOf(elements, el);
  return top ? `window #${top.index} ${formatElementLabel(top)}` : 'the app';
}

function ambiguousError(elements: readonly ElementNode[], query: ElementQuery, best: ElementNode, tied: (el: ElementNode) => boolean): TandemError {
  const alike = elements.filter(tied).slice(0, MAX_AMBIGUOUS).map((el) => `${formatCandidate(el)} in ${windowLabel(elements, el)}`);
  return new TandemError(
    'not-found',
    `${describeQuery(query)} matches elements in different windows, and nothing tells which is meant:\n${alike.map((line) => `  ${line}`).join('\n')}`,
    { reason: 'ambiguous', candidates: alike },
  );
}

/**
 * Throws 'not-found' (reason 'blocked-by-dialog', naming the dialog) when `el` is in a window a
 * modal dialog blocks: a click there reaches nothing, or something the person did not mean.
 */
export function refuseBlocked(elements: readonly ElementNode[], el: ElementNode): void {
  if (el.blockedBy === undefined) return;
  const dialog = findByIndex(elements, el.blockedBy);
  const named = dialog ? `#${dialog.index} ${formatElementLabel(dialog)}` : `#${el.blockedBy}`;
  throw new TandemError(
    'not-found',
    `${formatCandidate(el)} is in a window the open dialog ${named} blocks: it takes no input until that dialog is closed.`,
    { reason: 'blocked-by-dialog', index: el.index, dialog: named },
  );
}

// — closeness —

/** Longest text looked at when scoring a candidate (keeps the error path fast on huge trees). */
const MAX_SCORED_CHARS = MAX_TEXT_CHARS * 2;
/** Patterns are compared on their first 32 characters: one machine word per text character. */
const MAX_PATTERN_CHARS = 32;

/**
 * Fewest edits turning a pattern into some substring of a text (approximate substring matching),
 * with Myers' bit-parallel algorithm: one 32-bit word of state, a few operations per text
 * character. Written here rather than pulled from a package: the edit-distance packages compute
 * whole-string distance, which is wrong for a substring query, and this is thirty lines.
 */
export class SubstringMatcher {
  readonly pattern: string;
  private readonly ascii = new Int32Array(128);
  private readonly other = new Map<number, number>();
  private readonly lastBit: number;
  private readonly allBits: number;

  constructor(pattern: string) {
    this.pattern = pattern.slice(0, MAX_PATTERN_CHARS);
    const m = this.pattern.length;
    for (let i = 0; i < m; i++) {
      const code = this.pattern.charCodeAt(i);
      if (code < 128) this.ascii[code] |= 1 << i;
      else this.other.set(code, (this.other.get(code) ?? 0) | (1 << i));
    }
    this.lastBit = m ? 1 << (m - 1) : 0;
    this.allBits = m === 32 ? -1 : (1 << m) - 1;
  }

  distance(text: string): number {
    const m = this.pattern.length;
    if (m === 0) return 0;
    let pv = this.allBits; // vertical +1 deltas of the current column
    let mv = 0; // vertical -1 deltas
    let score = m;
    let best = m;
    for (let j = 0; j < text.length; j++) {
      const code = text.charCodeAt(j);
      const eq = code < 128 ? this.ascii[code] : (this.other.get(code) ?? 0);
      const xv = eq | mv;
      const xh = ((((eq & pv) + pv) | 0) ^ pv) | eq;
      let ph = mv | ~(xh | pv);
      let mh = pv & xh;
      if (ph & this.lastBit) score++;
      else if (mh & this.lastBit) score--;
      // Shift in 0, not 1: a match may start anywhere in the text (row 0 stays 0).
      ph <<= 1;
      mh <<= 1;
      pv = mh | ~(xv | ph);
      mv = ph & xv;
      if (score < best) best = score;
    }
    return best;
  }
}

/** Fewest edits turning `pattern` (its first 32 characters) into some substring of `text`. */
export function substringEditDistance(pattern: string, text: string): number {
  return new SubstringMatcher(pattern).distance(text);
}

/** Scores elements against one query; built once per query (0…1.4, higher is closer). */
class Closeness {
  private readonly matcher?: SubstringMatcher;
  private readonly words: string[];
  private readonly wantedRole?: string;
  private readonly roleScores = new Map<string, number>();

  constructor(
    private readonly foldedText: string | undefined,
    role: string | undefined,
  ) {
    if (foldedText !== undefined) this.matcher = new SubstringMatcher(foldedText);
    this.words = foldedText ? foldedText.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0) : [];
    this.wantedRole = role === undefined ? undefined : foldRole(role);
  }

  /** How well the element's role matches, 0…1; roles are few, so cached. */
  private roleScore(role: string): number {
    let score = this.roleScores.get(role);
    if (score === undefined) {
      const wanted = this.wantedRole!;
      const have = foldRole(role);
      score = have.includes(wanted) ? 1 : Math.max(0, 1 - substringEditDistance(wanted, have) / Math.max(1, wanted.length));
      this.roleScores.set(role, score);
    }
    return score;
  }

  score(el: ElementNode): number {
    let score = 0;
    const { foldedText, matcher } = this;
    if (foldedText !== undefined && matcher) {
      const text = fold(`${displayText(el)} ${displayValue(el) ?? ''}`.trim().slice(0, MAX_SCORED_CHARS));
      if (text === '') return -1;
      const editScore = 1 - matcher.distance(text) / matcher.pattern.length;
      // Words found anywhere: catches reordered multi-word queries ("report quarterly").
      let shared = 0;
      for (const word of this.words) if (text.includes(word)) shared++;
      const wordScore = this.words.length > 1 ? shared / this.words.length : 0;
      const textScore = Math.max(editScore, wordScore);
      // Less than a third of the query found: not a candidate worth naming, unless the role is.
      if (textScore < 0.34 && (this.wantedRole === undefined || this.roleScore(el.role) < 1)) return -1;
      // Small bonus for a similar length, so "Sve" ranks "Save" above "Save As…".
      const lengthScore = Math.min(foldedText.length, text.length) / Math.max(foldedText.length, text.length);
      score += textScore + 0.1 * lengthScore;
    }
    if (this.wantedRole !== undefined) score += foldedText !== undefined ? 0.3 * this.roleScore(el.role) : this.roleScore(el.role);
    if (el.visible) score += 0.05;
    if (el.actionable) score += 0.02;
    return score;
  }
}

/** Up to `limit` elements closest to `query`, best first (for not-found messages). */
export function closestCandidates(elements: readonly ElementNode[], query: ElementQuery, limit: number = DEFAULT_CANDIDATES): ElementNode[] {
  const foldedText = query.text ? fold(query.text) : undefined;
  const role = query.role && query.role.trim() ? query.role : undefined;
  if (limit <= 0 || (foldedText === undefined && role === undefined)) return [];
  const closeness = new Closeness(foldedText, role);
  // Keep only the best `limit` while scanning: O(n · limit), no full sort of a big tree.
  const best: Array<{ el: ElementNode; score: number }> = [];
  for (const el of elements) {
    const score = closeness.score(el);
    if (score <= 0.1) continue;
    if (best.length === limit && score <= best[best.length - 1].score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].score < score) at--;
    best.splice(at, 0, { el, score });
    if (best.length > limit) best.pop();
  }
  return best.map((entry) => entry.el);
}

// — hit testing —

/**
 * The innermost element under `point`: visible first, then smallest area, then deepest, then
 * last in document order — among the elements `accept` takes (all by default).
 */
export function elementAtPoint(elements: readonly ElementNode[], point: Point, accept: (el: ElementNode) => boolean = () => true): ElementNode | null {
  let best: ElementNode | null = null;
  let bestArea = Infinity;
  for (const el of elements) {
    if (!rectContains(el.bounds, point) || !accept(el)) continue;
    const area = el.bounds!.width * el.bounds!.height;
    if (best) {
      if (best.visible && !el.visible) continue;
      if (best.visible === el.visible) {
        if (area > bestArea) continue;
        if (area === bestArea && el.depth < best.depth) continue;
      }
    }
    best = el;
    bestArea = area;
  }
  return best;
}
