// Which of an app's windows a window-relative request means: the one named by id, else the
// app's frontmost (lowest z-order; the listed order where the backend gives none); and which
// part of the app's tree is that window.

import { TandemError } from '../errors.js';
import type { ElementNode, Point, Rect, TreeSnapshot, WindowInfo } from '../model.js';

/** Frontmost first; windows whose place in the stack is unknown last, in the order listed (the sort is stable). */
export function frontmostFirst(windows: readonly WindowInfo[]): WindowInfo[] {
  const place = (window: WindowInfo): number => window.zOrder ?? Number.MAX_SAFE_INTEGER;
  return [...windows].sort((a, b) => place(a) - place(b));
}

export function chooseWindow(windows: readonly WindowInfo[], pid: number, windowId: number | undefined): WindowInfo & { bounds: Rect } {
  const window = windowId !== undefined ? windows.find((w) => w.windowId === windowId) : frontmostFirst(windows)[0];
  if (!window) {
    throw new TandemError('not-found', windowId !== undefined ? `pid ${pid} has no window ${windowId}.` : `pid ${pid} has no window.`, {
      reason: 'no-window',
      windowId: windowId ?? null,
      windows: windows.map((w) => w.windowId),
    });
  }
  if (!window.bounds) throw new TandemError('unsupported', `Window ${window.windowId} has no position on screen (minimised?).`, { reason: 'window-off-screen', windowId: window.windowId });
  return window as WindowInfo & { bounds: Rect };
}

/** The pid's window with this id, or 'not-found' whose details list the pid's windows (id and title). */
export function requireWindow(windows: readonly WindowInfo[], pid: number, windowId: number): WindowInfo {
  const window = windows.find((w) => w.windowId === windowId && w.pid === pid);
  if (window) return window;
  const own = frontmostFirst(windows.filter((w) => w.pid === pid));
  throw new TandemError('not-found', `pid ${pid} has no window ${windowId}.`, { reason: 'no-window', pid, windowId, windows: own.map((w) => ({ windowId: w.windowId, title: w.title })) });
}

/** Whether `point` lies in `rect` (right and bottom edges excluded; an empty or absent rect holds nothing). */
export function rectContains(rect: Rect | null | undefined, point: Point): boolean {
  return !!rect && point.x >= rect.x && point.x < rect.x + rect.width && point.y >= rect.y && point.y < rect.y + rect.height;
}

/** Whether `inner` lies wholly inside `outer`, give or take `slack` on every side. */
export function rectInside(inner: Rect, outer: Rect, slack = 0): boolean {
  return inner.x >= outer.x - slack && inner.y >= outer.y - slack && inner.x + inner.width <= outer.x + outer.width + slack && inner.y + inner.height <= outer.y + outer.height + slack;
}

/** Intersection over union of two rectangles: 1 for the same one, 0 when apart. */
export function overlap(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (width <= 0 || height <= 0) return 0;
  const shared = width * height;
  return shared / (a.width * a.height + b.width * b.height - shared);
}

/**
 * How well a top-level element of the tree (a frame, a dialog) stands for `window`. The
 * accessibility bus of X11 apps does not say which X window a frame is: its title and where it is
 * tell (a frame's extents may include the window manager's decorations, so they only overlap the
 * client area). 0: not this window.
 */
export function frameMatch(element: ElementNode, window: WindowInfo): number {
  const title = window.title.trim();
  const name = element.text.trim();
  const titleScore = title !== '' && name === title ? 2 : title !== '' && name !== '' && (name.includes(title) || title.includes(name)) ? 1 : 0;
  const place = element.bounds && window.bounds ? overlap(element.bounds, window.bounds) : 0;
  if (titleScore === 0 && place < 0.5) return 0;
  return titleScore + 2 * place;
}

/**
 * Only `window`'s part of an app's tree: the top-level element that is that window (by its window
 * id where the backend knows it, macOS; else by title and place) and everything under it,
 * numbered again from 0 so element_index values and the tree file's lines agree. Null when no
 * top-level element of the tree is that window.
 */
export function windowSubtree(snapshot: TreeSnapshot, window: WindowInfo): TreeSnapshot | null {
  const tops = snapshot.elements.filter((el) => el.depth === 1);
  let frame = tops.find((el) => el.windowId === window.windowId);
  if (!frame) {
    const scored = tops
      .filter((el) => el.windowId === undefined)
      .map((el) => ({ el, score: frameMatch(el, window) }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score);
    frame = scored[0]?.el;
  }
  if (!frame) return null;
  const start = snapshot.elements.indexOf(frame);
  let end = start + 1;
  while (end < snapshot.elements.length && snapshot.elements[end].depth > frame.depth) end++;
  const offset = start;
  const elements = snapshot.elements.slice(start, end).map((el, i) => ({
    ...el,
    index: i,
    parentIndex: i === 0 || el.parentIndex === null ? null : el.parentIndex - offset,
    depth: el.depth - frame.depth,
  }));
  return { ...snapshot, elements };
}
