// Cleanup on abort, as Playwright's progress.cleanupWhenAborted: whatever a call takes from the
// person (their cursor, their frontmost app) registers its undoing where it is taken, and the
// call's lifecycle runs what was registered once the action is over — after success, an error
// or a cancel alike — rather than each exit path remembering it by hand.

import { TandemError, toTandemError } from '../errors.js';
import type { Progress } from '../progress.js';

/** Longest any restore/cleanup primitive may take once the action itself is over. */
export const CLEANUP_TIMEOUT_MS = 5_000;

/** Races cleanup work against a timer, so a wedged backend cannot hold the result back. */
export function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TandemError('timeout', `${what} did not finish within ${ms} ms`)), ms);
    }),
  ]);
}

interface Cleanup {
  what: string;
  run: (progress: Progress) => void | Promise<void>;
  timeoutMs: number;
}

export class CleanupRegistry {
  private readonly entries: Cleanup[] = [];

  /**
   * Registers `run` (named `what` in the log if it fails). It is given at most `timeoutMs`:
   * a wedged backend must not hold the answer back. Returns a function that unregisters it, for
   * what was given back on the way already.
   */
  add(what: string, run: (progress: Progress) => void | Promise<void>, timeoutMs = CLEANUP_TIMEOUT_MS): () => void {
    const entry: Cleanup = { what, run, timeoutMs };
    this.entries.push(entry);
    return () => {
      const at = this.entries.indexOf(entry);
      if (at >= 0) this.entries.splice(at, 1);
    };
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * Runs every registered cleanup once, newest first (what was taken last is given back first),
   * each bounded by its own timeout; a failing one is logged and the others still run.
   */
  async runAll(progress: Progress): Promise<void> {
    const entries = this.entries.splice(0).reverse();
    for (const { what, run, timeoutMs } of entries) {
      try {
        await bounded(Promise.resolve().then(() => run(progress)), timeoutMs, what);
      } catch (error) {
        progress.log(`could not ${what}: ${toTandemError(error).message}`);
      }
    }
  }
}
