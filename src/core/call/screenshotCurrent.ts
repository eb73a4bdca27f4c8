// The screenshot shows what the answer says. It is taken once the app has settled, and the tree
// after is read after it; but an app can fall quiet and then still answer (gnome-calculator
// works out '=' off its main loop and shows the result some 50 ms after the click's repaint):
// the tree after then has the result and the screenshot does not. So the app's windows are
// watched from before the capture: a paint after it means the screenshot may be out of date,
// and the app is settled again, captured again and read again, within the settle bound. When
// the bound runs out first, the answer says it had not settled. A busy indicator's own repaints
// (busyIndicators.ts) do not count.

import type { PaintWatch } from '../desktop.js';
import { captureScreenshot, readAfter } from './afterAction.js';
import { busyIndicatorAreas, busyTreeReader } from './busyIndicators.js';
import { settle } from './settle.js';
import type { CallState } from './callState.js';

/**
 * Captures the screenshot, then reads the tree after; again, once settled, while the app painted
 * after the last capture, until `giveUpAt` (then `state.settled` becomes false). Where the
 * backend cannot see paints, one capture and one read, as before.
 */
export async function captureAndReadAfter(state: CallState, giveUpAt: number): Promise<void> {
  for (;;) {
    const paints = await watchLatest(state);
    try {
      const capturedAt = Date.now();
      await captureScreenshot(state, state.progress);
      await readAfter(state);
      // Reading the tree takes longer than a frame: a change made before or during the read
      // has been painted by now, so no paint since the capture means the two agree.
      const lastPaint = paints?.lastPaintAt();
      if (state.appExited || lastPaint === undefined || lastPaint < capturedAt) return;
    } finally {
      paints?.close();
    }
    const left = giveUpAt - state.options.now();
    if (left <= 0) {
      state.settled = false;
      state.log(`${state.appName} painted after the screenshot and the wait for it ran out: the screenshot may be older than the tree after`);
      return;
    }
    state.log(`${state.appName} painted after the screenshot: taking it again once the app is settled`);
    const outcome = await state.step(settle(state.desktop, state.request.pid, { ...state.options.settle, capMs: left }, state.progress, state.after ?? undefined, busyTreeReader(state)));
    state.screenshot = undefined;
    state.screenshotPng = undefined;
    if (outcome === 'cap') {
      state.settled = false;
      await captureScreenshot(state, state.progress);
      await readAfter(state);
      return;
    }
  }
}

/** A watch on the app's windows, leaving out the busy indicators of its latest tree. */
function watchLatest(state: CallState): Promise<PaintWatch | null> {
  const latest = state.after ?? state.current;
  return state.step(state.desktop.watchPaint(state.request.pid, state.progress, busyIndicatorAreas(latest.elements))).catch(() => null);
}
