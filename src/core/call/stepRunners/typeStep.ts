// Text typed as paced keys at the keyboard focus, hidden in the answer when it goes into a secure field.

import { shownText } from '../../tree/redact.js';
import type { TypeStep } from '../steps.js';
import type { CallState } from '../callState.js';
import { isSecureDestination } from '../stepTargets.js';
import type { StepDone } from '../stepsDone.js';

export async function runTypeStep(state: CallState, step: TypeStep, index: number): Promise<StepDone> {
  const progress = state.progress;
  const secure = await isSecureDestination(state, index);
  // Never log typed text, secure or not: log lines go to stderr and the feed. Into a secure
  // field not even how much: no count in the log, no input progress.
  progress.log(secure ? 'typing into a secure field' : `typing ${[...step.text].length} characters`);
  await state.desktop.typeText(step.text, secure ? { ...progress, secretInput: true } : progress);
  state.treeIsStale = true;
  return { kind: 'type', text: shownText(step.text, secure) };
}
