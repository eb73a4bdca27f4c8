// The app's own answer to "what is at this point" on macOS (AXUIElementCopyElementAtPosition,
// asked of the application element so the test stays inside the app and follows its window
// layering), walked up through AXParent to the window: the identities core compares with the
// element a click aims at (core/call/pointReach.ts). Written against Apple's documentation of
// AXUIElement.h, not run on a Mac here.
//
// What the documentation says and this relies on: the point is in top-left relative screen
// coordinates (global points, as the tree's bounds) and taken as floats; hit testing follows
// window z-order, and only the system-wide element leaves the test unrestricted to one app. So
// asked of the app, a point under another app's window answers the app's own element beneath it
// (or kAXErrorNoValue): this check cannot see another app covering the target. kAXErrorNoValue
// means nothing is there; kAXErrorCannotComplete (hung or busy app) and kAXErrorAPIDisabled are
// failures, thrown so core logs why the click went unchecked.

import type { ElementNode, Point } from '../../core/model.js';
import { type Progress, remainingMs } from '../../core/progress.js';
import type { NullableRef, Ref } from '../../../native/macos/macNative.js';
import { CFScope } from '../../../native/macos/cfScope.js';
import { AXErrorCode, axErrorToTandem } from './axErrors.js';
import { AX_MESSAGING_TIMEOUT_S, type AxElementRegistry, type AxSession } from './axElement.js';
import { axIdentity } from './axTree.js';

/** Deeper than any real view nesting: a parent chain that does not end stops here. */
const MAX_LEVELS = 40;

/** Seconds each AX call of the hit test may block: what is left of the caller's deadline, at most the session's timeout. */
function callTimeoutS(progress: Progress): number {
  return Math.min(AX_MESSAGING_TIMEOUT_S, remainingMs(progress) / 1000);
}

/**
 * The identities (as the tree reader writes them: axIdentity) of the element at `point` and
 * of its ancestors up to `window`, outermost first. null when the app has no element there.
 * Throws the mapped AX error when the app cannot answer (hung, accessibility disabled).
 */
export function axElementsAtPoint(session: AxSession, registry: AxElementRegistry, window: ElementNode, point: Point, progress: Progress): string[] | null {
  const { pid } = registry.resolve(window.handle);
  const { ax, cf } = session.native;
  const app = session.app(pid);
  const scope = new CFScope(cf);
  // AXUIElementSetMessagingTimeout on one element holds for that element only (the documentation):
  // the app's element is bounded here, every element the walk meets below, and the app's own
  // timeout is put back after.
  ax.AXUIElementSetMessagingTimeout(app, Math.max(0.05, callTimeoutS(progress)));
  try {
    const out: NullableRef[] = [null];
    const error = ax.AXUIElementCopyElementAtPosition(app, point.x, point.y, out);
    if (error === AXErrorCode.noValue) return null;
    if (error !== AXErrorCode.success) throw axErrorToTandem(error, { operation: `asking the app what is at ${Math.round(point.x)},${Math.round(point.y)}` });
    // Copy rule: the element returned is ours to release.
    let element: NullableRef = scope.adopt(out[0]);
    if (element === null) return null;
    const chain: string[] = [];
    for (let level = 0; element !== null && level < MAX_LEVELS; level++) {
      const current: Ref = element;
      // Past the deadline the chain read so far still names the deepest element, which is what core compares.
      const timeout = callTimeoutS(progress);
      if (timeout <= 0 && chain.length > 0) break;
      ax.AXUIElementSetMessagingTimeout(current, Math.max(0.05, timeout));
      const role = session.decoder.string(session.copy(scope, current, 'AXRole').value);
      if (role === 'AXApplication') break;
      const identity = axIdentity(role, cf.CFHash(current));
      chain.push(identity);
      if (identity === window.identity) break;
      const parent: NullableRef = session.copy(scope, current, 'AXParent').value;
      element = parent !== null && session.decoder.isElement(parent) ? parent : null;
    }
    return chain.reverse();
  } finally {
    ax.AXUIElementSetMessagingTimeout(app, AX_MESSAGING_TIMEOUT_S);
    scope.close();
  }
}
