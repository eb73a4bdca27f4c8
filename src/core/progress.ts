// A Progress travels with every operation that can hang: it carries the abort signal (Esc,
// watchdog, client disconnect) and a deadline, and collects log lines the live feed shows.
// Modelled on Playwright's server-side Progress: awaits that can hang take one.

import { TandemError } from './errors.js';

export interface Progress {
  readonly signal: AbortSignal;
  /** Epoch milliseconds after which the operation must give up. */
  readonly deadline: number;
  log(message: string): void;
  /**
   * Long input (typing) reports how far it got: `done` of `total` units have been taken in by
   * the app. Optional: callers that do not show progress leave it out.
   */
  reportInput?(done: number, total: number): void;
  /**
   * The input is a secret (typed into a password field): nothing may tell how much of it there
   * is — no progress report, no count in a log line or an error.
   */
  readonly secretInput?: boolean;
}

export function createProgress(options: {
  signal?: AbortSignal;
  timeoutMs: number;
  log?: (message: string) => void;
  reportInput?: (done: number, total: number) => void;
  now?: () => number;
}): Progress {
  const now = options.now ?? Date.now;
  return {
    signal: options.signal ?? new AbortController().signal,
    deadline: now() + options.timeoutMs,
    log: options.log ?? (() => {}),
    ...(options.reportInput ? { reportInput: options.reportInput } : {}),
  };
}

/** A child progress with a tighter deadline (never looser than the parent's). */
export function withTimeout(parent: Progress, timeoutMs: number, now: () => number = Date.now): Progress {
  return { ...parent, deadline: Math.min(parent.deadline, now() + timeoutMs) };
}

export function remainingMs(progress: Progress, now: () => number = Date.now): number {
  return Math.max(0, progress.deadline - now());
}

/** Throws the abort reason (a TandemError when core aborted it) if the signal fired. */
export function throwIfAborted(progress: Progress): void {
  if (!progress.signal.aborted) return;
  const reason: unknown = progress.signal.reason;
  if (reason instanceof Error) throw reason;
  throw new TandemError('cancelled', 'The action was cancelled.');
}

/** Resolves after `ms`, or rejects as soon as the progress is aborted. */
export function sleep(ms: number, progress?: Progress): Promise<void> {
  return new Promise((resolve, reject) => {
    if (progress?.signal.aborted) {
      try {
        throwIfAborted(progress);
      } catch (error) {
        reject(error);
      }
      return;
    }
    const timer = setTimeout(() => {
      progress?.signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      try {
        throwIfAborted(progress!);
      } catch (error) {
        reject(error);
      }
    };
    progress?.signal.addEventListener('abort', onAbort, { once: true });
  });
}
