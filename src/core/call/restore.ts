// Putting back what the call took from the person: the cursor where they left it, their
// frontmost app in front again unless a handoff happened. Registered as a cleanup where the
// before-snapshot is taken (callLifecycle.ts), so every way out of the call runs it.

import { CLEANUP_TIMEOUT_MS, bounded } from './cleanups.js';
import { toTandemError } from '../errors.js';
import type { Progress } from '../progress.js';
import type { CallResult } from './result.js';
import type { CallState } from './callState.js';
import { openedMenu } from './openedMenu.js';
import { windowsPutBack } from '../tree/ownRaising.js';

/**
 * Cursor back where the person left it; their frontmost app back unless a handoff happened. A
 * background call moved nothing: the pointer is the person's (it may have moved, by their hand)
 * and so is the front, which changes only by their choice — unless the target app took it during
 * the call, which is put back as in the foreground.
 */
export async function restore(state: CallState, cleanup: Progress): Promise<CallResult['restore']> {
  const cursor = state.background || (await restoreCursor(state));
  if (state.handoff) return { cursor, frontmost: 'skipped-handoff' };
  const original = state.before.frontmost;
  if (!original) return { cursor, frontmost: 'not-needed' };
  try {
    const now = await bounded(state.desktop.frontmost(cleanup), CLEANUP_TIMEOUT_MS, 'reading the frontmost app');
    const taken = state.background ? original.pid !== state.request.pid && now?.pid === state.request.pid : now?.pid !== original.pid;
    if (!taken) return { cursor, frontmost: 'not-needed' };
    if (state.background) state.log(`${state.appName} took the front during the background call: putting ${original.app} back`);
    const took = await bounded(state.desktop.activate(original.pid, original.windowId, cleanup), CLEANUP_TIMEOUT_MS, 'reactivating the frontmost app');
    if (!took) state.log(`${original.app} (pid ${original.pid}) did not come back to the front`);
    if (!took) return { cursor, frontmost: 'failed' };
    // Its windows cover the app again by Tandem's doing: the next call does not count that as a change.
    state.deps.revisions.notePutBack(state.request.pid, windowsPutBack(state.before.snapshot, original.pid));
    const menuClosed = state.after !== null && openedMenu(state.before.snapshot.elements, state.after.elements);
    return { cursor, frontmost: 'restored', ...(menuClosed ? { menuClosed: true as const } : {}) };
  } catch (error) {
    state.log(`could not restore the frontmost app: ${toTandemError(error).message}`);
    return { cursor, frontmost: 'failed' };
  }
}

/** Moves the cursor back where the person left it; whether it is there now. */
async function restoreCursor(state: CallState): Promise<boolean> {
  try {
    const now = await bounded(state.desktop.cursorPosition(), CLEANUP_TIMEOUT_MS, 'reading the cursor');
    if (now.x !== state.before.cursor.x || now.y !== state.before.cursor.y) {
      await bounded(state.desktop.moveCursor(state.before.cursor), CLEANUP_TIMEOUT_MS, 'moving the cursor back');
    }
    return true;
  } catch (error) {
    state.log(`could not restore the cursor: ${toTandemError(error).message}`);
    return false;
  }
}
