// The input guard on macOS: a session-level active CGEventTap living in its own worker thread
// (cgEventTapWorker.ts). Tandem's own events carry a marker and pass; the person's keys, clicks,
// moves and scrolls are swallowed; plain Esc cancels. Three things release it: release(), the
// worker's own watchdog (heartbeat lost or lifetime cap — it does not depend on this thread
// being responsive), and the process dying (a tap dies with its process).

import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { EngagedGuard, GuardListener } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import { type Progress, remainingMs } from '../../core/progress.js';
import { ACCESSIBILITY_REMEDY } from './axErrors.js';
import { TANDEM_EVENT_MARKER } from './cgEventTapPolicy.js';
import type { TapMessage } from './cgEventTapSession.js';

export interface TapGuardOptions {
  /** The worker releases the tap when the main thread sent no heartbeat for this long. */
  heartbeatTimeoutMs: number;
  /** Absolute cap on one engagement (core's watchdog is 30 s by default; this is the backstop). */
  maxLifetimeMs: number;
  heartbeatEveryMs: number;
  startTimeoutMs: number;
}

export const DEFAULT_TAP_GUARD_OPTIONS: TapGuardOptions = {
  heartbeatTimeoutMs: 10_000,
  maxLifetimeMs: 120_000,
  heartbeatEveryMs: 500,
  startTimeoutMs: 5_000,
};

/**
 * The worker file next to this one: the compiled .js in every build; when running from sources
 * under tsx (development, unit tests) a tiny bootstrap registers tsx in the worker first.
 */
function spawnWorker(workerData: Record<string, unknown>): Worker {
  if (!fileURLToPath(import.meta.url).endsWith('.ts')) return new Worker(new URL('./cgEventTapWorker.js', import.meta.url), { workerData });
  const source = new URL('./cgEventTapWorker.ts', import.meta.url).href;
  return new Worker(`import('tsx/esm/api').then((tsx) => tsx.register()).then(() => import(${JSON.stringify(source)}))`, { eval: true, workerData });
}

export async function engageTapGuard(listener: GuardListener, progress: Progress, options: TapGuardOptions = DEFAULT_TAP_GUARD_OPTIONS): Promise<EngagedGuard> {
  const worker = spawnWorker({ marker: TANDEM_EVENT_MARKER.toString(), heartbeatTimeoutMs: options.heartbeatTimeoutMs, maxLifetimeMs: options.maxLifetimeMs });
  let released = false;
  const timers: { heartbeat?: NodeJS.Timeout } = {};
  let onReleased: (() => void) | undefined;

  const safely = (call: () => void): void => {
    try {
      call();
    } catch (error) {
      console.error('[tandem] guard listener threw:', error);
    }
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
              ? new TandemError('permission', `The input guard could not start: ${message.reason} To fix it, ${ACCESSIBILITY_REMEDY}.`)
              : new TandemError('unsupported', `The input guard could not start: ${message.reason}`),
          );
          break;
        case 'escape':
          safely(() => listener.onEscape());
          break;
        case 'human':
          safely(() => listener.onHumanInput(message.kind));
          break;
        case 'reenabled':
          console.error(`[tandem] macOS disabled the guard's event tap (${message.cause}); it was re-enabled`);
          break;
        case 'released':
          released = true;
          if (message.reason !== 'release') console.error(`[tandem] the guard released itself (${message.reason})`);
          onReleased?.();
          break;
      }
    });
    worker.on('error', (error) => {
      clearTimeout(timer);
      reject(new TandemError('internal', `The input guard thread failed: ${error.message}`));
    });
    worker.on('exit', () => {
      clearTimeout(timer);
      released = true;
      clearInterval(timers.heartbeat);
      onReleased?.();
      reject(new TandemError('internal', 'The input guard thread exited before it was ready.'));
    });
  });

  try {
    await ready;
  } catch (error) {
    // A tap may still have come up late: ask the worker to tear it down before terminating it
    // (a terminated worker leaves its tap unserviced until macOS disables it on timeout).
    worker.postMessage({ type: 'release' });
    await Promise.race([new Promise((resolve) => worker.once('exit', resolve)), new Promise((resolve) => setTimeout(resolve, 500))]);
    await worker.terminate();
    throw error;
  }
  timers.heartbeat = setInterval(() => worker.postMessage({ type: 'heartbeat' }), options.heartbeatEveryMs);
  timers.heartbeat.unref(); // a forgotten release must not keep the process alive (the worker times out on its own)

  let releasing: Promise<void> | null = null;
  return {
    release(): Promise<void> {
      releasing ??= (async () => {
        clearInterval(timers.heartbeat);
        try {
          if (!released) {
            const acknowledged = new Promise<void>((resolve) => {
              onReleased = resolve;
              setTimeout(resolve, 1000); // the worker answers within one 50 ms slice; never hang here
            });
            worker.postMessage({ type: 'release' });
            await acknowledged;
          }
        } catch (error) {
          console.error('[tandem] releasing the guard:', error);
        } finally {
          await worker.terminate().catch(() => undefined);
        }
      })();
      return releasing;
    },
  };
}
