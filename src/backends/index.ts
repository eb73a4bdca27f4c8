// The one place that picks a backend for this OS. Everything else (launcher, Electron main)
// imports this file only, never a backend folder, so a backend's native bindings load lazily
// and only on its own platform.

import type { Desktop } from '../core/desktop.js';
import { TandemError } from '../core/errors.js';

// Whether a backend left a thread stuck, and the exit that cannot hang on it.
export { endProcess, stuckThread } from './stuckThreads.js';

export interface BackendOptions {
  /** X display for the Linux backend; defaults to $DISPLAY. */
  display?: string;
  /** Pulse the server-drawn overlay's frame (X11). Default: as the desktop's reduced-motion setting says. */
  overlayPulse?: boolean;
  /**
   * Turn the desktop's accessibility switch on while the backend lives and put it back as found
   * when it closes (Linux: org.a11y.Status IsEnabled). Default false: `tandem doctor` only looks.
   */
  switchAccessibilityOn?: boolean;
}

export async function createDesktop(options: BackendOptions = {}): Promise<Desktop> {
  switch (process.platform) {
    case 'linux': {
      const { createLinuxDesktop } = await import('./linux/index.js');
      return createLinuxDesktop(options);
    }
    case 'darwin': {
      const { createMacDesktop } = await import('./macos/index.js');
      return createMacDesktop();
    }
    default:
      throw new TandemError('unsupported', `Tandem has no backend for ${process.platform}: it runs on macOS and on Linux (X11).`);
  }
}
