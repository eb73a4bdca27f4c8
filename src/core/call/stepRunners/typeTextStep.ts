// type_text: text into a field, inserted through accessibility where it takes it, else typed as keys.

import { TandemError, isTandemError, toTandemError } from '../../errors.js';
import { shownText } from '../../tree/redact.js';
import type { KeysReason } from '../result.js';
import { centreOf, estimateBounds } from '../scrollIntoView.js';
import type { TypeTextStep } from '../steps.js';
import type { ElementNode } from '../../model.js';
import { formatElementLabel } from '../../tree/treeFormat.js';
import { isEditable } from '../../tree/query.js';
import type { CallState } from '../callState.js';
import { candidateOf, focusedIn, isSecureDestination, locate } from '../stepTargets.js';
import { clickAt } from './clickStep.js';
import type { DoneAt, ScrolledInto, StepDone } from '../stepsDone.js';
import { selectAllOfField } from './selectAll.js';

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
        if (!refusedBeforeAnything(error)) throw error;
        if (isTandemError(error, 'unsupported') && error.details?.reason === 'insertion-ignored') reason = 'insertion-ignored';
        state.log(`${label} takes no text insertion: ${toTandemError(error).message}`);
      }
    }
    if (step.mode === 'insert') {
      throw new TandemError('unsupported', `${label} takes no text insertion.`, { reason, ...(target ? { index: target.index } : {}) });
    }
  }
  return typeAsKeys(state, { text: step.text, replace: step.replace === true, clickFirst: step.query !== undefined }, index, target, reason, secure);
}

/**
 * Refused before anything went in (no such interface, or the value not taken: macOS maps that
 * to bad-input): typing keys can still do it. Anything else is a real failure.
 */
function refusedBeforeAnything(error: unknown): boolean {
  return isTandemError(error, 'unsupported') || (isTandemError(error, 'bad-input') && (error.details?.reason === 'value-rejected' || error.details?.reason === 'number-expected'));
}

/** What typeAsKeys types, and how: `clickFirst` when the field was named (not the focus). */
export interface KeysEntry {
  text: string;
  replace: boolean;
  clickFirst: boolean;
}

/**
 * The text typed as keys at `target` (clicked first when named and not focused; null: the
 * focus). With replace, the field is emptied first: through accessibility, else by selecting
 * all of it with the select-all key. How it went in is kept as a fact for the answer.
 */
export async function typeAsKeys(state: CallState, entry: KeysEntry, index: number, target: ElementNode | null, reason: KeysReason, secure: boolean): Promise<StepDone> {
  const progress = state.progress;
  const label = target ? formatElementLabel(target) : 'the keyboard focus';
  // Keys go to the focus: an element named by the query that does not have it is clicked first.
  let clicked: (DoneAt & { scrolled?: ScrolledInto }) | undefined;
  if (target && entry.clickFirst && !target.focused) {
    const bounds = target.bounds ?? estimateBounds(state.current.elements, target);
    if (!bounds) throw new TandemError('unsupported', `${label} has no position on screen to click before typing.`, { reason: noPositionReason(reason, target), index: target.index });
    const reached = await clickAt(state, target, centreOf(bounds), { button: 'left', count: 1, modifiers: [] });
    clicked = { point: reached.point, element: label, ...(reached.scrolled ? { scrolled: reached.scrolled } : {}) };
  }
  const selectedAll = entry.replace ? await emptyBeforeKeys(state, target, label) : undefined;
  progress.log(secure ? 'typing into a secure field' : `typing ${[...entry.text].length} characters`);
  await state.desktop.typeText(entry.text, secure ? { ...progress, secretInput: true } : progress);
  state.treeIsStale = true;
  state.textEntries.push({
    step: index,
    method: 'keys',
    reason,
    ...(target ? { element: candidateOf(state, target) } : {}),
    ...(entry.replace ? { replaced: true } : {}),
    ...(selectedAll ? { selectedAll } : {}),
  });
  return { kind: 'type-keys', text: shownText(entry.text, secure), ...(clicked ? { clicked } : target ? { into: label } : {}), ...(selectedAll ? { selectedAll } : {}) };
}

/**
 * Why keys could not be typed at a target with no position: it is no field at all (the
 * Application element: no mode helps), keys were asked for (mode "keys": insertion may still do
 * it), or the field takes its text only as keys (it must come into view).
 */
function noPositionReason(reason: KeysReason, target: ElementNode): 'no-position-to-type' | 'not-editable' | 'no-position-for-keys' {
  if (reason === 'not-editable' || !isEditable(target)) return 'not-editable';
  return reason === 'mode' ? 'no-position-to-type' : 'no-position-for-keys';
}

/**
 * replace with keys: the field emptied through accessibility first, so the keys are all it holds;
 * where it cannot be, its whole text selected with the select-all key (returned: the keys pressed).
 */
async function emptyBeforeKeys(state: CallState, target: ElementNode | null, label: string): Promise<string | undefined> {
  if (!target) throw new TandemError('unsupported', 'No field has the keyboard focus, so there is no text to replace.', { reason: 'value-refused' });
  try {
    await state.desktop.setValue(target, '', state.progress);
    state.treeIsStale = true;
    return undefined;
  } catch (error) {
    if (!isTandemError(error, 'unsupported') && !isTandemError(error, 'bad-input')) throw error;
    state.log(`${label} cannot be emptied through accessibility: ${toTandemError(error).message}`);
    return selectAllOfField(state, target, label);
  }
}
