// One runner per step kind: each acts through the desktop, marks the tree stale when the app may
// have changed, and returns the sentence the answer lists under steps done.

import { sleep } from '../../progress.js';
import type { Step } from '../steps.js';
import type { CallState } from '../callState.js';
import { runClickStep } from './clickStep.js';
import { runDragStep } from './dragStep.js';
import { runElementActionStep, runSetSelectedStep, runSetValueStep } from './elementSteps.js';
import { runPressStep } from './pressStep.js';
import { runScrollStep } from './scrollStep.js';
import { runTypeStep } from './typeStep.js';
import { runTypeTextStep } from './typeTextStep.js';
import type { StepDone } from '../stepsDone.js';

export async function runStep(state: CallState, step: Step, index: number): Promise<StepDone> {
  switch (step.kind) {
    case 'click':
      return runClickStep(state, step, index);
    case 'type':
      return runTypeStep(state, step, index);
    case 'type-text':
      return runTypeTextStep(state, step, index);
    case 'press':
      return runPressStep(state, step, index);
    case 'scroll':
      return runScrollStep(state, step, index);
    case 'drag':
      return runDragStep(state, step, index);
    case 'wait':
      await sleep(step.ms, state.progress);
      return { kind: 'wait', ms: step.ms };
    case 'element-action':
      return runElementActionStep(state, step, index);
    case 'set-value':
      return runSetValueStep(state, step, index);
    case 'set-selected':
      return runSetSelectedStep(state, step, index);
  }
}
