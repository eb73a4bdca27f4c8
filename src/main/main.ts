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
import { startTandemApp } from './tandemApp.js';

const api: ElectronApi = electron;
const fromHere = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
const env = process.env;

startTandemApp({
  electron: api,
  platform: process.platform,
  // The renderer draws the overlay: the server must not draw a second one.
  createEngine: () => createEngineFromEnv(env, { serverOverlay: false }),
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
  // Nothing to show the person yet (no tray): log and exit so a relaunch can try again.
  console.error(`[tandem] could not start: ${error.stack ?? error.message}`);
  api.app.exit(1);
});
