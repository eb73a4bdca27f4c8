// Before a click presses: the window under the point must be the one the answer will name. A
// window of another app stacked above the target (an always-on-top window, a notification, a
// dialog of another process), or another window of the app where a given element's window was
// expected, would take the click instead: the call stops there and says which window it is.

import { TandemError } from '../errors.js';
import type { ElementNode, Point, WindowInfo } from '../model.js';
import { formatElementLabel } from '../tree/treeFormat.js';
import type { CallState } from './callState.js';

/** Whether `found` is where a click meant for `element` (or for any window of `pid`) lands. */
function isExpected(found: WindowInfo, pid: number, element: ElementNode | null): boolean {
  if (element) {
    // An element no listed window holds is in a popup (a menu, a combo list: override-redirect
    // on X11, in no stacking list), drawn above every window: the list cannot tell what covers it.
    return element.windowId === undefined || found.windowId === element.windowId;
  }
  // A window whose owner is unknown (no _NET_WM_PID) cannot be told apart: let the click go.
  return found.pid === pid || found.pid === 0;
}

function describeWindow(window: WindowInfo): string {
  const app = window.app ? ` of ${window.app}` : '';
  return `window ${JSON.stringify(window.title)} (id ${window.windowId}${app}, pid ${window.pid || 'unknown'})`;
}

/**
 * Throws 'not-found' (reason 'window-in-the-way') when another window than the target's is the
 * topmost at `point`. Does nothing where the desktop cannot tell (no windowAt, a popup there).
 */
export async function checkWindowAtPoint(state: CallState, element: ElementNode | null, point: Point): Promise<void> {
  if (!state.desktop.windowAt) return;
  const found = await state.step(state.desktop.windowAt(point, state.progress));
  if (!found || isExpected(found, state.request.pid, element)) return;
  const target = element ? formatElementLabel(element) : `pid ${state.request.pid}'s window`;
  throw new TandemError(
    'not-found',
    `Nothing was clicked: at ${Math.round(point.x)},${Math.round(point.y)} the ${describeWindow(found)} is in front of ${target}.`,
    { reason: 'window-in-the-way', point, windowId: found.windowId, title: found.title, pid: found.pid },
  );
}
