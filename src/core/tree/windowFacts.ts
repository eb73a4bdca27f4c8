// What a person could see and reach in a tree, from the windows around it: `visible` clipped to
// the screens and to the element's own window and not covered by a window stacked above it, the
// elements of windows a modal dialog blocks marked `blockedBy`, and the modal dialog's elements
// first in the tree. OS-neutral: the backend gives the facts (the tree with each top-level
// element's `modal`, every window's frame and stacking order, the displays), the policy is here.
//
// Kept simple on purpose: an element is covered when its centre is; a window whose frame is not
// known covers nothing; a top-level element no window matches (a popup menu, an override-redirect
// tooltip) is only clipped to the screens.

import type { Display, ElementNode, Point, Rect, TreeSnapshot, WindowInfo } from '../model.js';
import { parentOf } from './lineage.js';
import { overlap, rectContains } from './windowChoice.js';

/** Roles of top-level windows a modal dialog blocks; popups (role Window: menus, tooltips, combo lists) are the dialog's own. */
const BLOCKABLE_ROLES: ReadonlySet<string> = new Set(['Frame', 'Dialog', 'FileChooser', 'Alert']);

/** Least overlap (intersection over union) for a top-level element to be a window when their titles differ. */
const MIN_FRAME_OVERLAP = 0.5;

function centreOf(rect: Rect): Point {
  return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
}

/** Whether the tree's root is the application holding its windows (AT-SPI, AX), not a window itself. */
function rootHoldsWindows(elements: readonly ElementNode[]): boolean {
  return elements[0]?.parentIndex === null && elements[0].role === 'Application';
}

/** The top-level elements (the app's windows): the application's children, or the root when it is the window. */
export function topLevels(elements: readonly ElementNode[]): ElementNode[] {
  if (!rootHoldsWindows(elements)) return elements.slice(0, 1);
  return elements.filter((el) => el.parentIndex === 0);
}

/** The top-level element (window) `el` is in; null for the application itself. */
export function topLevelOf(elements: readonly ElementNode[], el: ElementNode): ElementNode | null {
  if (!rootHoldsWindows(elements)) return elements[0] ?? null;
  let current: ElementNode | undefined = el;
  for (let hops = 0; current && current.parentIndex !== null && hops < 10_000; hops++) {
    if (current.parentIndex === 0) return current;
    current = parentOf(elements, current);
  }
  return null;
}

/** The window of pid that a top-level element is: same title, else the frame it overlaps most (at least MIN_FRAME_OVERLAP). */
function windowOfTop(top: ElementNode, own: readonly WindowInfo[]): WindowInfo | undefined {
  if (top.windowId !== undefined) return own.find((window) => window.windowId === top.windowId);
  const titled = own.filter((window) => window.title !== '' && window.title === top.text);
  if (titled.length === 1) return titled[0];
  const pool = titled.length > 1 ? titled : own;
  if (!top.bounds) return undefined;
  let best: WindowInfo | undefined;
  let bestOverlap = MIN_FRAME_OVERLAP;
  for (const window of pool) {
    if (!window.bounds) continue;
    const shared = overlap(top.bounds, window.bounds);
    if (shared >= bestOverlap) {
      best = window;
      bestOverlap = shared;
    }
  }
  return best;
}

/** The window stacked above `own` whose frame holds `point`, if any. */
export function windowAbove(windows: readonly WindowInfo[], own: WindowInfo, point: Point): WindowInfo | undefined {
  if (own.zOrder === undefined) return undefined;
  let top: WindowInfo | undefined;
  for (const window of windows) {
    if (window.windowId === own.windowId || window.onScreen === false || window.zOrder === undefined || window.zOrder >= own.zOrder) continue;
    if (!rectContains(window.bounds, point)) continue;
    if (!top || window.zOrder < top.zOrder!) top = window;
  }
  return top;
}

/**
 * The snapshot as a person sees it among `windows` (all of the desktop's, with stacking) on
 * `displays`: see the file comment. Returns a new snapshot; elements that change are copies.
 */
export function applyWindowFacts(snapshot: TreeSnapshot, windows: readonly WindowInfo[], displays: readonly Display[]): TreeSnapshot {
  const elements = snapshot.elements;
  if (elements.length === 0) return snapshot;
  const own = windows.filter((window) => window.pid === snapshot.pid && window.onScreen !== false);
  const tops = topLevels(elements);
  const windowOf = new Map<number, WindowInfo>();
  for (const top of tops) {
    if (!top.visible) continue;
    const window = windowOfTop(top, own);
    if (window) windowOf.set(top.index, window);
  }

  // The modal dialog on top of the others (the last opened, where stacking is unknown).
  const modals = tops.filter((top) => top.modal && top.visible);
  const modal = modals.reduce<ElementNode | undefined>((best, top) => {
    if (!best) return top;
    const zTop = windowOf.get(top.index)?.zOrder;
    const zBest = windowOf.get(best.index)?.zOrder;
    return zTop !== undefined && zBest !== undefined ? (zTop < zBest ? top : best) : top;
  }, undefined);
  const modalZ = modal ? windowOf.get(modal.index)?.zOrder : undefined;
  const blocks = (top: ElementNode): boolean => {
    if (!modal || top.modal || !BLOCKABLE_ROLES.has(top.role)) return false;
    const z = windowOf.get(top.index)?.zOrder;
    // A window stacked above the dialog is not one it holds back.
    return !(z !== undefined && modalZ !== undefined && z < modalZ);
  };

  const holdsWindows = rootHoldsWindows(elements);
  const topOf = new Array<ElementNode | null>(elements.length).fill(null);
  const inFlatMenuBar = new Array<boolean>(elements.length).fill(false);
  const result = elements.map((el, position) => {
    // Pre-order: a parent's window is known before its children's.
    const top = !holdsWindows ? elements[0] : el.parentIndex === null ? null : el.parentIndex === 0 ? el : (topOf[el.parentIndex] ?? null);
    topOf[position] = top;
    inFlatMenuBar[position] = (el.parentIndex !== null && inFlatMenuBar[el.parentIndex] === true) || isFlatMenuBar(el);
    const window = top ? windowOf.get(top.index) : undefined;
    const blockedBy = top && modal && blocks(top) ? modal.index : undefined;
    const sight = inFlatMenuBar[position]
      ? { visible: false }
      : el.visible && el.bounds !== null ? seen(centreOf(el.bounds), window, windows, displays) : { visible: el.visible };
    const windowId = el.windowId ?? window?.windowId;
    if (sight.visible === el.visible && blockedBy === undefined && windowId === el.windowId) return el;
    return {
      ...el,
      visible: sight.visible,
      ...(windowId !== undefined ? { windowId } : {}),
      ...(blockedBy !== undefined ? { blockedBy } : {}),
      ...(sight.coveredBy !== undefined ? { coveredBy: sight.coveredBy } : {}),
    };
  });
  return { ...snapshot, elements: modal ? modalFirst(result, modal.index) : result };
}

/**
 * A menu bar with no height or width shows no menu: LibreOffice keeps a second, flat menu bar
 * whose menus say they are visible over its toolbar, and a click on its "Format" pressed the Print
 * button drawn there (agent-seat re-audit). Its menus are not visible.
 */
function isFlatMenuBar(el: ElementNode): boolean {
  return el.role === 'MenuBar' && el.bounds !== null && (el.bounds.width <= 0 || el.bounds.height <= 0);
}

/** Whether a person could see `point` of an element in `window`: on a screen, inside its window, under no other window (else which covers it). */
function seen(point: Point, window: WindowInfo | undefined, windows: readonly WindowInfo[], displays: readonly Display[]): { visible: boolean; coveredBy?: number } {
  if (displays.length > 0 && !displays.some((display) => rectContains(display.bounds, point))) return { visible: false };
  if (!window) return { visible: true };
  if (window.bounds && !rectContains(window.bounds, point)) return { visible: false };
  const above = windowAbove(windows, window, point);
  return above ? { visible: false, coveredBy: above.windowId } : { visible: true };
}

/**
 * The elements with the modal dialog's subtree first under the root (what the person must deal
 * with first comes first in the tree and in a reading agent's attention), indexes renumbered in
 * the new pre-order.
 */
export function modalFirst(elements: readonly ElementNode[], dialogIndex: number): ElementNode[] {
  const root = elements[0];
  const dialog = elements[dialogIndex];
  if (!rootHoldsWindows(elements) || !dialog) return [...elements];
  let end = dialogIndex + 1;
  while (end < elements.length && elements[end].depth > dialog.depth) end++;
  const firstTop = elements.findIndex((el) => el.parentIndex === 0);
  if (firstTop < 0 || firstTop === dialogIndex) return [...elements];
  const order = [root, ...elements.slice(dialogIndex, end), ...elements.slice(1, dialogIndex), ...elements.slice(end)];
  const renumbered = new Map<number, number>();
  order.forEach((el, position) => renumbered.set(el.index, position));
  return order.map((el, position) => {
    const parentIndex = el.parentIndex === null ? null : (renumbered.get(el.parentIndex) ?? null);
    const blockedBy = el.blockedBy === undefined ? undefined : renumbered.get(el.blockedBy);
    return { ...el, index: position, parentIndex, ...(blockedBy !== undefined ? { blockedBy } : {}) };
  });
}
