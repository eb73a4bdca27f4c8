// Where a pointer step aims, on the screen: an element's centre (estimated when the toolkit
// gives none), a screen point as the tree prints it, or a pixel of its last zoom image.

import { TandemError } from '../errors.js';
import type { ElementNode, Point } from '../model.js';
import { centreOf, estimateBounds } from './scrollIntoView.js';
import type { ClickStep, ElementQuery } from './steps.js';
import { formatElementLabel } from '../tree/treeFormat.js';
import { screenPointOf as zoomPixelOnScreen } from '../artifacts/zoom.js';
import type { CallState } from './callState.js';
import { locate } from './stepTargets.js';

/** Where a pointer step (a scroll, a drag's end) aims, on the screen, and the element there when known. */
export async function pointerAt(state: CallState, target: ClickStep['target'], index: number, mustShow = false): Promise<{ point: Point; element: ElementNode | null }> {
  if ('query' in target) {
    const element = await locate(state, target.query, index);
    // A drag presses the button where the element is: pressed on a guessed place off screen, it
    // would grab whatever is there instead (another row, another window).
    if (mustShow && (!element.visible || !element.bounds)) {
      throw new TandemError('unsupported', `${formatElementLabel(element)} is not on screen.`, { reason: 'not-on-screen', index: element.index });
    }
    const bounds = element.bounds ?? estimateBounds(state.current.elements, element);
    if (!bounds) throw new TandemError('unsupported', `${formatElementLabel(element)} has no position on screen.`, { reason: 'no-position', index: element.index });
    return { point: centreOf(bounds), element };
  }
  return { point: await screenPointOf(state, target), element: null };
}

/** A target given as a point (on the screen, or in the last zoom) on the screen. */
export async function screenPointOf(state: CallState, target: Exclude<ClickStep['target'], { query: ElementQuery }>): Promise<Point> {
  if ('zoomPixel' in target) return zoomToScreen(state, target.zoomPixel);
  return target.point;
}

/** A pixel of the app's last zoom image, on the screen. */
export function zoomToScreen(state: CallState, pixel: Point): Point {
  const view = state.deps.zoomView?.(state.request.pid);
  if (!view) throw new TandemError('not-found', `There is no zoom image of pid ${state.request.pid} to click in.`, { reason: 'no-zoom' });
  return zoomPixelOnScreen(view, pixel);
}

