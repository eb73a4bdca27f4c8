// Electron entry point (package.json "main"): the only module that imports 'electron' for real.
// Everything else receives the API through startTandemApp() so it is testable without the
// Electron binary.

import * as electron from 'electron';
import { fileURLToPath } from 'node:url';
import { defaultArtifactsDir } from '../core/artifacts.js';
import { createEngineFromEnv } from '../launcher/engineFromEnv.js';
import { startServeHost } from '../launcher/commands/serve.js';
import type { ElectronApi } from './electronApi.js';
import { launcherInvocation } from './launcherInvocation.js';
import { reportFatalStart, startTandemApp } from './tandemApp.js';

const api: ElectronApi = electron;
const fromHere = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
const env = process.env;

startTandemApp({
  electron: api,
  platform: process.platform,
  // One overlay: on macOS the renderer draws it; on Linux the engine draws it on the X server
  // (Electron's transparent windows need a compositor many X11 desktops lack).
  createEngine: () => createEngineFromEnv(env, { serverOverlay: process.platform === 'linux' }),
  // The very host `tandem serve` runs: per-user 0700 folder, 0600 socket, peer-uid check.
  startHost: (engine) => startServeHost(engine, env),
  paths: {
    // dist/src/main/main.js → dist/preload, dist/renderer, assets/ (inside app.asar when packaged).
    preload: fromHere('../../preload/preload.cjs'),
    html: fromHere('../../renderer/index.html'),
    trayIcon: fromHere(process.platform === 'darwin' ? '../../../assets/trayTemplate.png' : '../../../assets/tray.png'),
  },
  launcher: launcherInvocation({
    packaged: api.app.isPackaged,
    resourcesPath: process.resourcesPath,
    cliPath: fromHere('../launcher/cli.js'),
    platform: process.platform,
    env,
    appBinary: process.execPath,
  }),
  artifactsDirectory: env.TANDEM_ARTIFACTS_DIR ?? defaultArtifactsDir(env, process.getuid?.() ?? 0),
}).catch((error: Error) => {
  // No tray yet: without a dialog a failed start would be silent (a menu-bar app has no window).
  reportFatalStart(api, error);
  api.app.exit(1);
});
