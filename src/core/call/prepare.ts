// Before anything is disturbed (errors are thrown): the steps validated, the app resolved, the
// before-snapshot (frontmost, cursor, tree) taken — and its restore registered —, element_index
// pins and the first step's queries resolved, and where each step's input will land predicted.

import { resolveIndexed } from '../tree/elementIndex.js';
import { isTandemError } from '../errors.js';
import { LIMITS, checkPid } from '../limits.js';
import type { ElementNode } from '../model.js';
import { createProgress } from '../progress.js';
import { elementAtPoint, findElement, refuseBlocked } from '../tree/query.js';
import { explainMissingApp, explainUnreadable } from '../apps/readability.js';
import { predictDestinations } from '../tree/redact.js';
import { chooseBackground } from './background.js';
import { CLEANUP_TIMEOUT_MS } from './cleanups.js';
import type { Step } from './steps.js';
import { bad, normalizeStep } from './stepNormalize.js';
import type { CallState } from './callState.js';
import { restore } from './restore.js';
import { checkRevision } from '../revisions/callRevisions.js';
import { choose, hasIndex, purposeOf, queriesOf } from './stepTargets.js';

/** The restore reads and sets the cursor and the frontmost app: four primitives, each bounded. */
const RESTORE_TIMEOUT_MS = 4 * CLEANUP_TIMEOUT_MS;

export async function prepare(state: CallState): Promise<void> {
  const { pid, steps } = state.request;
  checkPid(pid);
  if (!Array.isArray(steps) || steps.length === 0) throw bad('No steps were sent.', { reason: 'no-steps' });
  if (steps.length > LIMITS.steps) throw bad(`${steps.length} steps: at most ${LIMITS.steps} run in one call.`);
  state.steps = steps.map((step, i) => normalizeStep(step, i));
  state.background = chooseBackground(state.request, state.steps, state.options.backgroundDefault ?? false);
  const waited = state.steps.reduce((sum, step) => sum + (step.kind === 'wait' ? step.ms : step.kind === 'drag' ? step.durationMs : 0), 0);
  if (waited >= state.options.watchdogMs) {
    throw bad(`The wait steps and drags add up to ${waited} ms, longer than the ${state.options.watchdogMs} ms watchdog allows one call.`, { reason: 'wait-too-long' });
  }
  const readProgress = createProgress({ signal: state.call.signal, timeoutMs: state.options.watchdogMs, log: state.log });
  const app = await state.desktop.appForPid(pid, readProgress);
  if (!app) throw await explainMissingApp(state.desktop, pid, readProgress);
  state.appName = app.name;
  const [frontmost, cursor, snapshot] = await Promise.all([
    state.desktop.frontmost(readProgress),
    state.desktop.cursorPosition(),
    state.desktop.snapshot(pid, state.options.snapshotLimits, readProgress),
  ]);
  state.before = { frontmost, cursor, snapshot };
  state.current = snapshot;
  await checkRevision(state);
  // Taken now, put back whatever happens once the action is over (run by finish()).
  state.cleanups.add(
    'restore the cursor and the frontmost app',
    async (progress) => {
      state.restored = await restore(state, progress);
    },
    RESTORE_TIMEOUT_MS,
  );

  for (const step of state.steps) {
    for (const query of queriesOf(step)) {
      if (!hasIndex(query)) continue;
      const pinned = resolveIndexed(state.deps.snapshots, snapshot, query);
      // An index into a window a modal dialog holds back names something no click would reach.
      refuseBlocked(snapshot.elements, pinned);
      state.resolvedBefore.set(query, pinned);
    }
  }
  for (const firstQuery of queriesOf(state.steps[0])) {
    if (state.resolvedBefore.has(firstQuery)) continue;
    try {
      state.resolvedBefore.set(firstQuery, choose(state, snapshot.elements, firstQuery, 0));
    } catch (error) {
      // Not found because the app exposes nothing at all: that is the answer, not "not found".
      if (isTandemError(error, 'not-found')) throw (await explainUnreadable(state.desktop, pid, snapshot, readProgress)) ?? error;
      throw error;
    }
  }

  state.destinations = predictDestinations(state.steps, snapshot, (step, i) => predictTarget(state, step, i));
}

/** Best guess, from the tree before the call, of the element a step acts on. */
export function predictTarget(state: CallState, step: Step, index: number): ElementNode | null {
  if (step.kind === 'click' && 'point' in step.target) return elementAtPoint(state.before.snapshot.elements, step.target.point);
  const [query] = queriesOf(step);
  if (!query) return null;
  const known = state.resolvedBefore.get(query);
  if (known) return known;
  try {
    return findElement(state.before.snapshot.elements, query, purposeOf(state, index));
  } catch {
    return null;
  }
}
