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
    return new MacDesktop(await loadMacNative());
  } catch (error) {
    throw new TandemError('internal', `Loading the macOS bindings failed: ${error instanceof Error ? error.message : String(error)}. Reinstall Tandem; a packaged app must keep koffi's .node files outside the asar.`);
  }
}
