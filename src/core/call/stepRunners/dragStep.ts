// A button pressed at one pointer target, moved with it held, released at another.

import type { DragStep } from '../steps.js';
import type { CallState } from '../callState.js';
import { pointerAt } from '../pointerTargets.js';
import type { StepDone } from '../stepsDone.js';
import { doneAt } from './clickStep.js';

export async function runDragStep(state: CallState, step: DragStep, index: number): Promise<StepDone> {
  const progress = state.progress;
  // Both ends from the same tree, before anything moves: the drag itself changes the app.
  const from = await pointerAt(state, step.from, index, true);
  const to = await pointerAt(state, step.to, index, true);
  await state.desktop.drag(from.point, to.point, { button: step.button, modifiers: step.modifiers, durationMs: step.durationMs }, progress);
  state.clickPoint = to.point;
  state.treeIsStale = true;
  return { kind: 'drag', from: doneAt(from), to: doneAt(to), durationMs: step.durationMs, button: step.button, modifiers: step.modifiers };
}
