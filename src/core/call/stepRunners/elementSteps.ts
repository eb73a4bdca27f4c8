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
import { TandemError, isTandemError, toTandemError } from '../../errors.js';
import type { ElementNode } from '../../model.js';
import { isEditable } from '../../tree/query.js';
import { typeAsKeys } from './typeTextStep.js';

export async function runElementActionStep(state: CallState, step: ElementActionStep, index: number): Promise<StepDone> {
  const element = await locate(state, step.query, index);
  if (isPressAction(step.action)) await confirmBeforePress(state, index, element);
  return performElementAction(state, element, step.action);
}

/** Runs `action` on `element` through accessibility (any confirm_before question already answered). */
export async function performElementAction(state: CallState, element: ElementNode, action: string): Promise<Extract<StepDone, { kind: 'element-action' }>> {
  await state.desktop.performAction({ element, action }, state.progress);
  state.treeIsStale = true;
  return { kind: 'element-action', action, element: formatElementLabel(element) };
}

export async function runSetValueStep(state: CallState, step: SetValueStep, index: number): Promise<StepDone> {
  const progress = state.progress;
  const element = await locate(state, step.query, index);
  const secure = element.secure || state.destinations.get(index) === 'secure';
  try {
    await state.desktop.setValue(element, step.value, progress);
  } catch (error) {
    // A text field accessibility cannot set (Chromium's inputs): replaced with keys as
    // type_text's replace does — focused, all of it selected, the value typed over it.
    if (!isTandemError(error, 'unsupported') || !takesTypedText(state, element)) throw error;
    const label = formatElementLabel(element);
    state.log(`${label} takes no value through accessibility: ${toTandemError(error).message}`);
    // Return typed into a one-line field would submit its form, not break a line.
    if (element.singleLine && /[\r\n]/.test(step.value)) throw new TandemError('bad-input', `${label} holds one line and the value has line breaks.`, { reason: 'line-breaks-in-single-line', index: element.index });
    return typeAsKeys(state, { text: step.value, replace: true, clickFirst: true }, index, element, error.details?.reason === 'insertion-ignored' ? 'insertion-ignored' : 'no-editable-text', secure);
  }
  state.treeIsStale = true;
  return { kind: 'set-value', element: formatElementLabel(element), value: shownText(step.value, secure) };
}

/** A field a person could type into now, in a call that may send keys (a background call may not). */
function takesTypedText(state: CallState, element: ElementNode): boolean {
  return !state.background && isEditable(element) && element.editable !== false && element.enabled;
}

export async function runSetSelectedStep(state: CallState, step: SetSelectedStep, index: number): Promise<StepDone> {
  const progress = state.progress;
  const element = await locate(state, step.query, index);
  await state.desktop.setSelected(element, step.selected, progress);
  state.treeIsStale = true;
  return { kind: 'set-selected', selected: step.selected, element: formatElementLabel(element) };
}
