// An action whose tree after shows no change at all may only not have shown its effect yet: a
// file dialog's Save checks the file before it closes, an app answers a click after a pause of
// its own. Nothing tells such a pause apart from the end of the work while it lasts, so an
// answer that would say "no changes" waits, within the settle bound, for the app to paint
// again; when it does, the app is settled again and the screenshot and the tree after are taken
// anew. An action that did change something never waits here: the usual answer stays as fast
// as its settle.

import type { PaintWatch } from '../desktop.js';
import { throwIfAborted } from '../progress.js';
import { captureScreenshot, readAfter } from './afterAction.js';
import { settle } from './settle.js';
import type { CallState } from './callState.js';

/** Whether the diff shows nothing at all: no element came, went or changed. */
function nothingChanged(state: CallState): boolean {
  const diff = state.diff;
  return diff !== null && diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}

/**
 * Waits for a late reaction until `giveUpAt` (the end of the settle bound counted from the end
 * of the steps). Where the backend cannot see paints the answer stands as it was read.
 */
export async function awaitLateReaction(state: CallState, giveUpAt: number): Promise<void> {
  if (state.handoff || state.appExited || !nothingChanged(state)) return;
  if (state.options.now() >= giveUpAt) return;
  const paints = await state.step(state.desktop.watchPaint(state.request.pid, state.progress)).catch(() => null);
  if (!paints) return;
  try {
    while (nothingChanged(state)) {
      const left = giveUpAt - state.options.now();
      if (left <= 0 || !(await state.step(paintWithin(paints, left)))) return;
      throwIfAborted(state.progress);
      state.log(`${state.appName} painted again after a pause: reading it again once it is settled`);
      const outcome = await state.step(settle(state.desktop, state.request.pid, { ...state.options.settle, capMs: Math.max(0, giveUpAt - state.options.now()) }, state.progress, state.current));
      state.settled = outcome !== 'cap';
      state.screenshot = undefined;
      state.screenshotPng = undefined;
      await captureScreenshot(state, state.progress);
      await readAfter(state);
    }
  } finally {
    paints.close();
  }
}

/** true at the watch's next paint, false when ms passed without one. */
function paintWithin(paints: PaintWatch, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void paints.nextPaint().then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
