// The target app quitting because of the call's own steps ("Don't Save", Ctrl+Q, a Quit item):
// an outcome, not a failure. The accessibility bus alone cannot tell it: an app leaves the bus
// as it tears down, and a bus error reads like "no such app". The process table can: the exit is
// what the process says, checked whenever a read of the target fails for want of the app.
// A window of another app that is on top once the target's windows are gone is not something the
// call brought forward (the window manager only focused the next window down): it is no handoff.

import { isTandemError } from '../errors.js';
import type { Frontmost } from '../model.js';
import { sleep } from '../progress.js';
import type { CallState } from './callState.js';

/** How long an app that left the bus may take to end its process (GTK's teardown after gtk_main_quit). */
const EXIT_CONFIRM_MS = 1_000;
const EXIT_POLL_MS = 25;

/** Whether the target's process has ended (a zombie, waiting for its parent, has). */
export async function processEnded(state: CallState): Promise<boolean> {
  try {
    return !(await state.desktop.processState(state.request.pid)).running;
  } catch {
    return false;
  }
}

/** Records the exit once: after the steps done so far. */
export function noteExit(state: CallState): void {
  if (state.appExited) return;
  state.appExited = true;
  state.exitedAfterStep = state.stepsDone.length;
  state.log(`${state.appName} (pid ${state.request.pid}) exited after ${state.stepsDone.length} step(s)`);
}

/**
 * Whether `error` (from reading or acting on the target) is the target's exit: an error that says
 * the app is gone or unknown, and its process ends within EXIT_CONFIRM_MS. Records the exit.
 */
export async function exitBehind(state: CallState, error: unknown): Promise<boolean> {
  if (state.appExited) return true;
  if (!isTandemError(error, 'app-gone') && !isTandemError(error, 'unknown-app')) return false;
  const giveUpAt = Date.now() + EXIT_CONFIRM_MS;
  for (;;) {
    if (await processEnded(state)) {
      noteExit(state);
      return true;
    }
    if (Date.now() >= giveUpAt) return false;
    await sleep(EXIT_POLL_MS, state.progress);
  }
}

/**
 * Whether another process's window in front now came there because of the call: always while
 * the target still shows a window (something took the front from it); once the target shows none
 * (it exited or closed its last window), only a window that was not there before the call.
 */
export async function cameToFrontByTheCall(state: CallState, front: Frontmost): Promise<boolean> {
  if (!state.appExited) {
    const own = await state.step(state.desktop.windows(state.request.pid, state.progress)).catch(() => null);
    if (own === null || own.some((window) => window.onScreen !== false)) return true;
  }
  const before = state.before.snapshot.windows;
  return front.windowId !== undefined && before !== undefined && !before.some((window) => window.windowId === front.windowId);
}
