// Before a click on an element by position: the app's own hit test at the point must find that
// element. Extents an app reports can be wrong while its hit test follows what it paints
// (LibreOffice reports its toolbar buttons ~28 px above where they are): a click at the centre
// of such bounds lands on another element, and an answer "clicked Bold" would be false.
// What counts as reaching the target: the target itself, anything inside it (a label in a
// button), or a container of it when the hit test names nothing deeper there (a toolkit whose
// containers do not descend to that child). Anything else is another element: the point does not
// reach the target. Where the hit test is unavailable, slow or names nothing known, the click
// goes as before.

import type { ElementNode, Point } from '../model.js';
import { withTimeout } from '../progress.js';
import { holds, parentOf } from '../tree/lineage.js';
import { rectContains } from '../tree/windowChoice.js';
import type { CallState } from './callState.js';

/** A hit test costs a few D-Bus round trips (~1 ms each): past this the click goes unchecked. */
const HIT_TEST_MS = 400;

/**
 * The element the hit test found at the point instead of `target`, or null when the point
 * reaches the target (itself, inside it, or a container of it with nothing deeper named) or
 * when it cannot be told (no identities, nothing hit that the snapshot knows). `chain`: the
 * identities hit, outermost first.
 */
export function elementReachedInstead(elements: readonly ElementNode[], target: ElementNode, chain: readonly string[], point?: Point): ElementNode | null {
  if (!target.identity) return null;
  const known = new Map<string, ElementNode>();
  for (const element of elements) if (element.identity) known.set(element.identity, element);
  // The deepest element hit that the snapshot knows: deeper ones (not read) cannot be placed.
  const deepest = [...chain].reverse().map((identity) => known.get(identity)).find((element) => element !== undefined);
  if (!deepest) return null;
  if (holds(elements, target, deepest)) return null;
  if (holds(elements, deepest, target)) return null;
  // The tree puts both there: one is drawn over the other, and a hit test from the window down
  // cannot see a popup's own window above the page (Chromium's open <select> list over the form's
  // buttons). The tree is right about the target, so the pointer goes. Where the tree puts the
  // other element elsewhere, the app's geometry is stale and its hit test is believed.
  if (point && deepest.bounds && target.bounds && rectContains(deepest.bounds, point) && rectContains(target.bounds, point)) return null;
  return deepest;
}

/** The top-level element (a window, at depth 1) holding `element`, or null when the snapshot has none. */
export function windowElementOf(elements: readonly ElementNode[], element: ElementNode): ElementNode | null {
  let node: ElementNode | undefined = element;
  while (node && node.depth > 1) node = parentOf(elements, node);
  return node && node.depth === 1 ? node : null;
}

/**
 * Asks the app what is at `point` and returns the element there when it is not `target`
 * (see elementReachedInstead). null where the desktop has no hit test, it fails or it takes
 * longer than HIT_TEST_MS. An abort (Esc, watchdog) still ends the call.
 */
export async function elementAtPointInstead(state: CallState, target: ElementNode, point: Point): Promise<ElementNode | null> {
  const hitTest = state.desktop.accessibleAtPoint?.bind(state.desktop);
  const elements = state.current.elements;
  const window = hitTest ? windowElementOf(elements, target) : null;
  if (!hitTest || !window) return null;
  let chain: string[] | null;
  try {
    // The pointer goes there first, as the click would take it: an app can keep a stale idea of
    // where its widgets are until input reaches it (LibreOffice right after it opens answers
    // extents and hit tests ~28 px off until the pointer enters its window), and the press then
    // lands where the app places things once it has that input.
    await state.step(state.desktop.moveCursor(point));
    chain = await state.step(hitTest(window, point, withTimeout(state.progress, HIT_TEST_MS)));
  } catch (error) {
    if (state.abort.signal.aborted || state.progress.signal.aborted) throw error;
    state.log(`hit test at ${Math.round(point.x)},${Math.round(point.y)} unavailable: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
  return chain ? elementReachedInstead(elements, target, chain, point) : null;
}
