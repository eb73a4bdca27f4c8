// The screenshot shows what the answer says. It is taken once the app has settled, and the tree
// after is read after it; but an app can fall quiet and then still answer (gnome-calculator
// works out '=' off its main loop and shows the result some 50 ms after the click's repaint):
// the tree after then has the result and the screenshot does not. So the app's windows are
// watched from before the capture: a paint after it means the screenshot may be out of date,
// and the app is settled again, captured again and read again, within the settle bound. When
// the bound runs out first, the answer says it had not settled.

import { captureScreenshot, readAfter } from './afterAction.js';
import { busyIndicatorAreas } from './busyIndicators.js';
import { settle } from './settle.js';
import type { CallState } from './callState.js';

/**
 * Captures the screenshot, then reads the tree after; again, once settled, while the app painted
 * after the last capture, until `giveUpAt` (epoch ms; then `state.settled` becomes false). Where
 * the backend cannot see paints, one capture and one read, as before.
 */
export async function captureAndReadAfter(state: CallState, giveUpAt: number): Promise<void> {
  const paints = await state.step(state.desktop.watchPaint(state.request.pid, state.progress, busyIndicatorAreas(state.current.elements))).catch(() => null);
  try {
    let capturedAt = Date.now();
    await captureScreenshot(state, state.progress);
    await readAfter(state);
    if (!paints) return;
    for (;;) {
      // Reading the tree takes longer than a frame: a change made before or during the read
      // has been painted by now, so no paint since the capture means the two agree.
      const lastPaint = paints.lastPaintAt();
      if (state.appExited || lastPaint === undefined || lastPaint < capturedAt) return;
      const left = giveUpAt - state.options.now();
      if (left <= 0) {
        state.settled = false;
        state.log(`${state.appName} painted after the screenshot and the wait for it ran out: the screenshot may be older than the tree after`);
        return;
      }
      state.log(`${state.appName} painted after the screenshot: taking it again once the app is settled`);
      const outcome = await state.step(settle(state.desktop, state.request.pid, { ...state.options.settle, capMs: left }, state.progress, state.after ?? undefined));
      if (outcome === 'cap') state.settled = false;
      state.screenshot = undefined;
      state.screenshotPng = undefined;
      capturedAt = Date.now();
      await captureScreenshot(state, state.progress);
      await readAfter(state);
      if (outcome === 'cap') return;
    }
  } finally {
    paints?.close();
  }
}
