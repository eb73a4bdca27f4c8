// A start that failed before the tray exists: a dialog says so (a menu-bar app has no window to
// show it in), with the reason, and the log gets the stack. Kept apart from the rest of main
// with nothing heavy imported, so it still works when a module of the app could not load.

import type { ElectronApi } from './electronApi.js';

/** How long to wait for Electron to be ready before showing the dialog anyway. */
const READY_WAIT_MS = 5_000;

export async function reportFatalStart(
  electron: { dialog: Pick<ElectronApi['dialog'], 'showErrorBox'>; app?: Pick<ElectronApi['app'], 'whenReady'> },
  error: Error,
  log: (message: string) => void = (message) => console.error(message),
): Promise<void> {
  log(`[tandem] could not start: ${error.stack ?? error.message}`);
  // Before Electron is ready, Linux prints the dialog's text to stderr instead of showing it.
  if (electron.app) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([electron.app.whenReady().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, READY_WAIT_MS)))]);
    clearTimeout(timer);
  }
  try {
    electron.dialog.showErrorBox('Tandem could not start', `${error.message}\n\nRun \`tandem doctor\` in a terminal for what to fix, then open Tandem again.`);
  } catch (dialogError) {
    log(`[tandem] could not show the error dialog: ${(dialogError as Error).message}`);
  }
}
