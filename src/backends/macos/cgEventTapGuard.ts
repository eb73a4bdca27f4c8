// The input guard on macOS: a session-level active CGEventTap living in its own worker thread
// (cgEventTapWorker.ts). Tandem's own events carry a marker and pass; the person's keys, clicks,
// moves and scrolls are swallowed; plain Esc cancels. Four things release it: release(), the
// worker's own watchdog (heartbeat lost or lifetime cap — it does not depend on this thread
// being responsive), macOS disabling the tap for good, and the process dying (a tap dies with
// its process).
//
// One thread serves every engagement (cgEventTapHost.ts): engaged and released by message, never
// terminated per call. Secure event input hides keys (Esc included) from the tap: the guard
// refuses to engage under it (guard-unavailable) and is lost as soon as it comes on. A tap macOS
// switched off and the worker switched back on let the person's input through in between: each
// such gap is reported (GuardListener.onInputLeaked).
//
// The guard is never lost silently: when the worker releases the tap by itself, fails or exits
// while engaged, the listener hears it at once (onLost) and core stops the call. And a worker
// that is stuck, crashed or terminated cannot leave an enabled tap behind that nobody services
// (macOS would hold every event of the person's until the tap's timeout): this thread then takes
// the tap over and disables it itself (TapShared decides who may touch it).

import type { EngagedGuard, GuardListener, GuardLostKind } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import { type Progress, remainingMs } from '../../core/progress.js';
import type { MacNative } from '../../../native/macos/macNative.js';
import type { TapChannel, TapEngagementEvents, TapThreadHost } from './cgEventTapHost.js';
import type { TapMessage, TapReleaseReason } from './cgEventTapSession.js';
import { TapShared, TapState } from './cgEventTapShared.js';

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

export interface TapGuardDeps {
  /** Bindings on this thread: the secure-input check, and disabling a tap the worker can no longer take down (null: none). */
  native: Pick<MacNative, 'cf' | 'cg' | 'hiToolbox'> | null;
  /** The process's one guard thread. */
  host: TapThreadHost;
}

export interface EngagedTapGuard extends EngagedGuard {
  /** How many of Tandem's own events the tap has seen pass (the paced-input barrier's first half). */
  oursSeen(): number;
  /** False once released or lost. */
  readonly holding: boolean;
}

const SECURE_INPUT_FACT = "secure keyboard entry is on (a password field has the focus, or Terminal's Secure Keyboard Entry is on): macOS hides every key from the guard, Esc included";

function secureInputRefusal(): TandemError {
  return new TandemError('guard-unavailable', `Tandem did not act: ${SECURE_INPUT_FACT}, so the person could not cancel.`, { reason: 'secure-input' });
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
    case 'secure-input':
      return `${SECURE_INPUT_FACT}, so the person could no longer cancel`;
    case 'callback-failed':
      return "the event tap's callback failed, so it let the person's input through";
    default:
      return "the guard thread's run loop stopped";
  }
}

export async function engageTapGuard(
  listener: GuardListener,
  progress: Progress,
  options: TapGuardOptions,
  deps: TapGuardDeps,
): Promise<EngagedTapGuard> {
  // Under secure input the tap would hear no key, Esc included: refuse before holding anything.
  if (deps.native?.hiToolbox.IsSecureEventInputEnabled()) throw secureInputRefusal();
  const shared = new TapShared();
  let engaged = false;
  /** release() was called: whatever happens next is not a loss. */
  let releasing: Promise<void> | null = null;
  /** The thread said this engagement's tap is down (or never came up), or the thread exited. */
  let sessionDone = false;
  let lostReported = false;
  const timers: { heartbeat?: NodeJS.Timeout } = {};
  let onSessionDone: (() => void) | undefined;

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

  const reportLost = (reason: string, kind?: GuardLostKind): void => {
    if (!engaged || releasing || lostReported) return;
    lostReported = true;
    clearInterval(timers.heartbeat);
    console.error(`[tandem] the input guard was lost: ${reason}`);
    safely(() => listener.onLost(reason, kind));
  };

  let channel: TapChannel | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TandemError('timeout', 'The input guard did not start in time.')), Math.min(options.startTimeoutMs, Math.max(1, remainingMs(progress))));
    const onMessage = (message: TapMessage): void => {
      switch (message.type) {
        case 'ready':
          clearTimeout(timer);
          resolve();
          break;
        case 'failed':
          clearTimeout(timer);
          sessionDone = true;
          reject(
            message.cause === 'secure-input'
              ? secureInputRefusal()
              : message.cause === 'tap'
                ? new TandemError('permission', `The input guard could not start: ${message.reason}`, { reason: 'accessibility-off' })
                : new TandemError('unsupported', `The input guard could not start: ${message.reason}`),
          );
          break;
        case 'escape':
          if (engaged && !releasing) safely(() => listener.onEscape());
          break;
        case 'enter':
          // Without a listener for it, Enter is a key held back like any other.
          if (engaged && !releasing) safely(() => (listener.onEnter ? listener.onEnter() : listener.onHumanInput('key')));
          break;
        case 'human':
          if (engaged && !releasing) safely(() => listener.onHumanInput(message.kind));
          break;
        case 'reenabled':
          // The tap was off from macOS's notice until now: the person's input in that gap went through.
          console.error(`[tandem] macOS disabled the guard's event tap (${message.cause}); it was re-enabled, and input in the gap went through`);
          if (engaged && !releasing) safely(() => listener.onInputLeaked?.());
          break;
        case 'released':
          sessionDone = true;
          onSessionDone?.();
          if (message.reason !== 'release') reportLost(lostReason(message.reason, options), message.reason === 'secure-input' ? 'secure-input' : undefined);
          break;
      }
    };
    const events: TapEngagementEvents = {
      message: onMessage,
      error: (error) => {
        clearTimeout(timer);
        // An uncaught error ends the worker; its tap must not outlive it enabled.
        takeOver();
        reportLost(`the guard thread failed: ${error.message}`);
        reject(new TandemError('internal', `The input guard thread failed: ${error.message}`));
      },
      exit: () => {
        clearTimeout(timer);
        sessionDone = true;
        clearInterval(timers.heartbeat);
        afterWorkerGone();
        onSessionDone?.();
        reportLost('the guard thread exited');
        reject(new TandemError('internal', 'The input guard thread exited before it was ready.'));
      },
    };
    try {
      channel = deps.host.open(events, { heartbeatTimeoutMs: options.heartbeatTimeoutMs, maxLifetimeMs: options.maxLifetimeMs, shared: shared.buffer });
    } catch (error) {
      clearTimeout(timer);
      reject(error);
    }
  });

  /**
   * Asks the thread to take this engagement's tap down, within `ackMs`. A thread that does not
   * answer is not waited on (koffi #274: it may never end): the tap is disabled from here, and
   * the thread is marked unusable, so no later call relies on it.
   */
  const stopSession = async (channel: TapChannel, ackMs: number): Promise<void> => {
    if (!sessionDone) {
      const acknowledged = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ackMs);
        onSessionDone = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      channel.send({ type: 'release', id: channel.id });
      if (!(await acknowledged)) {
        console.error(`[tandem] the guard thread did not release the tap within ${ackMs} ms: disabling it from the main thread; the guard is unusable until Tandem restarts`);
        takeOver();
        deps.host.markUnusable(`it did not release the event tap within ${ackMs} ms`);
      }
    }
    channel.close();
  };

  try {
    await ready;
  } catch (error) {
    // A tap may still have come up late: take it down before giving up on this engagement.
    releasing = Promise.resolve();
    if (channel) await stopSession(channel, 500);
    throw error;
  }
  const engagedChannel: TapChannel = channel!;
  engaged = true;
  timers.heartbeat = setInterval(() => engagedChannel.send({ type: 'heartbeat', id: engagedChannel.id }), options.heartbeatEveryMs);
  timers.heartbeat.unref(); // a forgotten release must not keep the process alive (the worker times out on its own)

  return {
    oursSeen: () => shared.oursSeen,
    get holding(): boolean {
      return engaged && !releasing && !lostReported && !sessionDone;
    },
    release(): Promise<void> {
      releasing ??= (async () => {
        clearInterval(timers.heartbeat);
        try {
          await stopSession(engagedChannel, options.releaseAckMs);
        } catch (error) {
          console.error('[tandem] releasing the guard:', error);
        }
      })();
      return releasing;
    },
  };
}
