// Putting back what the call took from the person: the cursor where they left it, their
// frontmost app in front again unless a handoff happened. Registered as a cleanup where the
// before-snapshot is taken (callLifecycle.ts), so every way out of the call runs it.

import { CLEANUP_TIMEOUT_MS, bounded } from './cleanups.js';
import { toTandemError } from '../errors.js';
import type { Progress } from '../progress.js';
import type { CallResult } from './result.js';
import type { CallState } from './callState.js';

/** Cursor back where the person left it; their frontmost app back unless a handoff happened. */
export async function restore(state: CallState, cleanup: Progress): Promise<CallResult['restore']> {
  if (state.background) return restoreAfterBackground(state, cleanup);
  let cursor = false;
  try {
    const now = await bounded(state.desktop.cursorPosition(), CLEANUP_TIMEOUT_MS, 'reading the cursor');
    if (now.x !== state.before.cursor.x || now.y !== state.before.cursor.y) {
      await bounded(state.desktop.moveCursor(state.before.cursor), CLEANUP_TIMEOUT_MS, 'moving the cursor back');
    }
    cursor = true;
  } catch (error) {
    state.log(`could not restore the cursor: ${toTandemError(error).message}`);
  }
  if (state.handoff) return { cursor, frontmost: 'skipped-handoff' };
  const original = state.before.frontmost;
  if (!original) return { cursor, frontmost: 'not-needed' };
  try {
    const now = await bounded(state.desktop.frontmost(cleanup), CLEANUP_TIMEOUT_MS, 'reading the frontmost app');
    if (now?.pid === original.pid) return { cursor, frontmost: 'not-needed' };
    const took = await bounded(state.desktop.activate(original.pid, original.windowId, cleanup), CLEANUP_TIMEOUT_MS, 'reactivating the frontmost app');
    if (!took) state.log(`${original.app} (pid ${original.pid}) did not come back to the front`);
    return { cursor, frontmost: took ? 'restored' : 'failed' };
  } catch (error) {
    state.log(`could not restore the frontmost app: ${toTandemError(error).message}`);
    return { cursor, frontmost: 'failed' };
  }
}


/**
 * A background call moved nothing: the pointer is the person's (it may have moved, by their
 * hand) and so is the front, which changes only by their choice — unless the target app took it
 * during the call, which is put back as in the foreground.
 */
async function restoreAfterBackground(state: CallState, cleanup: Progress): Promise<CallResult['restore']> {
  const original = state.before.frontmost;
  if (state.handoff || !original || original.pid === state.request.pid) return { cursor: true, frontmost: state.handoff ? 'skipped-handoff' : 'not-needed' };
  try {
    const now = await bounded(state.desktop.frontmost(cleanup), CLEANUP_TIMEOUT_MS, 'reading the frontmost app');
    if (now?.pid !== state.request.pid) return { cursor: true, frontmost: 'not-needed' };
    state.log(`${state.appName} took the front during the background call: putting ${original.app} back`);
    const took = await bounded(state.desktop.activate(original.pid, original.windowId, cleanup), CLEANUP_TIMEOUT_MS, 'reactivating the frontmost app');
    return { cursor: true, frontmost: took ? 'restored' : 'failed' };
  } catch (error) {
    state.log(`could not restore the frontmost app: ${toTandemError(error).message}`);
    return { cursor: true, frontmost: 'failed' };
  }
}
