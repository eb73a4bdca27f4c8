// The app's composition root: single-instance lock, engine, socket host, tray, overlay, windows
// and IPC, wired together over an injected Electron API (main.ts passes the real module, the
// tests a fake). Nothing here imports 'electron'.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { TandemEngine } from '../core/engineApi.js';
import { endProcess, stuckThread } from '../backends/index.js';
import type { ElectronApi, TrayLike } from './electronApi.js';
import { mcpClientConfigs, type LauncherInvocation } from '../shared/mcpClientConfig.js';
import type { ArtifactTarget } from '../shared/ipc.js';
import type { McpClientConfig } from '../shared/types.js';
import { appStateView } from './appStatus.js';
import { FeedStore } from './feedStore.js';
import { registerIpc } from './ipcRouter.js';
import { saveResumeStep, takeResumeStep } from './onboardingResume.js';
import { runTestRefresh } from './onboardingTest.js';
import { OverlayController } from './overlayController.js';
import { Permissions } from './permissions.js';
import { trayMenuTemplate } from './trayMenu.js';
import { AppWindows, OwnedWindows, rendererPage } from './windows.js';
import { isTemporaryAppLocation, offerMoveToApplications } from './moveToApplications.js';

export interface TandemAppDeps {
  electron: ElectronApi;
  platform: NodeJS.Platform;
  /**
   * Makes the engine. `serverOverlay`: the engine draws the guard overlay itself (X11) — asked
   * for on Linux, where the renderer's overlay is not used; never with the renderer's (one overlay).
   */
  createEngine(options: { serverOverlay: boolean }): Promise<TandemEngine>;
  /** Starts the MCP socket host over the engine (src/launcher/socket/host.ts). */
  startHost(engine: TandemEngine): Promise<{ path: string; close(): Promise<void> }>;
  paths: { preload: string; html: string; trayIcon: string };
  launcher: LauncherInvocation;
  /**
   * Whether the desktop shows tray icons (Linux: a StatusNotifier host on the session bus);
   * without one the app keeps its feed window open instead of running invisibly. Default: yes.
   */
  trayShown?: () => Promise<boolean>;
  /** The engine's artifacts folder. */
  artifactsDirectory: string;
  log?: (message: string) => void;
  /**
   * Why quitting normally could hang (a backend left a thread stuck: Node's exit joins worker
   * threads), or null; and the end that cannot hang. Default: src/backends/stuckThreads.ts.
   */
  stuckThread?: () => string | null;
  endWithoutJoining?: () => void;
}

export interface TandemApp {
  engine: TandemEngine;
  overlay: OverlayController;
  feed: FeedStore;
  windows: AppWindows;
  tray: TrayLike;
  /** Rebuilds the tray menu from the current state (called on every engine event). */
  refreshTray(): void;
  shutdown(): Promise<void>;
}

const ONBOARDED_MARKER = 'onboarded';
const TEMPORARY_LOCATION_WARNING =
  'Tandem is running from its disk image or a temporary copy: move Tandem.app to /Applications, open it from there and copy this again, or the path below will stop working.';

export async function startTandemApp(deps: TandemAppDeps): Promise<TandemApp | null> {
  const { electron, platform } = deps;
  const log = deps.log ?? ((message: string) => console.error(`[tandem] ${message}`));

  if (!electron.app.requestSingleInstanceLock()) {
    log('another Tandem is already running: quitting this one');
    electron.app.quit();
    return null;
  }
  await electron.app.whenReady();
  // Before anything starts: a moved app quits here and Electron relaunches it from /Applications.
  if (platform === 'darwin' && offerMoveToApplications(electron, deps.launcher.command, log) === 'moved') return null;
  // Where no tray icon can be shown, the feed window is the app's only face: it stays open, and
  // closing it quits (an MCP client's launcher starts the app again when it needs it). Asked
  // before the host starts: from its socket on, the app is complete with no await in between.
  const trayShown = deps.trayShown ? await deps.trayShown().catch(() => false) : true;
  // Menu-bar app: no Dock icon (LSUIElement is also set in Info.plist by electron-builder).
  electron.app.dock?.hide();

  // One overlay, whoever draws it: on Linux the engine draws it on the X server (Electron's
  // transparent windows turn the screen black without a compositor, and many X11 desktops have
  // none); elsewhere the renderer does.
  const serverOverlay = platform === 'linux';
  const engine = await deps.createEngine({ serverOverlay });
  const host = await deps.startHost(engine);
  const owned = new OwnedWindows();
  const page = rendererPage({ preload: deps.paths.preload, html: deps.paths.html }, owned);
  const windows = new AppWindows(electron, page, log);
  const overlay = new OverlayController({ electron, page, log, platform });
  if (!serverOverlay) {
    overlay.attach(engine);
    overlay.prepare();
  }
  // Set when the previous instance relaunched itself from the wizard: reopen it at that step.
  let resumeStep = takeResumeStep(electron.app.getPath('userData'));
  const feed = new FeedStore(engine);
  const permissions = new Permissions(electron, engine, platform);
  const version = electron.app.getVersion();
  // Still in a temporary place (the move was declined): the path in the configs will vanish.
  const temporaryLocation = platform === 'darwin' && isTemporaryAppLocation(deps.launcher.command);
  const configs = (): McpClientConfig[] =>
    mcpClientConfigs(deps.launcher, appStateView(engine, platform, version).platform).map((config) =>
      temporaryLocation ? { ...config, where: `${TEMPORARY_LOCATION_WARNING} ${config.where}` } : config,
    );
  const state = (finishedCallId?: number) => appStateView(engine, platform, version, finishedCallId);

  const copyConfig = (client: McpClientConfig['client']): void => {
    const config = configs().find((item) => item.client === client);
    if (config) electron.clipboard.writeText(config.text);
  };

  const tray = new electron.Tray(electron.nativeImage.createFromPath(deps.paths.trayIcon));
  let shuttingDown: Promise<void> | undefined;
  const refreshTray = (finishedCallId?: number): void => {
    if (shuttingDown) return;
    const view = state(finishedCallId);
    tray.setToolTip(`Tandem — ${view.status}`);
    tray.setContextMenu(
      electron.Menu.buildFromTemplate(
        trayMenuTemplate(view, configs(), {
          setPaused: (paused) => setPaused(paused),
          showFeed: () => windows.show('feed'),
          showPermissions: () => windows.show('onboarding'),
          copyMcpConfig: copyConfig,
          openArtifactsFolder: () => void electron.shell.openPath(deps.artifactsDirectory),
          quit: () => void quit(),
        }),
      ),
    );
    windows.broadcast('app:state', view);
  };

  // Pausing has no engine event: the app is its only caller, and refreshes the tray itself.
  const setPaused = (paused: boolean): void => {
    engine.setPaused(paused);
    refreshTray();
  };
  // A second launch shows the feed — but never while an action runs or the guard still holds
  // the input (its late-Esc grace period outlives the answer): taking the focus then would send
  // the agent's keys into our window. It is shown as soon as the desktop is the person's again.
  let guardHeld = false;
  let feedWanted = false;
  const showFeedWhenIdle = (): void => {
    if (!feedWanted || guardHeld || engine.current) return;
    feedWanted = false;
    windows.show('feed');
  };
  const stopFollowing = [
    engine.on('call-started', () => refreshTray()),
    // The app is known once the guard engages (the engine resolves the target first).
    engine.on('guard-engaged', () => {
      guardHeld = true;
      refreshTray();
    }),
    engine.on('guard-released', () => {
      guardHeld = false;
      // After the engine's own bookkeeping for this event (the call may be finishing).
      setImmediate(showFeedWhenIdle);
    }),
    engine.on('call-finished', (event) => {
      refreshTray(event.callId);
      setImmediate(showFeedWhenIdle);
    }),
    feed.onChange((card) => windows.broadcast('feed:call', card)),
  ];

  const artifactOf = (callId: number, target: ArtifactTarget): string | undefined => {
    const artifacts = feed.artifactsOf(callId);
    if (target === 'folder') return deps.artifactsDirectory;
    return target === 'file' ? artifacts?.file : artifacts?.screenshot;
  };

  const stopIpc = registerIpc(
    electron,
    owned,
    {
      'app:get-state': () => state(),
      'app:set-paused': ({ paused }) => {
        setPaused(paused);
        return state();
      },
      'permissions:check': () => permissions.check(),
      'permissions:request': ({ id }) => permissions.request(id),
      'permissions:copy-command': async ({ id }) => {
        const command = await permissions.commandOf(id);
        if (command) electron.clipboard.writeText(command);
      },
      'onboarding:test-refresh': () => runTestRefresh(engine, process.pid),
      'onboarding:finish': () => {
        markOnboarded(electron);
        windows.close('onboarding');
      },
      'app:relaunch': ({ resumeStep: step }) => {
        saveResumeStep(electron.app.getPath('userData'), step);
        electron.app.relaunch();
        // After this answer has gone back to the window; the engine is closed before the quit.
        setImmediate(() => void quit());
      },
      'onboarding:resume-step': () => {
        const step = resumeStep;
        resumeStep = null;
        return step;
      },
      'mcp-config:list': () => configs(),
      'mcp-config:copy': ({ client }) => copyConfig(client),
      'feed:list': () => feed.list(),
      'feed:screenshot': async ({ callId }) => screenshotThumbnail(feed.artifactsOf(callId)?.screenshot, log),
      'feed:open-artifact': async ({ callId, target }) => {
        const path = artifactOf(callId, target);
        if (!path) return;
        if (target === 'folder') await electron.shell.openPath(path);
        else electron.shell.showItemInFolder(path);
      },
    },
    log,
  );

  electron.app.on('second-instance', () => {
    feedWanted = true;
    if (guardHeld || engine.current) log('second launch during an action: the feed comes up once it is over');
    showFeedWhenIdle();
  });
  // A menu-bar app keeps running with no window open — as long as its menu bar icon is there.
  electron.app.on('window-all-closed', () => {
    if (trayShown || quitting) return;
    log('the feed window was closed and there is no tray icon: quitting');
    void quit();
  });

  async function shutdown(): Promise<void> {
    shuttingDown ??= (async () => {
      for (const stop of stopFollowing) stop();
      stopIpc();
      overlay.dispose();
      feed.dispose();
      tray.destroy();
      await host.close().catch((error: Error) => log(`host close: ${error.message}`));
      await engine.close().catch((error: Error) => log(`engine close: ${error.message}`));
    })();
    return shuttingDown;
  }

  let quitting = false;
  async function quit(): Promise<void> {
    quitting = true;
    await shutdown();
    const stuck = (deps.stuckThread ?? stuckThread)();
    if (stuck !== null) {
      // Electron's quit runs Node's exit, which would wait on the stuck thread for ever.
      log(`quitting with SIGKILL: ${stuck}`);
      (deps.endWithoutJoining ?? (() => endProcess(0)))();
      return;
    }
    electron.app.quit();
  }
  electron.app.on('before-quit', (event) => {
    if (quitting) return;
    // Quit from elsewhere (logout, second Quit): release the engine first, then quit for real.
    event.preventDefault();
    void quit();
  });

  refreshTray();
  if (!trayShown) {
    log('this desktop shows no tray icons (GNOME needs the AppIndicator extension): showing the live feed window instead');
    try {
      windows.show('feed');
    } catch (error) {
      log(`feed window: ${(error as Error).message}`);
    }
  }
  if (isFirstRun(electron) || resumeStep) {
    try {
      windows.show('onboarding');
    } catch (error) {
      log(`onboarding window: ${(error as Error).message}`);
    }
  }
  log(`ready: MCP on ${host.path}`);
  return { engine, overlay, feed, windows, tray, refreshTray, shutdown };
}

/** Feed cards show a thumbnail: a Retina screenshot is megabytes, the card needs a few dozen KB. */
const THUMBNAIL_WIDTH = 480;

async function screenshotThumbnail(path: string | undefined, log: (message: string) => void): Promise<string | null> {
  if (!path) return null;
  try {
    // Loaded on first use: a sharp that cannot load (a wrong-architecture @img package, library
    // validation) costs the feed its thumbnails, not the app its start.
    const { default: sharp } = await import('sharp');
    const png = await sharp(await readFile(path)).resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true }).png().toBuffer();
    return `data:image/png;base64,${png.toString('base64')}`;
  } catch (error) {
    log(`feed: no thumbnail for ${path}: ${(error as Error).message}`);
    return null;
  }
}

function markerPath(electron: ElectronApi): string {
  return join(electron.app.getPath('userData'), ONBOARDED_MARKER);
}

function isFirstRun(electron: ElectronApi): boolean {
  return !existsSync(markerPath(electron));
}

function markOnboarded(electron: ElectronApi): void {
  const path = markerPath(electron);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${new Date().toISOString()}\n`, { mode: 0o600 });
}
