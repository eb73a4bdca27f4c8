// How long a freshly started app must be left alone before its window counts as drawn. An app
// that starts builds its window in bursts with pauses between them that an action's settle
// (45 ms of quiet) takes for the end: LibreOffice Writer, quiet for 46 ms, still had its style
// and font boxes empty and "2 pt" as the size, and went on sending events for a second after.

import type { SettleOptions } from '../call/settle.js';

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
