// Settle: wait until the target app has stopped changing before the tree is read again.

import type { Desktop, SettleOutcome } from './desktop.js';
import { sleep, type Progress } from './progress.js';

export interface SettleOptions {
  /** The UI counts as settled after this long without accessibility events. Default 150 ms. */
  quietMs: number;
  /** Never wait longer than this. Default 1 500 ms. */
  capMs: number;
  /** Fixed wait when the backend cannot observe events ('unsupported'). Default 300 ms. */
  fallbackMs: number;
}

export const DEFAULT_SETTLE: SettleOptions = { quietMs: 150, capMs: 1_500, fallbackMs: 300 };

export async function settle(desktop: Desktop, pid: number, options: SettleOptions, progress: Progress): Promise<SettleOutcome> {
  const outcome = await desktop.waitForQuiet(pid, options.quietMs, options.capMs, progress);
  if (outcome === 'cap') progress.log(`the app was still changing after ${options.capMs} ms; reading its tree anyway`);
  // Without accessibility events there is nothing to observe: give the app a fixed moment.
  if (outcome === 'unsupported') await sleep(options.fallbackMs, progress);
  return outcome;
}
