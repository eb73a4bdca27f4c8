// A click (or Return, Space, a shortcut) whose tree after shows no effect may only not have
// shown it yet: a file dialog's Save checks the file before it closes, an app answers a click
// after a pause of its own. Nothing tells such a pause apart from the end of the work while it
// lasts, so such an answer waits, within the settle bound, for the app to paint again; when it
// does, the app is settled again and the screenshot and the tree after are taken anew. An
// action that did show an effect never waits here, nor do keys that move focus or the caret
// (they show theirs at once or never): the usual answer stays as fast as its settle.

import type { PaintWatch } from '../desktop.js';
import { throwIfAborted } from '../progress.js';
import { textChanges } from '../tree/diff.js';
import type { Step } from './steps.js';
import { captureAndReadAfter } from './screenshotCurrent.js';
import { busyIndicatorAreas, busyTreeReader } from './busyIndicators.js';
import { settle } from './settle.js';
import type { CallState } from './callState.js';

/**
 * Whether the diff shows no effect: no element came or went, no label or value changed. An
 * element enabled, disabled or selected does not count: pressing a dialog's button may do that
 * to it while the work it started is still to come.
 */
function noEffectYet(state: CallState): boolean {
  const diff = state.diff;
  return diff !== null && diff.added.length === 0 && diff.removed.length === 0 && textChanges(diff).length === 0;
}

/** Steps that set work going in the app, whose effect may come after a pause. */
function setsWorkGoing(step: Step | undefined): boolean {
  if (step?.kind === 'click' || step?.kind === 'element-action') return true;
  return step?.kind === 'press' && (step.modifiers.length > 0 || step.key === 'return' || step.key === 'space');
}

/**
 * Waits for a late reaction until `giveUpAt` (the end of the settle bound counted from the end
 * of the steps). Where the backend cannot see paints the answer stands as it was read.
 */
export async function awaitLateReaction(state: CallState, giveUpAt: number): Promise<void> {
  if (state.handoff || state.appExited || !setsWorkGoing(state.steps.at(-1)) || !noEffectYet(state)) return;
  if (state.options.now() >= giveUpAt) return;
  const paints = await state.step(state.desktop.watchPaint(state.request.pid, state.progress, busyIndicatorAreas((state.after ?? state.current).elements))).catch(() => null);
  if (!paints) return;
  try {
    while (noEffectYet(state)) {
      const left = giveUpAt - state.options.now();
      if (left <= 0 || !(await state.step(paintWithin(paints, left)))) return;
      throwIfAborted(state.progress);
      state.log(`${state.appName} painted again after a pause: reading it again once it is settled`);
      const outcome = await state.step(settle(state.desktop, state.request.pid, { ...state.options.settle, capMs: Math.max(0, giveUpAt - state.options.now()) }, state.progress, state.after ?? state.current, busyTreeReader(state)));
      state.settled = outcome !== 'cap';
      state.screenshot = undefined;
      state.screenshotPng = undefined;
      await captureAndReadAfter(state, giveUpAt);
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
