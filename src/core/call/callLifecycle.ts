// The lifecycle of one acting call (docs/architecture.md, "The engine and one call"), written once
// for every OS, as Playwright splits an action's progress from the work it runs:
//
//   prepare (prepare.ts: validate → resolve app → snapshot before, registering its restore) →
//   guarded: guard engage → activate target → steps (stepRunners/, a checkpoint before and after
//   each) → settle (quiet, then any process the steps launched) → handoff check → screenshot
//   (encoded in the background) → tree after (read again if the app changed meanwhile) → the new
//   window's tree → diff (afterAction.ts) →
//   finish: release or linger the guard → run the registered cleanups (restore cursor and
//   frontmost, always) → artifacts → CallResult (resultBuilder.ts), while the guard stays up
//   until the grace period after the last step has passed (a late Esc still counts: it releases
//   the guard at once and the next action is refused).
//
// A background call (background.ts) leaves out the guard, the overlay and the activation, runs
// element steps through accessibility alone, and has a watchdog of its own.
//
// Errors before the guard is engaged are thrown (nothing was disturbed). From guard engage on,
// failures are returned as a CallResult whose status says what happened, because the restore
// facts and the artifacts still matter to the model and the person.

import { CLEANUP_TIMEOUT_MS, bounded } from './cleanups.js';
import type { ActRequest } from '../engineApi.js';
import { TandemError, toTandemError } from '../errors.js';
import { abortReason, type GuardReleaseReason } from '../guard.js';
import { DEFAULT_PACING } from '../input/inputPacing.js';
import { createProgress, throwIfAborted } from '../progress.js';
import { describeStep, redactStep, secureForEvents } from '../tree/redact.js';
import type { CallResult, CallStatus } from './result.js';
import { awaitLateReaction } from './lateReaction.js';
import { settle, waitForLaunches, type LaunchOutcome } from './settle.js';
import { stepVerb } from './steps.js';
import { captureScreenshot, checkHandoff, readAfterFailure, readHandoffTree } from './afterAction.js';
import { captureAndReadAfter } from './screenshotCurrent.js';
import { busyTreeReader } from './busyIndicators.js';
import { CallState, type CallInfo, type TransactionDeps, type UnframedResult } from './callState.js';
import { prepare } from './prepare.js';
import { engageCallGuard } from './callGuard.js';
import { revisionFacts } from '../revisions/callRevisions.js';
import { buildResult } from './resultBuilder.js';
import { handedOutTree, indexesShownIn, reindexCandidates } from './indexesHandedOut.js';
import { noteKeptText } from './textKept.js';
import { runStep } from './stepRunners/runStep.js';
import { runBackgroundStep, startBackgroundWatchdog } from './background.js';
import type { StepDone } from './stepsDone.js';
import { exitBehind, noteExit } from './appExit.js';
import { noEffectWithin } from './noEffect.js';

export type { CallInfo, TransactionDeps, TransactionOptions } from './callState.js';
export { MAX_REREADS } from './callState.js';

/**
 * How long an interrupted step may still finish — so that it is reported as done, and so that
 * an input step can drain what it had in flight (DEFAULT_PACING.drainCapMs) before the answer:
 * after a `cancelled` answer, nothing more reaches the app.
 */
const INTERRUPTED_STEP_MS = DEFAULT_PACING.drainCapMs + 250;

function statusOf(error: TandemError): CallStatus {
  if (error.code === 'cancelled') return 'cancelled';
  if (error.code === 'watchdog') return 'watchdog';
  return 'error';
}

function releaseReason(status: CallStatus): GuardReleaseReason {
  return status === 'ok' ? 'done' : status;
}

export async function runTransaction(deps: TransactionDeps, call: CallInfo, request: ActRequest): Promise<CallResult> {
  return run(new CallState(deps, call, request));
}

async function run(state: CallState): Promise<CallResult> {
  try {
    await prepare(state);
  } catch (error) {
    if (state.call.signal?.aborted) throw new TandemError('cancelled', 'The call was cancelled before it started: the client went away.', { by: 'caller' });
    throw error;
  }
  // A finished call's grace period may still hold the guard: wait for it, and if the person
  // pressed Esc in it, this action must not run.
  await state.deps.guard.refuseAfterLateEscape();
  state.record.app = state.appName;
  const args = { pid: state.request.pid, steps: state.steps.map((step, i) => redactStep(step, secureForEvents(state.destinations.get(i)))) };
  state.record.start(state.request.pid, args, state.background);
  const outcome = await guarded(state);
  return state.record.finish(await finish(state, outcome));
}

/** From guard engage to the end of the grace period. Never throws: returns the failure. */
async function guarded(state: CallState): Promise<TandemError | null> {
  const external = state.call.signal;
  const onExternalAbort = (): void => {
    state.abort.abort(new TandemError('cancelled', 'The call was cancelled: the client went away.', { by: 'caller' }));
  };
  if (external?.aborted) onExternalAbort();
  external?.addEventListener('abort', onExternalAbort, { once: true });
  state.progress = createProgress({
    signal: state.abort.signal,
    timeoutMs: state.options.watchdogMs,
    log: state.log,
    now: state.options.now,
    reportInput: (done, total) => state.record.emit('input-progress', { callId: state.callId, index: state.currentStep, done, total }),
  });
  // In the background nothing is held and nothing comes to the front: the call's own watchdog only.
  const stopBackgroundWatchdog = state.background ? startBackgroundWatchdog(state) : null;
  try {
    if (!state.background) await engageGuardAndActivate(state);
    const stepsStartedAt = state.options.now();
    for (let i = 0; i < state.steps.length; i++) {
      throwIfAborted(state.progress);
      // Input goes to whatever has focus: once the target is gone, the next key would land in
      // another app. Check it is still there before every step after the first.
      if (i > 0) await ensureTargetAlive(state, i);
      state.currentStep = i;
      state.record.emit('step', { callId: state.callId, index: i, label: describeStep(state.steps[i], secureForEvents(state.destinations.get(i))), verb: stepVerb(state.steps[i]) });
      try {
        state.stepsDone.push(await runReported(state, (state.background ? runBackgroundStep : runStep)(state, state.steps[i], i)));
      } catch (error) {
        // A step that failed because the app had just quit (a read or an action found it gone).
        if (!state.abort.signal.aborted && (await exitBehind(state, error))) throw exitedMidCall(state, i);
        throw error;
      }
      throwIfAborted(state.progress);
    }
    // A late Esc (the person saw something go wrong at the last moment) counts for graceMs
    // after the last step: the guard stays up that long, beyond the answer if need be.
    state.graceEndsAt = state.options.now() + state.options.graceMs;
    state.stepsEndedAt = state.options.now();
    // The screenshot and the tree after wait for the app to settle (tree quiet, painting done):
    // an answer taken while it still changed would show the old state.
    const settleGivesUpAt = state.options.now() + state.options.settle.capMs;
    await settleOrExit(state);
    // A window another process is opening (the steps launched it) is the next thing the
    // model must see: wait for it before looking for a handoff. Paced input means the app has
    // handled the steps' input by now, so a busy app's click handler has run. An app that exited
    // has no descendants left to wait for.
    const launches: LaunchOutcome = state.appExited
      ? { kind: 'none', running: [] }
      : await state.step(waitForLaunches(state.desktop, state.request.pid, stepsStartedAt, state.options.settle, state.progress));
    if (launches.kind === 'cap') state.launchedWithoutWindow = launches.running;
    await checkHandoff(state, launches);
    // The screenshot first: the app is settled, and its PNG is encoded (in sharp's threads)
    // while the trees are read. The reads run one after the other: they are bound by the CPU
    // the app, the display server and we share (in parallel they took longer than in a row).
    await captureAndReadAfter(state, settleGivesUpAt);
    await awaitLateReaction(state, settleGivesUpAt);
    await readHandoffTree(state);
    state.session?.fireWatchdogIfDue();
    throwIfAborted(state.progress);
    return null;
  } catch (error) {
    return state.abort.signal.aborted ? abortReason(state.abort.signal) : toTandemError(error);
  } finally {
    stopBackgroundWatchdog?.();
    external?.removeEventListener('abort', onExternalAbort);
  }
}

/** The foreground's start: the guard holds the person's input, the target comes to the front. */
async function engageGuardAndActivate(state: CallState): Promise<void> {
  const session = (state.session = await engageCallGuard(state, stepVerb(state.steps[0])));
  if (session.signal.aborted) state.abort.abort(session.signal.reason);
  else session.signal.addEventListener('abort', () => state.abort.abort(session.signal.reason), { once: true });

  if (state.before.frontmost?.pid !== state.request.pid) {
    const confirmed = await state.step(state.desktop.activate(state.request.pid, undefined, state.progress));
    if (!confirmed) state.log(`could not confirm that ${state.appName} came to the front; continuing`);
  }
}

/**
 * After the steps: the app settled, or it is gone (the steps made it quit). Gone takes both
 * words: the bus's (a failed read) and the process table's (appExit.ts).
 */
async function settleOrExit(state: CallState): Promise<void> {
  try {
    state.settled = (await state.step(settle(state.desktop, state.request.pid, state.options.settle, state.progress, state.current, busyTreeReader(state)))) !== 'cap';
  } catch (error) {
    if (state.abort.signal.aborted || !(await exitBehind(state, error))) throw error;
  }
}

async function ensureTargetAlive(state: CallState, nextStep: number): Promise<void> {
  const app = await state.step(state.desktop.appForPid(state.request.pid, state.progress));
  if (app) return;
  noteExit(state);
  throw exitedMidCall(state, nextStep);
}

/** The target exited before step `nextStep` could run (or while it ran): the rest is not run. */
function exitedMidCall(state: CallState, nextStep: number): TandemError {
  const left = state.steps.length - nextStep;
  return new TandemError(
    'app-gone',
    `${state.appName} (pid ${state.request.pid}) exited during the call, after ${state.stepsDone.length} of ${state.steps.length} steps; the remaining ${left} step${left === 1 ? ' was' : 's were'} not run so that no input reached another app.`,
    { pid: state.request.pid, stepsRun: state.stepsDone.length },
  );
}

/**
 * Awaits a step like step(), but when an abort interrupts it, gives the step a moment to
 * finish: a click that happened while Esc was pressed is reported as done, honestly.
 */
async function runReported(state: CallState, running: Promise<StepDone>): Promise<StepDone> {
  try {
    return await state.step(running);
  } catch (error) {
    if (state.abort.signal.aborted) {
      const late = await bounded(running, INTERRUPTED_STEP_MS, 'the interrupted step').catch(() => null);
      if (late !== null) state.stepsDone.push(late);
    }
    throw error;
  }
}

async function finish(state: CallState, failure: TandemError | null): Promise<UnframedResult> {
  const status: CallStatus = failure ? statusOf(failure) : 'ok';
  // Measured before the restore: how long the answer watched the app after the steps.
  const quietFor = noEffectWithin(state, status);
  const cleanup = createProgress({ timeoutMs: CLEANUP_TIMEOUT_MS, log: state.log, now: state.options.now });
  try {
    const graceLeft = state.graceEndsAt - state.options.now();
    if (state.session && status === 'ok' && graceLeft > 0) {
      // The answer does not wait for the grace period: the guard outlives the call instead.
      state.deps.guard.linger(state.session, graceLeft, `${state.request.tool}: ${state.options.describeSteps(state.stepsDone)}`);
    } else if (state.session) {
      await state.session.release(releaseReason(status));
    }
    if (failure && (state.session || state.background)) {
      // An app that exited has no tree to read; the screen is still worth a look.
      if (!state.appExited && failure.code !== 'app-gone') await readAfterFailure(state, cleanup);
      await captureScreenshot(state, cleanup);
    }
  } finally {
    // The cursor and the frontmost app (prepare.ts), newest first, each bounded.
    await state.cleanups.runAll(cleanup);
  }
  // The answer's indexes (diff lines, chosen, typed_by) are the after-tree's: the next call's
  // element_index is resolved against it (and a handoff app's against its tree).
  const handedOut = handedOutTree(state);
  if (handedOut) {
    noteKeptText(state, handedOut);
    reindexCandidates(state, handedOut);
    state.deps.snapshots.set(handedOut, indexesShownIn(state, handedOut));
  }
  if (state.handoff?.snapshot) state.deps.snapshots.set(state.handoff.snapshot);
  const revisions = revisionFacts(state, handedOut);
  return { ...(await buildResult(state, status, failure, state.restored)), ...revisions, ...(quietFor !== undefined ? { noEffectWithinMs: quietFor } : {}) };
}

