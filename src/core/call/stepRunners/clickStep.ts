// A click: on an element (its centre, estimated when the toolkit gives none) or at a point, scrolled
// into view first.

import type { ClickOptions } from '../../desktop.js';
import { TandemError } from '../../errors.js';
import type { ElementNode, Point } from '../../model.js';
import { elementAtPoint } from '../../tree/query.js';
import { centreOf, estimateBounds, scrollIntoView } from '../scrollIntoView.js';
import { settle } from '../settle.js';
import type { ClickStep } from '../steps.js';
import { formatElementLabel } from '../../tree/treeFormat.js';
import type { CallState } from '../callState.js';
import { screenPointOf } from '../pointerTargets.js';
import { locate } from '../stepTargets.js';
import { checkWindowAtPoint } from '../windowAtPoint.js';
import { elementAtPointInstead } from '../pointReach.js';
import { pressInstead } from './pressInstead.js';
import { confirmTargetAtPoint, confirmTargetOfElementPress } from '../../confirm/confirmMatch.js';
import { confirmBeforePress, needsConfirmation } from '../confirmPress.js';
import type { DoneAt, ScrolledInto, StepDone } from '../stepsDone.js';

export async function runClickStep(state: CallState, step: ClickStep, index: number): Promise<StepDone> {
  let element: ElementNode | null;
  let point: Point;
  if ('query' in step.target) {
    element = await locate(state, step.target.query, index);
    // Toolkits give no geometry for rows scrolled out of view (GTK3 answers INT_MIN): aim
    // where its laid-out siblings say it must be, and let scroll-into-view bring it in.
    const bounds = element.bounds ?? estimateBounds(state.current.elements, element);
    if (!bounds) throw new TandemError('unsupported', `${formatElementLabel(element)} has no position on screen.`, { reason: 'no-position', index: element.index });
    point = centreOf(bounds);
  } else {
    point = await screenPointOf(state, step.target);
    element = elementAtPoint((await state.freshTree()).elements, point);
  }
  // A left click presses: on the list, the person says yes first (whatever element the point
  // lands in; for a click aimed at an element, whatever holds it or lies inside it there).
  if (step.button === 'left') await confirmBeforePress(state, index, needsConfirmation(state, element) ? element : confirmAtPoint(state, 'query' in step.target ? element : null, point));
  const reached = await clickAt(state, element, point, { button: step.button, count: step.count, modifiers: step.modifiers }, 'query' in step.target);
  if (reached.reachesInstead) return pressInstead(state, step, reached.element!, reached.point, reached.reachesInstead);
  return { kind: 'click', button: step.button, count: step.count, at: doneAt(reached), modifiers: step.modifiers, ...(reached.scrolled ? { scrolled: reached.scrolled } : {}) };
}

/** The element on the person's confirm_before list a press at `point` would press, if any. */
function confirmAtPoint(state: CallState, target: ElementNode | null, point: Point): ElementNode | null {
  const { elements } = state.current;
  const list = state.options.confirmBefore;
  return target ? confirmTargetOfElementPress(elements, target, point, list) : confirmTargetAtPoint(elements, point, list);
}

/** Where a pointer step went, as a fact: the point, and the element there by its tree label. */
export function doneAt({ point, element }: { point: Point; element: ElementNode | null }): DoneAt {
  return element ? { point, element: formatElementLabel(element) } : { point };
}

/**
 * Clicks `point` (on `element` when known), scrolled into view first; the tree is stale after it.
 * `checkReach` (a click aimed at the element, not at a point): when the app's hit test puts
 * another element at the point, nothing is clicked and that element is returned as `reachesInstead`.
 */
export async function clickAt(
  state: CallState,
  element: ElementNode | null,
  point: Point,
  options: ClickOptions,
  checkReach = false,
): Promise<{ point: Point; element: ElementNode | null; note?: string; scrolled?: ScrolledInto; reachesInstead?: ElementNode }> {
  const progress = state.progress;
  const reached = await scrollIntoView(
    {
      desktop: state.desktop,
      pid: state.request.pid,
      limits: state.options.snapshotLimits,
      progress,
      settle: async () => void (await settle(state.desktop, state.request.pid, state.options.settle, progress, state.current)),
    },
    state.current,
    { element, point },
  );
  // Scrolling, or waiting for a hidden target to show, read the tree again.
  state.current = reached.snapshot;
  if (reached.note) state.log(reached.note);
  await checkWindowAtPoint(state, reached.element, reached.point);
  const reachesInstead = checkReach && reached.element ? await elementAtPointInstead(state, reached.element, reached.point) : null;
  if (reachesInstead) return { ...reached, reachesInstead };
  await state.desktop.click(reached.point, options, progress);
  state.clickPoint = reached.point;
  state.lastClickTarget = reached.element;
  state.treeIsStale = true;
  return reached;
}
