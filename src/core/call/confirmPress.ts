// The person's word before a consequential press (the confirm_before setting): before a step
// presses an element whose name is on the person's list, the call waits for their plain Enter
// (go on) or Esc (nothing is pressed, the call answers `declined`). The guard holds their input
// meanwhile, so only a key on a real device can answer — no synthetic event, whoever sends it.
// A call that holds no guard (a background call) engages it just for the question.

import { formatElementLabel } from '../tree/treeFormat.js';
import { confirmEntryFor } from '../confirm/confirmMatch.js';
import { TandemError, isTandemError } from '../errors.js';
import type { PersonAnswer } from '../guard.js';
import type { ElementNode } from '../model.js';
import { engageCallGuard } from './callGuard.js';
import type { CallState } from './callState.js';
import type { Confirmation } from './result.js';

/** Whether a press of `element` needs the person's word under the call's settings. */
export function needsConfirmation(state: CallState, element: ElementNode | null): element is ElementNode {
  return !!element && confirmEntryFor(element.text, state.options.confirmBefore) !== null;
}

/**
 * Called by a step runner right before it presses `element`: returns when the press may go on,
 * throws TandemError('declined') when the person refused (Esc) or did not answer (watchdog).
 * Does nothing for an element that is not on the list.
 */
export async function confirmBeforePress(state: CallState, stepIndex: number, element: ElementNode | null): Promise<void> {
  if (!needsConfirmation(state, element)) return;
  const label = formatElementLabel(element);
  const own = state.session && !state.session.released ? null : await engageCallGuard(state, 'Asking');
  const session = own ?? state.session!;
  // Waiting before announcing: an Enter the instant the question shows must answer it.
  const answering = state.step(session.askPerson());
  // A background call's own watchdog ends the question through this guard (background.ts).
  state.questionGuard = own;
  state.record.emit('confirm-asked', { callId: state.callId, step: stepIndex, element: element.text, role: element.role, app: state.appName });
  state.log(`waiting for the person's Enter or Esc before pressing ${label}`);
  let answer: PersonAnswer;
  try {
    answer = await answering;
  } catch (error) {
    if (!isTandemError(error, 'declined')) {
      if (own) await own.release('error');
      throw error;
    }
    answer = 'watchdog';
  } finally {
    state.questionGuard = null;
  }
  const confirmation: Confirmation = { step: stepIndex, element: label, allowed: answer === 'enter', by: answer };
  state.confirmations.push(confirmation);
  state.record.emit('confirm-answered', { callId: state.callId, step: stepIndex, element: element.text, allowed: confirmation.allowed, by: answer });
  if (own) await own.release(confirmation.allowed ? 'done' : 'error');
  if (confirmation.allowed) return;
  // Which entry of their list asked: the model cannot foresee a question it cannot name.
  const entry = confirmEntryFor(element.text, state.options.confirmBefore);
  const listed = `its name matches "${entry}" on the person's confirm_before list`;
  throw new TandemError(
    'declined',
    answer === 'esc'
      ? `The person refused to press ${label} in ${state.appName} (Esc; ${listed}): nothing was pressed.`
      : `The person did not answer before the watchdog whether to press ${label} in ${state.appName} (${listed}): nothing was pressed.`,
    { reason: answer === 'esc' ? 'esc' : 'watchdog', element: label, step: stepIndex, ...(entry ? { entry } : {}) },
  );
}
