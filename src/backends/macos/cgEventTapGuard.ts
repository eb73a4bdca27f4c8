// The input guard on macOS: a session-level active CGEventTap living in its own worker thread
// (cgEventTapWorker.ts). Tandem's own events carry a marker and pass; the person's keys, clicks,
// moves and scrolls are swallowed; plain Esc cancels. Four things release it: release(), the
// worker's own watchdog (heartbeat lost or lifetime cap — it does not depend on this thread
// being responsive), macOS disabling the tap for good, and the process dying (a tap dies with
// its process).
//
// The guard is never lost silently: when the worker releases the tap by itself, fails or exits
// while engaged, the listener hears it at once (onLost) and core stops the call. And a worker
// that is stuck, crashed or terminated cannot leave an enabled tap behind that nobody services
// (macOS would hold every event of the person's until the tap's timeout): this thread then takes
// the tap over and disables it itself (TapShared decides who may touch it).

import { Worker } from 'node:worker_threads';
import { outsideAsar } from '../outsideAsar.js';
import { fileURLToPath } from 'node:url';
import type { EngagedGuard, GuardListener } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import { type Progress, remainingMs } from '../../core/progress.js';
import type { MacNative } from '../../../native/macos/macNative.js';
import { TANDEM_EVENT_MARKER } from './cgEventTapPolicy.js';
import type { TapMessage, TapReleaseReason } from './cgEventTapSession.js';
import { TapShared, TapState } from './cgEventTapShared.js';
import type { TapCommand, TapThreadOptions } from './cgEventTapThread.js';

export interface TapGuardOptions {
  /** The worker releases the tap when the main thread sent no heartbeat for this long. */
  heartbeatTimeoutMs: number;
  /** Absolute cap on one engagement (core's watchdog is 30 s by default; this is the backstop). */
  maxLifetimeMs: number;
  heartbeatEveryMs: number;
  startTimeoutMs: number;
  /** How long release() waits for the worker to confirm before taking the tap over. */
  releaseAckMs: number;
}

export const DEFAULT_TAP_GUARD_OPTIONS: TapGuardOptions = {
  heartbeatTimeoutMs: 10_000,
  maxLifetimeMs: 120_000,
  heartbeatEveryMs: 500,
  startTimeoutMs: 5_000,
  // The worker answers within one 50 ms run-loop slice; a second means it is stuck.
  releaseAckMs: 1_000,
};

/** The part of a worker_threads Worker the guard uses (unit tests supply an in-process one). */
export interface TapWorker {
  postMessage(message: TapCommand): void;
  on(event: 'message', listener: (message: TapMessage) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<number>;
}

export interface TapGuardDeps {
  /** Bindings on this thread, to disable a tap the worker can no longer take down (null: none). */
  native: Pick<MacNative, 'cf' | 'cg'> | null;
  spawn?: (data: TapThreadOptions) => TapWorker;
}

export interface EngagedTapGuard extends EngagedGuard {
  /** How many of Tandem's own events the tap has seen pass (the paced-input barrier's first half). */
  oursSeen(): number;
  /** False once released or lost. */
  readonly holding: boolean;
}

/**
 * The worker file next to this one: the compiled .js in every build; when running from sources
 * under tsx (development, unit tests) a tiny bootstrap registers tsx in the worker first.
 */
function spawnWorker(workerData: TapThreadOptions): TapWorker {
  if (!fileURLToPath(import.meta.url).endsWith('.ts')) return new Worker(outsideAsar(new URL('./cgEventTapWorker.js', import.meta.url)), { workerData });
  const source = new URL('./cgEventTapWorker.ts', import.meta.url).href;
  return new Worker(`import('tsx/esm/api').then((tsx) => tsx.register()).then(() => import(${JSON.stringify(source)}))`, { eval: true, workerData });
}

/** Why the guard stopped holding the input, as a fact for the log and the guard-lost error. */
export function lostReason(reason: TapReleaseReason, options: Pick<TapGuardOptions, 'heartbeatTimeoutMs' | 'maxLifetimeMs'>): string {
  switch (reason) {
    case 'lifetime':
      return `the guard thread released the event tap at its ${options.maxLifetimeMs / 1000} s lifetime cap`;
    case 'heartbeat-lost':
      return `the guard thread heard nothing from the engine for ${options.heartbeatTimeoutMs / 1000} s and released the event tap`;
    case 'disabled':
      return 'macOS disabled the event tap and it did not come back on';
    case 'taken-over':
      return 'the guard thread stopped answering';
    default:
      return "the guard thread's run loop stopped";
  }
}

export async function engageTapGuard(
  listener: GuardListener,
  progress: Progress,
  options: TapGuardOptions = DEFAULT_TAP_GUARD_OPTIONS,
  deps: TapGuardDeps = { native: null },
): Promise<EngagedTapGuard> {
  const shared = new TapShared();
  const worker = (deps.spawn ?? spawnWorker)({
    marker: TANDEM_EVENT_MARKER.toString(),
    heartbeatTimeoutMs: options.heartbeatTimeoutMs,
    maxLifetimeMs: options.maxLifetimeMs,
    shared: shared.buffer,
  });
  let engaged = false;
  /** release() was called: whatever happens next is not a loss. */
  let releasing: Promise<void> | null = null;
  /** The worker said the tap is down, or exited. */
  let workerDone = false;
  let lostReported = false;
  const timers: { heartbeat?: NodeJS.Timeout } = {};
  let onWorkerDone: (() => void) | undefined;

  const safely = (call: () => void): void => {
    try {
      call();
    } catch (error) {
      console.error('[tandem] guard listener threw:', error);
    }
  };

  let disabledHere: bigint | null = null;
  /** Disables and invalidates the tap from this thread (never frees it: the worker might). */
  const disableHere = (): void => {
    const tap = shared.tap;
    if (tap === null || tap === disabledHere || !deps.native) return;
    disabledHere = tap;
    for (const step of [() => deps.native!.cg.CGEventTapEnable(tap, false), () => deps.native!.cf.CFMachPortInvalidate(tap)]) {
      try {
        step();
      } catch (error) {
        console.error('[tandem] disabling the guard tap from the main thread:', error);
      }
    }
  };
  /** The worker can no longer be trusted to take the tap down: take it over unless it is doing so. */
  const takeOver = (): void => {
    const found = shared.takeOver();
    if (found === TapState.live || found === TapState.takenOver) disableHere();
  };
  /** The worker's JS no longer runs: finish whatever teardown it left undone. */
  const afterWorkerGone = (): void => {
    const state = shared.state();
    if (state === TapState.live) takeOver();
    else if (state === TapState.workerTeardown || state === TapState.takenOver) disableHere();
  };

  const reportLost = (reason: string): void => {
    if (!engaged || releasing || lostReported) return;
    lostReported = true;
    clearInterval(timers.heartbeat);
    console.error(`[tandem] the input guard was lost: ${reason}`);
    safely(() => listener.onLost(reason));
  };

  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TandemError('timeout', 'The input guard did not start in time.')), Math.min(options.startTimeoutMs, Math.max(1, remainingMs(progress))));
    worker.on('message', (message: TapMessage) => {
      switch (message.type) {
        case 'ready':
          clearTimeout(timer);
          resolve();
          break;
        case 'failed':
          clearTimeout(timer);
          reject(
            message.cause === 'tap'
              ? new TandemError('permission', `The input guard could not start: ${message.reason}`, { reason: 'accessibility-off' })
              : new TandemError('unsupported', `The input guard could not start: ${message.reason}`),
          );
          break;
        case 'escape':
          if (engaged && !releasing) safely(() => listener.onEscape());
          break;
        case 'human':
          if (engaged && !releasing) safely(() => listener.onHumanInput(message.kind));
          break;
        case 'reenabled':
          console.error(`[tandem] macOS disabled the guard's event tap (${message.cause}); it was re-enabled`);
          break;
        case 'released':
          workerDone = true;
          onWorkerDone?.();
          if (message.reason !== 'release') reportLost(lostReason(message.reason, options));
          break;
      }
    });
    worker.on('error', (error) => {
      clearTimeout(timer);
      // An uncaught error ends the worker; its tap must not outlive it enabled.
      takeOver();
      reportLost(`the guard thread failed: ${error.message}`);
      reject(new TandemError('internal', `The input guard thread failed: ${error.message}`));
    });
    worker.on('exit', () => {
      clearTimeout(timer);
      workerDone = true;
      clearInterval(timers.heartbeat);
      afterWorkerGone();
      onWorkerDone?.();
      reportLost('the guard thread exited');
      reject(new TandemError('internal', 'The input guard thread exited before it was ready.'));
    });
  });

  /** Asks the worker to take the tap down; takes it over when it does not answer in time. */
  const stopWorker = async (ackMs: number): Promise<void> => {
    if (!workerDone) {
      const acknowledged = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ackMs);
        onWorkerDone = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      try {
        worker.postMessage({ type: 'release' });
      } catch (error) {
        console.error('[tandem] asking the guard thread to release:', error);
      }
      if (!(await acknowledged)) {
        console.error(`[tandem] the guard thread did not release the tap within ${ackMs} ms: disabling it from the main thread`);
        takeOver();
      }
    }
    await worker.terminate().catch(() => undefined);
    afterWorkerGone();
  };

  try {
    await ready;
  } catch (error) {
    // A tap may still have come up late: take it down before giving up on the worker.
    releasing = Promise.resolve();
    await stopWorker(500);
    throw error;
  }
  engaged = true;
  timers.heartbeat = setInterval(() => {
    try {
      worker.postMessage({ type: 'heartbeat' });
    } catch {
      // the worker is gone: its 'exit' reports it
    }
  }, options.heartbeatEveryMs);
  timers.heartbeat.unref(); // a forgotten release must not keep the process alive (the worker times out on its own)

  return {
    oursSeen: () => shared.oursSeen,
    get holding(): boolean {
      return engaged && !releasing && !lostReported && !workerDone;
    },
    release(): Promise<void> {
      releasing ??= (async () => {
        clearInterval(timers.heartbeat);
        try {
          await stopWorker(options.releaseAckMs);
        } catch (error) {
          console.error('[tandem] releasing the guard:', error);
        }
      })();
      return releasing;
    },
  };
}
