// The wheel turned over a point or an element.

import type { ScrollStep } from '../steps.js';
import type { CallState } from '../callState.js';
import { pointerAt } from '../pointerTargets.js';
import type { StepDone } from '../stepsDone.js';
import { doneAt } from './clickStep.js';

export async function runScrollStep(state: CallState, step: ScrollStep, index: number): Promise<StepDone> {
  const progress = state.progress;
  const { point, element } = await pointerAt(state, step.target, index);
  await state.desktop.scroll(point, step.deltaX, step.deltaY, progress);
  state.treeIsStale = true;
  return { kind: 'scroll', deltaX: step.deltaX, deltaY: step.deltaY, at: doneAt({ point, element }) };
}
