// Text typed as paced keys at the keyboard focus, hidden in the answer when it goes into a secure field.

import { lastFocusMover, shownText } from '../../tree/redact.js';
import type { TypeStep } from '../steps.js';
import type { CallState } from '../callState.js';
import { candidateOf, isSecureDestination } from '../stepTargets.js';
import type { StepDone } from '../stepsDone.js';
import type { ElementNode } from '../../model.js';

export async function runTypeStep(state: CallState, step: TypeStep, index: number): Promise<StepDone> {
  const progress = state.progress;
  const secure = await isSecureDestination(state, index);
  // Never log typed text, secure or not: log lines go to stderr and the feed. Into a secure
  // field not even how much: no count in the log, no input progress.
  progress.log(secure ? 'typing into a secure field' : `typing ${[...step.text].length} characters`);
  await state.desktop.typeText(step.text, secure ? { ...progress, secretInput: true } : progress);
  state.treeIsStale = true;
  // Keys into the text field this call's click just focused: whether they show there is checked
  // after the call (textKept.ts), so that "typed" never reads as if they had arrived when not.
  const field = clickedField(state, index);
  if (field && !secure) state.keysTypedAt.push({ step: index, element: candidateOf(state, field) });
  return { kind: 'type', text: shownText(step.text, secure) };
}

/** The element a click of this call focused last before step `index`, when it holds text. */
function clickedField(state: CallState, index: number): ElementNode | null {
  const mover = lastFocusMover(state.steps, index);
  const target = mover >= 0 && state.steps[mover].kind === 'click' ? state.lastClickTarget : null;
  return target && target.value !== undefined && !target.secure ? target : null;
}
