// An answer whose diff is empty after an action is not proof that the action did nothing: a busy
// app (a page's click handler that runs for 3 s, a tree view that fills its rows later) shows its
// effect after the answer was taken (agent-seat audit: the change came in the next call's outside
// changes, and an agent reading "no changes" may act again and run the handler twice). The answer
// says how long it watched, so that the reader can tell a pause of the app apart from an action that did nothing.

import { isEmptyDiff } from '../revisions/revisionStore.js';
import type { CallState } from './callState.js';
import type { CallStatus } from './result.js';

/** Milliseconds from the end of the steps to now when the call did all its steps and its diff is empty; else undefined. */
export function noEffectWithin(state: CallState, status: CallStatus): number | undefined {
  if (status !== 'ok' || state.stepsEndedAt === undefined || state.handoff || state.appExited) return undefined;
  if (!state.diff || !isEmptyDiff(state.diff)) return undefined;
  return Math.max(0, Math.round(state.options.now() - state.stepsEndedAt));
}
