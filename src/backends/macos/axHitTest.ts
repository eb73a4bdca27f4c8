// The app's own answer to "what is at this point" on macOS (AXUIElementCopyElementAtPosition,
// asked of the application element so the test stays inside the app and follows its window
// layering), walked up through AXParent to the window: the identities core compares with the
// element a click aims at (core/call/pointReach.ts). Written against Apple's documentation of
// AXUIElement.h, not run on a Mac here.

import type { ElementNode, Point } from '../../core/model.js';
import type { NullableRef } from '../../../native/macos/macNative.js';
import { CFScope } from '../../../native/macos/cfScope.js';
import { AXErrorCode } from './axErrors.js';
import type { AxElementRegistry, AxSession } from './axElement.js';

/** Deeper than any real view nesting: a parent chain that does not end stops here. */
const MAX_LEVELS = 40;

/**
 * The identities (as the tree reader writes them: AXRole#CFHash) of the element at `point` and
 * of its ancestors up to `window`, outermost first. null when the app answers nothing there.
 */
export function axElementsAtPoint(session: AxSession, registry: AxElementRegistry, window: ElementNode, point: Point): string[] | null {
  const { pid } = registry.resolve(window.handle);
  const scope = new CFScope(session.native.cf);
  try {
    const out: NullableRef[] = [null];
    // Global top-left points, as the tree's bounds; taken as floats by the API.
    const error = session.native.ax.AXUIElementCopyElementAtPosition(session.app(pid), point.x, point.y, out);
    if (error !== AXErrorCode.success || out[0] === null) return null;
    let element: NullableRef = scope.adopt(out[0]);
    const chain: string[] = [];
    for (let level = 0; element !== null && level < MAX_LEVELS; level++) {
      const role = session.decoder.string(session.copy(scope, element, 'AXRole').value);
      if (role === 'AXApplication') break;
      const identity = `${role ?? '?'}#${session.native.cf.CFHash(element)}`;
      chain.push(identity);
      if (identity === window.identity) break;
      const parent: NullableRef = session.copy(scope, element, 'AXParent').value;
      element = parent !== null && session.decoder.isElement(parent) ? parent : null;
    }
    return chain.reverse();
  } finally {
    scope.close();
  }
}
