// bring_to_front's act: the front moved on purpose (not guarded, not put back), after checking
// that the window asked for is one of the app's. Run inside the engine's read call.

import type { Desktop } from '../desktop.js';
import { TandemError } from '../errors.js';
import type { Progress } from '../progress.js';

export interface BroughtToFront {
  pid: number;
  app: string;
  verb: string;
}

export async function bringToFront(desktop: Desktop, pid: number, app: string, windowId: number | undefined, progress: Progress): Promise<BroughtToFront> {
  if (windowId !== undefined) {
    const windows = await desktop.windows(pid, progress);
    if (!windows.some((window) => window.windowId === windowId)) {
      throw new TandemError('not-found', `pid ${pid} has no window ${windowId}; its windows: ${windows.map((window) => window.windowId).join(', ') || 'none'}.`, { reason: 'no-window', windowId, windows: windows.map((window) => window.windowId) });
    }
  }
  const confirmed = await desktop.activate(pid, windowId, progress);
  return { pid, app, verb: confirmed ? 'brought to the front' : 'asked to come to the front (not confirmed: the window manager may have declined)' };
}
