// Background calls (ActRequest.background): steps that accessibility delivers by itself — an
// element's default action, a value, text inserted into a named field, a selection, a wait — run
// without the guard, the overlay, activating the app or moving the pointer, so the person keeps
// their keyboard, pointer and front window. A step that needs real input is refused before
// anything is done: it is never moved to the foreground behind the caller's back.

import { TandemError } from '../errors.js';
import type { ActRequest } from '../engineApi.js';
import type { CallState } from './callState.js';
import { runStep } from './stepRunners/runStep.js';
import { runTypeTextStep } from './stepRunners/typeTextStep.js';
import { runElementActionStep } from './stepRunners/elementSteps.js';
import type { Step } from './steps.js';
import type { StepDone } from './stepsDone.js';

/** Why a step cannot run in the background: the real input it needs. */
export type BackgroundBlocker =
  | 'click-at-point'
  | 'click-not-plain'
  | 'keys'
  | 'typing-into-focus'
  | 'typing-as-keys'
  | 'scroll'
  | 'drag';

const BLOCKER_FACTS: Record<BackgroundBlocker, string> = {
  'click-at-point': 'a click at a point needs the pointer',
  'click-not-plain': 'only a single left click without modifiers is an element\'s default action',
  keys: 'key presses go to the keyboard focus',
  'typing-into-focus': 'text without an element goes to the keyboard focus',
  'typing-as-keys': 'text typed as keys goes to the keyboard focus',
  scroll: 'the wheel turns under the pointer',
  drag: 'a drag needs the pointer and its button',
};

/** What keeps `step` from running in the background, or null when accessibility can deliver it alone. */
export function backgroundBlocker(step: Step): BackgroundBlocker | null {
  switch (step.kind) {
    case 'click':
      if (!('query' in step.target)) return 'click-at-point';
      return step.button === 'left' && step.count === 1 && step.modifiers.length === 0 ? null : 'click-not-plain';
    case 'type':
    case 'press':
      return 'keys';
    case 'type-text':
      if (!step.query) return 'typing-into-focus';
      return step.mode === 'keys' ? 'typing-as-keys' : null;
    case 'scroll':
      return 'scroll';
    case 'drag':
      return 'drag';
    case 'wait':
    case 'element-action':
    case 'set-value':
    case 'set-selected':
      return null;
  }
}

/**
 * Whether the call runs in the background. Asked for (`background: true`): every step must
 * allow it, else the call is refused, naming the first step that does not. Not asked for: the
 * person's default (`background_default`) applies where every step allows it, never as an error.
 */
export function chooseBackground(request: Pick<ActRequest, 'background'>, steps: readonly Step[], backgroundDefault: boolean): boolean {
  if (request.background === false) return false;
  const blocked = steps.map((step, index) => ({ step, index, blocker: backgroundBlocker(step) })).find((entry) => entry.blocker !== null);
  if (request.background !== true) return backgroundDefault && !blocked;
  if (!blocked) return true;
  const { step, index, blocker } = blocked;
  throw new TandemError(
    'unsupported',
    `Step ${index + 1} (${step.kind}) cannot run in the background: ${BLOCKER_FACTS[blocker!]}. Nothing was done.`,
    { reason: 'background-needs-input', step: index, kind: step.kind, blocker },
  );
}

/**
 * One step of a background call. A click on an element is its default action through
 * accessibility (press, click, activate or toggle, as the element offers); text goes in only by
 * insertion, never as keys; the other kinds run as they do in the foreground, since they never
 * send input.
 */
export async function runBackgroundStep(state: CallState, step: Step, index: number): Promise<StepDone> {
  // The element's press as an element-action step runs it: a press on the person's
  // confirm_before list waits for their word there too (the guard engaged just for the question).
  if (step.kind === 'click' && 'query' in step.target) return runElementActionStep(state, { kind: 'element-action', query: step.target.query, action: 'press' }, index);
  if (step.kind === 'type-text') return runTypeTextStep(state, { ...step, mode: 'insert' }, index);
  return runStep(state, step, index);
}

/**
 * A background call's own watchdog: no guard holds anything, but the call still ends when its
 * time is up. Returns the function that stops it.
 */
export function startBackgroundWatchdog(state: CallState): () => void {
  const ms = state.options.watchdogMs;
  const timer = setTimeout(() => {
    // Waiting for the person's word under a guard of its own: that guard's watchdog answers, as
    // their silence (a refusal, not a slow action).
    if (state.questionGuard) {
      state.questionGuard.fireWatchdogNow();
      return;
    }
    const seconds = Math.round(ms / 100) / 10;
    state.log(`watchdog: ${seconds} s passed, stopping the background call`);
    state.abort.abort(new TandemError('watchdog', `The ${seconds} s watchdog fired: the background action took too long, so Tandem stopped it.`));
  }, ms);
  return () => clearTimeout(timer);
}
