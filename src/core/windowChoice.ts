// Which of an app's windows a window-relative request means: the one named by id, else the
// app's frontmost (lowest z-order; the listed order where the backend gives none).

import { TandemError } from './errors.js';
import type { Rect, WindowInfo } from './model.js';

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
