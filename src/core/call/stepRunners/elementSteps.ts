// Steps through the accessibility API rather than synthetic input: an element's action, its
// value, its selection.

import { shownText } from '../../tree/redact.js';
import type { ElementActionStep, SetSelectedStep, SetValueStep } from '../steps.js';
import { formatElementLabel } from '../../tree/treeFormat.js';
import type { CallState } from '../callState.js';
import { locate } from '../stepTargets.js';
import { isPressAction } from '../../confirm/confirmMatch.js';
import { confirmBeforePress } from '../confirmPress.js';
import type { StepDone } from '../stepsDone.js';

export async function runElementActionStep(state: CallState, step: ElementActionStep, index: number): Promise<StepDone> {
  const progress = state.progress;
  const element = await locate(state, step.query, index);
  if (isPressAction(step.action)) await confirmBeforePress(state, index, element);
  await state.desktop.performAction({ element, action: step.action }, progress);
  state.treeIsStale = true;
  return { kind: 'element-action', action: step.action, element: formatElementLabel(element) };
}

export async function runSetValueStep(state: CallState, step: SetValueStep, index: number): Promise<StepDone> {
  const progress = state.progress;
  const element = await locate(state, step.query, index);
  const secure = element.secure || state.destinations.get(index) === 'secure';
  await state.desktop.setValue(element, step.value, progress);
  state.treeIsStale = true;
  return { kind: 'set-value', element: formatElementLabel(element), value: shownText(step.value, secure) };
}

export async function runSetSelectedStep(state: CallState, step: SetSelectedStep, index: number): Promise<StepDone> {
  const progress = state.progress;
  const element = await locate(state, step.query, index);
  await state.desktop.setSelected(element, step.selected, progress);
  state.treeIsStale = true;
  return { kind: 'set-selected', selected: step.selected, element: formatElementLabel(element) };
}
