// What follows the steps: the handoff check (another process in front, or a window a launched
// process mapped), the screenshot (encoded in the background), the tree after and its diff, the
// handoff tree — and after a failure, the best-effort tree that still tells what changed.

import { diffAcrossRaise } from '../tree/ownRaising.js';
import { toTandemError } from '../errors.js';
import { pngWithCrosshair } from '../artifacts/crosshair.js';
import { sleep, type Progress } from '../progress.js';
import { CLEANUP_TIMEOUT_MS, bounded } from './cleanups.js';
import { areasCovered, secureAreas } from '../tree/redact.js';
import type { LaunchOutcome } from './settle.js';
import type { CallState } from './callState.js';
import { cameToFrontByTheCall, exitBehind } from './appExit.js';

/** How long a launched process's window may wait for its app to join the accessibility bus. */
const HANDOFF_REGISTER_MS = 2_000;
const HANDOFF_REGISTER_POLL_MS = 25;

export async function readAfter(state: CallState): Promise<void> {
  if (!state.appExited) {
    try {
      state.after = await state.readSettled(false);
      state.diff = diffAcrossRaise(state.before.snapshot, state.after.elements, !state.background);
      return;
    } catch (error) {
      if (state.abort.signal.aborted || !(await exitBehind(state, error))) throw error;
    }
  }
  // The app exited: no tree after it, so no diff is claimed (every element "removed" would say
  // nothing the exit does not). A window on top now is only a handoff if the call brought it.
  state.after = { pid: state.request.pid, app: state.appName, elements: [], elapsedMs: 0 };
  state.diff = null;
  if (state.handoff && !(await cameToFrontByTheCall(state, state.handoff.frontmost))) {
    state.handoff = null;
    state.screenshot = undefined;
    state.screenshotPng = undefined;
  }
  // None yet (or one of the window wrongly taken for a handoff): the screen as it is now.
  if (!state.screenshot) await captureScreenshot(state, state.progress);
}

/**
 * Another process in front now (a launched app, another process's dialog) is a handoff; so is
 * a window a launched process has mapped that the window manager has not made active yet.
 */
export async function checkHandoff(state: CallState, launches: LaunchOutcome): Promise<void> {
  const now = await state.step(state.desktop.frontmost(state.progress));
  if (now && now.pid !== state.request.pid && now.pid !== state.before.frontmost?.pid && (await cameToFrontByTheCall(state, now))) {
    state.log(`${now.app} (pid ${now.pid}) took the front: reading its tree`);
    state.handoff = { frontmost: now, snapshot: null };
    return;
  }
  if (launches.window) {
    const { pid, app, windowId } = launches.window;
    state.log(`${app} (pid ${pid}), started by the action, mapped a window that is not in front yet: reading its tree`);
    state.handoff = { frontmost: { pid, app, windowId }, snapshot: null };
  }
}

/** A window can map a moment before its app has joined the accessibility bus: wait for it, briefly. */
export async function waitUntilReadable(state: CallState, pid: number): Promise<void> {
  const giveUpAt = Math.min(state.options.now() + HANDOFF_REGISTER_MS, state.progress.deadline);
  while (!(await state.step(state.desktop.appForPid(pid, state.progress))) && state.options.now() < giveUpAt) {
    await sleep(HANDOFF_REGISTER_POLL_MS, state.progress);
  }
}

export async function readHandoffTree(state: CallState): Promise<void> {
  if (!state.handoff) return;
  const { pid } = state.handoff.frontmost;
  try {
    await waitUntilReadable(state, pid);
    state.handoff.snapshot = await state.step(state.desktop.snapshot(pid, state.options.snapshotLimits, state.progress));
  } catch (error) {
    if (state.abort.signal.aborted) throw error;
    state.log(`could not read the tree of pid ${pid}: ${toTandemError(error).message}`);
  }
}

export async function captureScreenshot(state: CallState, progress: Progress): Promise<void> {
  if (state.screenshot) return;
  const target = state.handoff ? { pid: state.handoff.frontmost.pid, windowId: state.handoff.frontmost.windowId } : { pid: state.request.pid };
  try {
    state.screenshot = await bounded(state.desktop.screenshot(target, progress), CLEANUP_TIMEOUT_MS, 'screenshot');
    // Password fields known so far are painted over (their dots count the secret); a field
    // that only the trees read after this show is painted over when the files are written.
    state.screenshotCovered = state.handoff ? [] : secureAreas(state.before.snapshot.elements, state.current.elements);
    state.screenshotPng = pngWithCrosshair(state.screenshot, state.clickPoint, state.screenshotCovered);
    // Awaited when the files are written; a failure there is logged, never unhandled.
    state.screenshotPng.catch(() => {});
  } catch (error) {
    if (progress.signal.aborted && progress === state.progress) throw error;
    state.log(`no screenshot: ${toTandemError(error).message}`);
  }
}

/** The screenshot's PNG to write: encoded again when a tree read after the capture shows a password field it left uncovered. */
export function screenshotPngToWrite(state: CallState): Promise<Buffer> | undefined {
  if (!state.screenshot || !state.screenshotPng) return state.screenshotPng;
  const areas = state.handoff ? secureAreas(state.handoff.snapshot?.elements) : secureAreas(state.after?.elements);
  if (areasCovered(areas, state.screenshotCovered)) return state.screenshotPng;
  return pngWithCrosshair(state.screenshot, state.clickPoint, [...state.screenshotCovered, ...areas]);
}

/** After a failure the person and the model still want to know what changed: best effort. */
export async function readAfterFailure(state: CallState, cleanup: Progress): Promise<void> {
  if (state.after) return;
  try {
    state.after = await bounded(state.desktop.snapshot(state.request.pid, state.options.snapshotLimits, cleanup), CLEANUP_TIMEOUT_MS, 'tree after');
    state.diff = diffAcrossRaise(state.before.snapshot, state.after.elements, !state.background);
  } catch (error) {
    state.log(`could not read the tree after the failure: ${toTandemError(error).message}`);
  }
}

