// The Electron app's main process, started over the fake Electron API, the real Engine on the
// scripted desktop and the real socket host in a temporary folder.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServeHost } from '../../../src/launcher/commands/serve.js';
import type { SocketHost } from '../../../src/launcher/socket/host.js';
import { startTandemApp, type TandemApp } from '../../../src/main/tandemApp.js';
import type { EngineOptions } from '../../../src/core/engine.js';
import { counterDesktop, engineFixture, type EngineFixture } from '../../support/engineFixtures.js';
import type { ScriptedDesktop } from '../../support/scriptedDesktop.js';
import { createFakeElectron, FakeBrowserWindow, type FakeElectron, type FakeTray } from './fakeElectron.js';

export const LAUNCHER = { command: '/opt/Tandem/resources/bin/tandem', args: ['mcp'] };

export interface AppFixture {
  app: TandemApp;
  electron: FakeElectron;
  fixture: EngineFixture;
  tray: FakeTray;
  socketDir: string;
  logs: string[];
  host(): SocketHost | undefined;
  engineCreated(): number;
  /** What the app asked of each engine it made (whether the engine draws the overlay itself). */
  engineRequests(): Array<{ serverOverlay: boolean }>;
  /** Windows showing a view (`overlay`, `feed`, `onboarding`). */
  windowsOf(view: string): FakeBrowserWindow[];
  cleanup(): Promise<void>;
}

export async function startApp(
  options: {
    displays?: FakeElectron['fake']['displays'];
    desktop?: ScriptedDesktop;
    platform?: NodeJS.Platform;
    engineOptions?: Partial<EngineOptions>;
    beforeStart?(electron: FakeElectron): void;
    launcher?: typeof LAUNCHER;
    trayShown?: () => Promise<boolean>;
    stuckThread?: () => string | null;
    endWithoutJoining?: () => void;
  } = {},
): Promise<AppFixture> {
  const electron = createFakeElectron({ displays: options.displays });
  options.beforeStart?.(electron);
  const fixture = await engineFixture(options.desktop ?? counterDesktop(), options.engineOptions);
  const base = await mkdtemp(join(tmpdir(), 'tandem-app-test-'));
  const socketDir = join(base, 'run');
  const logs: string[] = [];
  let host: SocketHost | undefined;
  let created = 0;
  const engineRequests: Array<{ serverOverlay: boolean }> = [];
  const app = await startTandemApp({
    electron,
    platform: options.platform ?? 'linux',
    createEngine: async (engineOptions) => {
      created++;
      engineRequests.push(engineOptions);
      return fixture.engine;
    },
    startHost: async (engine) => {
      host = await startServeHost(engine, { TANDEM_SOCKET_DIR: socketDir });
      return host;
    },
    paths: { preload: '/app/dist/preload/preload.cjs', html: '/app/dist/renderer/index.html', trayIcon: '/app/assets/tray.png' },
    launcher: options.launcher ?? LAUNCHER,
    trayShown: options.trayShown,
    stuckThread: options.stuckThread ?? (() => null),
    endWithoutJoining: options.endWithoutJoining,
    artifactsDirectory: fixture.artifactsDir,
    log: (message) => logs.push(message),
  });
  if (!app) throw new Error('the app did not start');
  return {
    app,
    electron,
    fixture,
    tray: electron.fake.trays[0],
    socketDir,
    logs,
    host: () => host,
    engineCreated: () => created,
    engineRequests: () => engineRequests,
    windowsOf: (view) => FakeBrowserWindow.all.filter((window) => window.loaded?.query?.view === view && !window.isDestroyed()),
    async cleanup() {
      await app.shutdown();
      await fixture.cleanup();
      await rm(base, { recursive: true, force: true });
      await rm(electron.fake.userData, { recursive: true, force: true });
    },
  };
}
