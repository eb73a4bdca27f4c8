// type_text: text into a field, inserted through accessibility where it takes it, else typed as keys.

import { TandemError, isTandemError, toTandemError } from '../../errors.js';
import { shownText } from '../../tree/redact.js';
import type { KeysReason } from '../result.js';
import { centreOf, estimateBounds } from '../scrollIntoView.js';
import type { TypeTextStep } from '../steps.js';
import type { ElementNode } from '../../model.js';
import { formatElementLabel } from '../../tree/treeFormat.js';
import type { CallState } from '../callState.js';
import { candidateOf, focusedIn, isSecureDestination, locate } from '../stepTargets.js';
import { clickAt } from './clickStep.js';
import type { DoneAt, ScrolledInto, StepDone } from '../stepsDone.js';

/**
 * type_text: insert the text through accessibility where the element takes it (one edit, at its
 * caret), else — or when asked — type it as paced keys. The target is the element the query
 * names, else the focused one. How it went in is kept as a fact for the answer.
 */
export async function runTypeTextStep(state: CallState, step: TypeTextStep, index: number): Promise<StepDone> {
  const progress = state.progress;
  let target = step.query ? await locate(state, step.query, index) : focusedIn(state.current.elements);
  if (!step.query && !target) {
    // Activating the app (it was not in front) gives its focus widget the focus only now.
    state.treeIsStale = true;
    target = focusedIn((await state.freshTree()).elements);
  }
  const secure = target ? target.secure || state.destinations.get(index) === 'secure' : await isSecureDestination(state, index);
  const label = target ? formatElementLabel(target) : 'the keyboard focus';
  const count = secure ? '' : ` ${[...step.text].length} characters`;
  let reason: KeysReason = 'mode';
  if (step.mode !== 'keys') {
    // A disabled or read-only field takes no typing from a person: nothing is inserted there either.
    const takesText = target !== null && target.editable !== false && target.enabled;
    reason = !target ? 'no-target' : !takesText ? 'not-editable' : 'no-editable-text';
    if (target && takesText) {
      // A one-line field would take a line break as a character (GTK shows a glyph; on Enter a
      // person's field would have submitted instead): refused before anything is inserted.
      if (target.singleLine && /[\r\n]/.test(step.text)) {
        throw new TandemError('bad-input', `${label} holds one line and the text has line breaks.`, { reason: 'line-breaks-in-single-line', index: target.index });
      }
      try {
        progress.log(`${step.replace ? 'replacing the text of' : 'inserting into'} ${label}:${count}`);
        // Replacing is one edit too: the field's whole text set at once (EditableText, AXValue).
        if (step.replace) await state.desktop.setValue(target, step.text, progress);
        else await state.desktop.insertText(target, step.text, progress);
        state.treeIsStale = true;
        state.textEntries.push({ step: index, method: 'insertion', element: candidateOf(state, target), ...(step.replace ? { replaced: true } : {}) });
        return { kind: 'insert', text: shownText(step.text, secure), into: label };
      } catch (error) {
        // Refused before anything went in (no such interface, or the value not taken: macOS
        // maps that to bad-input): typing keys can still do it. Anything else is a real failure.
        const refused = isTandemError(error, 'unsupported') || (isTandemError(error, 'bad-input') && (error.details?.reason === 'value-rejected' || error.details?.reason === 'number-expected'));
        if (!refused) throw error;
        state.log(`${label} takes no text insertion: ${toTandemError(error).message}`);
      }
    }
    if (step.mode === 'insert') {
      throw new TandemError('unsupported', `${label} takes no text insertion.`, { reason, ...(target ? { index: target.index } : {}) });
    }
  }
  // Keys go to the focus: an element named by the query that does not have it is clicked first.
  let clicked: (DoneAt & { scrolled?: ScrolledInto }) | undefined;
  if (target && step.query && !target.focused) {
    const bounds = target.bounds ?? estimateBounds(state.current.elements, target);
    if (!bounds) throw new TandemError('unsupported', `${label} has no position on screen to click before typing.`, { reason: 'no-position-to-type', index: target.index });
    const reached = await clickAt(state, target, centreOf(bounds), { button: 'left', count: 1, modifiers: [] });
    clicked = { point: reached.point, element: label, ...(reached.scrolled ? { scrolled: reached.scrolled } : {}) };
  }
  if (step.replace) await emptyBeforeKeys(state, target, label);
  progress.log(secure ? 'typing into a secure field' : `typing${count}`);
  await state.desktop.typeText(step.text, secure ? { ...progress, secretInput: true } : progress);
  state.treeIsStale = true;
  state.textEntries.push({ step: index, method: 'keys', reason, ...(target ? { element: candidateOf(state, target) } : {}), ...(step.replace ? { replaced: true } : {}) });
  return { kind: 'type-keys', text: shownText(step.text, secure), ...(clicked ? { clicked } : target ? { into: label } : {}) };
}

/** replace with keys: the field emptied through accessibility first, so the keys are all it holds. */
async function emptyBeforeKeys(state: CallState, target: ElementNode | null, label: string): Promise<void> {
  if (!target) throw new TandemError('unsupported', 'No field has the keyboard focus, so there is no text to replace.', { reason: 'value-refused' });
  try {
    await state.desktop.setValue(target, '', state.progress);
    state.treeIsStale = true;
  } catch (error) {
    if (!isTandemError(error, 'unsupported') && !isTandemError(error, 'bad-input')) throw error;
    throw new TandemError('unsupported', `${label} cannot be emptied through accessibility, so its text cannot be replaced: nothing was typed.`, { reason: 'value-refused', index: target.index });
  }
}
