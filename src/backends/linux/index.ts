// The Linux (X11) backend's entry point, loaded lazily by src/backends/index.ts on Linux only.
import type { Desktop } from '../../core/desktop.js';
import type { BackendOptions } from '../index.js';
import { AtspiAccessibility } from './atspiAccessibility.js';
import { LinuxDesktop } from './linuxDesktop.js';
import { X11Display } from './x11Display.js';
import { createProgress } from '../../core/progress.js';

const WINDOW_LOOKUP_TIMEOUT_MS = 2_000;

/**
 * Opens the X display first (AT-SPI needs it for GTK 4's window-relative coordinates), then the
 * accessibility bus. If the second fails, the first is closed again so nothing leaks.
 */
export async function createLinuxDesktop(options: BackendOptions): Promise<Desktop> {
  const x11 = await X11Display.open({ display: options.display, overlayPulse: options.overlayPulse });
  try {
    const env = options.display ? { ...process.env, DISPLAY: options.display } : process.env;
    const atspi = await AtspiAccessibility.connect({
      env,
      windowOrigin: (pid, title) => x11.windowOrigin(pid, title),
      windowTitles: async (pid) => (await x11.windows(pid, createProgress({ timeoutMs: WINDOW_LOOKUP_TIMEOUT_MS }))).map((window) => window.title),
      switchAccessibilityOn: options.switchAccessibilityOn ?? false,
    });
    return new LinuxDesktop(x11, atspi);
  } catch (error) {
    await x11.close().catch(() => {});
    throw error;
  }
}
