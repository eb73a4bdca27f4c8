// Entry of the macOS backend (chosen by src/backends/index.ts). Importing this file loads no
// native library: the bindings open only inside createMacDesktop, and only on darwin.

import type { Desktop } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';

export async function createMacDesktop(): Promise<Desktop> {
  if (process.platform !== 'darwin') {
    throw new TandemError('unsupported', `The macOS backend runs on macOS only (this is ${process.platform}).`);
  }
  const [{ loadMacNative }, { MacDesktop }] = await Promise.all([import('../../../native/macos/loadMacNative.js'), import('./macDesktop.js')]);
  try {
    const { DEFAULT_TAP_GUARD_OPTIONS } = await import('./cgEventTapGuard.js');
    const maxLifetimeMs = guardLifetimeFromEnv(process.env.TANDEM_MAC_GUARD_LIFETIME_MS) ?? DEFAULT_TAP_GUARD_OPTIONS.maxLifetimeMs;
    return new MacDesktop(await loadMacNative(), { tapGuard: { ...DEFAULT_TAP_GUARD_OPTIONS, maxLifetimeMs } });
  } catch (error) {
    throw new TandemError('internal', `Loading the macOS bindings failed: ${error instanceof Error ? error.message : String(error)}. Reinstall Tandem; a packaged app must keep koffi's .node files outside the asar.`);
  }
}

/**
 * TANDEM_MAC_GUARD_LIFETIME_MS: the guard thread's own cap on one engagement (default 120 s, the
 * backstop behind core's watchdog). A diagnostic setting: the macOS e2e suite lowers it to make
 * the thread release the tap in the middle of a call, the path that must end in guard-lost.
 * Whole milliseconds from 1,000 to 120,000; anything else is ignored.
 */
export function guardLifetimeFromEnv(value: string | undefined): number | null {
  if (value === undefined || !/^\d+$/.test(value.trim())) return null;
  const ms = Number(value);
  return ms >= 1_000 && ms <= 120_000 ? ms : null;
}
