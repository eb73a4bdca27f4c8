// Redaction: text typed into a password field never leaves the keyboard — not even its length.
// The backend never reads a secure element's value; this file decides which typed text counts
// as secure and how steps are described in events, log lines, stepsDone, summaries and artifacts.
// Log lines never carry typed text at all, secure or not.

import type { ElementNode, Rect, TreeSnapshot } from '../model.js';
import type { ClickStep, ElementQuery, Step } from '../call/steps.js';
import { quoteText } from './treeFormat.js';
import { rectInside } from './windowChoice.js';

/** How typed text (or a set value) is shown when its destination is a secure field: nothing of it, not its length. */
export function secureTextLabel(_text: string): string {
  return '[secure text]';
}

/** Whether a type/set-value step's destination is secure: known from the tree, or not yet. */
export type Destination = 'secure' | 'plain' | 'unknown';

/** Steps after which the focused element may be a different one. */
export function movesFocus(step: Step): boolean {
  if (step.kind === 'type-text') return step.query !== undefined;
  return step.kind === 'click' || step.kind === 'drag' || step.kind === 'press' || step.kind === 'element-action' || step.kind === 'set-value' || step.kind === 'set-selected';
}

/** The last step before `index` that may move the focus (where typing at `index` goes), or -1. */
export function lastFocusMover(steps: readonly Step[], index: number): number {
  for (let j = index - 1; j >= 0; j--) if (movesFocus(steps[j])) return j;
  return -1;
}

/**
 * Predicts, from the tree before the call, where each type/set-value step's text goes. A type
 * step goes to the element the nearest preceding click targeted, else (no focus-moving step
 * before it) to the focused element; after a key press or an accessibility action it is
 * 'unknown' and the transaction checks the focused element when the step runs. Anything that
 * cannot be resolved counts as secure in events: better a hidden word than a shown password.
 */
export function predictDestinations(
  steps: readonly Step[],
  before: TreeSnapshot,
  targetOf: (step: Step, index: number) => ElementNode | null,
): Map<number, Destination> {
  const result = new Map<number, Destination>();
  const focused = before.elements.find((el) => el.focused) ?? null;
  steps.forEach((step, index) => {
    if (step.kind === 'set-value' || (step.kind === 'type-text' && step.query)) {
      const target = targetOf(step, index);
      result.set(index, target ? (target.secure ? 'secure' : 'plain') : 'unknown');
      return;
    }
    if (step.kind !== 'type' && step.kind !== 'type-text') return;
    const mover = lastFocusMover(steps, index);
    if (mover < 0) {
      // No element shows the focus: the keys may well land in a password field.
      result.set(index, focused ? (focused.secure ? 'secure' : 'plain') : 'unknown');
    } else if (steps[mover].kind === 'click') {
      const target = targetOf(steps[mover], mover);
      result.set(index, target ? (target.secure ? 'secure' : 'plain') : 'unknown');
    } else {
      result.set(index, 'unknown');
    }
  });
  return result;
}

function describeQuery(query: ElementQuery): string {
  const parts: string[] = [];
  if (query.index !== undefined) parts.push(`#${query.index}`);
  if (query.role) parts.push(`[${query.role}]`);
  if (query.text !== undefined) parts.push(quoteText(query.text));
  return parts.join(' ');
}

/** Typed text or a value as events and results may show it. */
export function shownText(text: string, secure: boolean): string {
  return secure ? secureTextLabel(text) : quoteText(text);
}

/** Where a pointer step aims, for the feed. */
function describeTarget(target: ClickStep['target']): string {
  if ('point' in target) return `${target.point.x},${target.point.y}`;
  if ('zoomPixel' in target) return `${target.zoomPixel.x},${target.zoomPixel.y} in the last zoom`;
  return describeQuery(target.query);
}

/** A one-line label for the feed ("Click \"Save\"", "Type [secure text]"). */
export function describeStep(step: Step, secure: boolean): string {
  switch (step.kind) {
    case 'click': {
      const verb = step.count === 2 ? 'Double-click' : step.button === 'right' ? 'Right-click' : step.button === 'middle' ? 'Middle-click' : 'Click';
      return `${verb} ${describeTarget(step.target)}${step.modifiers.length ? ` with ${step.modifiers.join('+')}` : ''}`;
    }
    case 'type':
      return `Type ${shownText(step.text, secure)}`;
    case 'type-text':
      return `Type ${shownText(step.text, secure)}${step.query ? ` into ${describeQuery(step.query)}` : ''}${step.mode === 'auto' ? '' : ` (${step.mode})`}`;
    case 'press':
      return `Press ${[...step.modifiers, step.key].join('+')}${(step.count ?? 1) > 1 ? ` ×${step.count}` : ''}`;
    case 'scroll':
      return `Scroll ${step.deltaX},${step.deltaY} at ${describeTarget(step.target)}`;
    case 'drag':
      return `Drag from ${describeTarget(step.from)} to ${describeTarget(step.to)}${step.modifiers.length ? ` with ${step.modifiers.join('+')}` : ''}`;
    case 'wait':
      return `Wait ${step.ms} ms`;
    case 'element-action':
      return `${step.action} ${describeQuery(step.query)}`;
    case 'set-value':
      return `Set ${describeQuery(step.query)} to ${shownText(step.value, secure)}`;
    case 'set-selected':
      return `${step.selected ? 'Select' : 'Deselect'} ${describeQuery(step.query)}`;
  }
}

/** The step as event args: the same object with secure text replaced by its label. */
export function redactStep(step: Step, secure: boolean): Record<string, unknown> {
  if (step.kind === 'type' || step.kind === 'type-text') return { ...step, text: secure ? secureTextLabel(step.text) : step.text };
  if (step.kind === 'set-value') return { ...step, value: secure ? secureTextLabel(step.value) : step.value };
  return { ...step };
}

/** Secure in events unless the tree says plainly otherwise. */
export function secureForEvents(destination: Destination | undefined): boolean {
  return destination === 'secure' || destination === 'unknown';
}

/**
 * Where password fields are on screen, for screenshots to paint over: the dots a field shows
 * count its characters. Every secure element with a size counts, shown or not (a rectangle
 * outside the image costs nothing).
 */
export function secureAreas(...trees: ReadonlyArray<readonly ElementNode[] | undefined>): Rect[] {
  const areas: Rect[] = [];
  for (const elements of trees) {
    for (const el of elements ?? []) {
      if (el.secure && el.bounds && el.bounds.width > 0 && el.bounds.height > 0) areas.push(el.bounds);
    }
  }
  return areas;
}

/** Whether every one of `areas` lies inside one of `covered` (a screenshot painted over `covered` hides them all). */
export function areasCovered(areas: readonly Rect[], covered: readonly Rect[]): boolean {
  return areas.every((area) => covered.some((cover) => rectInside(area, cover)));
}
