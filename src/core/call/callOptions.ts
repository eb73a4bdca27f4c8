// The options one call runs with: what the engine was built with (tests and benches pin some)
// over the settings as they are now, so that a set_config applies from the next call on.

import type { SnapshotLimits } from '../desktop.js';
import type { Settings } from '../settings.js';
import type { TransactionOptions } from './callState.js';
import { settleFromSettings, type SettleOptions } from './settle.js';
import type { DescribeSteps } from './stepsDone.js';

/** What the engine was built with that overrides or completes the settings (EngineOptions' part). */
export interface PinnedCallOptions {
  /** Fixes the watchdog whatever the settings say (tests; unbounded). The host uses the settings. */
  watchdogMs?: number;
  /** Fixes the late-Esc grace whatever the settings say (tests; unbounded). */
  graceMs?: number;
  /** Settle policy after the steps (see DEFAULT_SETTLE). */
  settle?: Partial<SettleOptions>;
  /** Traversal caps (defaults: depth 64, 10 000 elements, 5 000 ms). */
  snapshotLimits?: Partial<SnapshotLimits>;
  /** Clock (tests). */
  now?: () => number;
  /** The words for the steps an acting call did, in its file and a late Esc's message: src/mcp/renderSteps.ts's. */
  describeSteps: DescribeSteps;
}

export function callOptions(settings: Settings, pinned: PinnedCallOptions, defaultLimits: SnapshotLimits): TransactionOptions {
  return {
    watchdogMs: pinned.watchdogMs ?? settings.watchdog_ms,
    graceMs: pinned.graceMs ?? settings.grace_ms,
    settle: { ...settleFromSettings(settings), ...pinned.settle },
    snapshotLimits: { ...defaultLimits, ...pinned.snapshotLimits },
    now: pinned.now ?? Date.now,
    describeSteps: pinned.describeSteps,
    backgroundDefault: settings.background_default,
    confirmBefore: settings.confirm_before,
  };
}
