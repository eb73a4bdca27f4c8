// A key (with modifiers) pressed once or repeated, with a cancellation checkpoint between presses.

import { throwIfAborted } from '../../progress.js';
import type { PressStep } from '../steps.js';
import type { CallState } from '../callState.js';
import type { StepDone } from '../stepsDone.js';

export async function runPressStep(state: CallState, step: PressStep, _index: number): Promise<StepDone> {
  const progress = state.progress;
  const keys = [...step.modifiers, step.key].join('+');
  const count = step.count ?? 1;
  let pressed = 0;
  try {
    // A checkpoint between presses: a cancel stops the repeats that are left.
    for (; pressed < count; pressed++) {
      throwIfAborted(progress);
      await state.desktop.pressKey(step.key, step.modifiers, progress);
      state.treeIsStale = true;
    }
  } catch (error) {
    // Said honestly when some presses went in before the stop (the step is then reported as done that far).
    if (!progress.signal.aborted || pressed === 0) throw error;
    return { kind: 'press', keys, count, pressed };
  }
  return { kind: 'press', keys, count, pressed: count };
}
