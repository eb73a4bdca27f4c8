// Electron entry point (package.json "main"): the only module that imports 'electron' for real.
// Everything else receives the API through startTandemApp() so it is testable without the
// Electron binary. The rest of the app is imported here, at start, rather than at the top: a
// module that cannot load (a native package built for another machine, a file missing from the
// package) then ends in the fatal-start dialog instead of a silent exit.

import * as electron from 'electron';
import { fileURLToPath } from 'node:url';
import type { ElectronApi } from './electronApi.js';
import { reportFatalStart } from './fatalStart.js';

const api: ElectronApi = electron;
const fromHere = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
const env = process.env;

async function start(): Promise<void> {
  const [{ defaultArtifactsDir }, { createEngineFromEnv }, { startServeHost }, { launcherInvocation }, { startTandemApp }] = await Promise.all([
    import('../core/artifacts/artifacts.js'),
    import('../launcher/engineFromEnv.js'),
    import('../launcher/commands/serve.js'),
    import('./launcherInvocation.js'),
    import('./tandemApp.js'),
  ]);
  await startTandemApp({
    electron: api,
    platform: process.platform,
    // The app decides who draws the overlay (one, never two): see startTandemApp.
    createEngine: (options) => createEngineFromEnv(env, options),
    // The very host `tandem serve` runs: per-user 0700 folder, 0600 socket, peer-uid check.
    startHost: (engine) => startServeHost(engine, env),
    paths: {
      // dist/src/main/main.js → dist/preload, dist/renderer, assets/ (inside app.asar when packaged).
      preload: fromHere('../../preload/preload.cjs'),
      html: fromHere('../../renderer/index.html'),
      trayIcon: fromHere(process.platform === 'darwin' ? '../../../assets/trayTemplate.png' : '../../../assets/tray.png'),
    },
    // Linux: Electron's Tray is a StatusNotifierItem, invisible where nothing hosts those.
    trayShown:
      process.platform === 'linux'
        ? async () => (await import('../../native/linux/statusNotifierHost.js').then(({ statusNotifierHostState }) => statusNotifierHostState(env))) === 'hosted'
        : undefined,
    launcher: launcherInvocation({
      packaged: api.app.isPackaged,
      resourcesPath: process.resourcesPath,
      cliPath: fromHere('../launcher/cli.js'),
      platform: process.platform,
      env,
      appBinary: process.execPath,
    }),
    artifactsDirectory: env.TANDEM_ARTIFACTS_DIR ?? defaultArtifactsDir(env, process.getuid?.() ?? 0),
  });
}

start().catch(async (error: Error) => {
  // No tray yet: without a dialog a failed start would be silent (a menu-bar app has no window).
  await reportFatalStart(api, error);
  api.app.exit(1);
});
