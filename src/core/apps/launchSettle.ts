// How long a freshly started app must be left alone before its window counts as drawn. An app
// that starts builds its window in bursts with pauses between them that an action's settle
// (45 ms of quiet) takes for the end: LibreOffice Writer, quiet for 46 ms, still had its style
// and font boxes empty and "2 pt" as the size, and went on sending events for a second after.

import { settle, type SettleOptions } from '../call/settle.js';
import type { Desktop, SnapshotLimits } from '../desktop.js';
import type { TreeSnapshot } from '../model.js';
import type { Progress } from '../progress.js';

/** Quiet, of the tree and of the window's painting, that ends a launch's settle. */
export const LAUNCH_QUIET_MS = 300;

/** The settle options of a launch: `capMs` at most, and LAUNCH_QUIET_MS of quiet at least. */
export function launchSettleOptions(options: SettleOptions, capMs: number): SettleOptions {
  return {
    ...options,
    capMs,
    quietMs: Math.max(options.quietMs, LAUNCH_QUIET_MS),
    paintQuietMs: Math.max(options.paintQuietMs, LAUNCH_QUIET_MS),
  };
}

/** Limits of the one read that looks for busy indicators while a new window keeps painting. */
const BUSY_READ_LIMITS: SnapshotLimits = { maxDepth: 64, maxElements: 10_000, maxMs: 1_000 };

/**
 * Waits until the new window of pid is drawn (launchSettleOptions), within capMs; a busy indicator
 * it shows from the start (gtk3-widget-factory pulses a progress bar) is read and not waited for.
 * false when the bound ran out first.
 */
export async function settleLaunched(desktop: Desktop, pid: number, options: SettleOptions, capMs: number, progress: Progress): Promise<boolean> {
  const readTree = (): Promise<TreeSnapshot> => desktop.snapshot(pid, BUSY_READ_LIMITS, progress);
  return (await settle(desktop, pid, launchSettleOptions(options, capMs), progress, undefined, readTree)) !== 'cap';
}
