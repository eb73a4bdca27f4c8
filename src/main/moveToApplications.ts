// macOS: an app opened from its disk image or from a download macOS translocated runs from a
// temporary path, and the MCP client configs the app hands out would point into it (the
// launcher is Tandem.app/Contents/Resources/bin/tandem). So, on start, the app offers to move
// itself to /Applications; after the move Electron relaunches it from there, and the configs
// are built from that final path. A "not now" is remembered, and configs built while the app
// still runs from a temporary place say so.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ElectronApi } from './electronApi.js';

const DECLINED_MARKER = 'move-to-applications-declined';

/** A path macOS throws away: a mounted disk image, or App Translocation's read-only copy. */
export function isTemporaryAppLocation(path: string): boolean {
  return path.startsWith('/Volumes/') || path.includes('/AppTranslocation/');
}

export type MoveOutcome = 'not-needed' | 'declined' | 'moved' | 'failed';

/**
 * Asks once (and again only while the app runs from a temporary place, where a "not now" would
 * leave configs pointing at a path that disappears) and moves. 'moved' means Electron is quitting
 * to relaunch from /Applications: start nothing.
 */
export function offerMoveToApplications(electron: ElectronApi, appPath: string, log: (message: string) => void): MoveOutcome {
  const { app } = electron;
  if (!app.isPackaged || !app.isInApplicationsFolder || !app.moveToApplicationsFolder) return 'not-needed';
  if (app.isInApplicationsFolder()) return 'not-needed';
  const temporary = isTemporaryAppLocation(appPath);
  const marker = join(app.getPath('userData'), DECLINED_MARKER);
  if (!temporary && existsSync(marker)) return 'declined';
  // A menu-bar app (LSUIElement) is not made active by its launch: without this the question may
  // open behind the Finder window the person launched it from, and the start waits on it unseen.
  app.focus({ steal: true });
  const answer = electron.dialog.showMessageBoxSync({
    type: 'question',
    buttons: ['Move to Applications', 'Not Now'],
    defaultId: 0,
    cancelId: 1,
    message: 'Move Tandem to your Applications folder?',
    detail: temporary
      ? 'Tandem is running from the disk image or a temporary copy macOS made of the download. AI clients start Tandem by its path, and this one will be gone: move it to Applications first.'
      : 'AI clients start Tandem by its path. Keep it in Applications so that path stays put.',
  });
  if (answer !== 0) {
    mkdirSync(dirname(marker), { recursive: true, mode: 0o700 });
    writeFileSync(marker, `${new Date().toISOString()}\n`, { mode: 0o600 });
    log(`stays at ${appPath} (the move to Applications was declined)`);
    return 'declined';
  }
  try {
    // True: the copy is in place and Electron relaunches it from there.
    return app.moveToApplicationsFolder() ? 'moved' : 'declined';
  } catch (error) {
    log(`move to Applications failed: ${(error as Error).message}`);
    electron.dialog.showErrorBox('Tandem could not move itself', `${(error as Error).message}\n\nDrag Tandem.app to your Applications folder, then open it from there.`);
    return 'failed';
  }
}
