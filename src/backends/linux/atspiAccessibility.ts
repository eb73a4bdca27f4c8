// The accessibility half of the Linux backend over AT-SPI2: apps, trees, element actions,
// settling and opening apps. The X11 half (windows, input, capture) is composed with it in
// linuxDesktop.ts.

import type { Desktop, ElementActionRequest, OpenedApp, SettleOutcome, SnapshotLimits } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import type { ElementNode, PermissionCheck, Point, RunningApp, TreeSnapshot } from '../../core/model.js';
import { createProgress, type Progress } from '../../core/progress.js';
import { AtspiActions } from './atspiActions.js';
import { AtspiApps, type AtspiApp } from './atspiApps.js';
import { AtspiBus } from './atspiBus.js';
import { AtspiSettle } from './atspiSettle.js';
import { AtspiTree, type WindowOriginLookup } from './atspiTree.js';
import { LinuxAppOpener } from './linuxApps.js';

export interface AtspiConnectOptions {
  /** Environment of the desktop session (DBUS_SESSION_BUS_ADDRESS, PATH, XDG_*); defaults to this process's. */
  env?: NodeJS.ProcessEnv;
  /** Root position of a pid's toplevel window (from X11), for GTK4's window-relative extents. */
  windowOrigin?: (pid: number, windowTitle: string) => Promise<Point | null>;
}

type AccessibilityPart = Pick<Desktop, 'listApps' | 'appForPid' | 'snapshot' | 'performAction' | 'setValue' | 'setSelected' | 'waitForQuiet' | 'openApp'>;

const CONNECT_TIMEOUT_MS = 5000;

export class AtspiAccessibility implements AccessibilityPart {
  private readonly bus: AtspiBus;
  private readonly apps: AtspiApps;
  private readonly tree: AtspiTree;
  private readonly actions: AtspiActions;
  private readonly settle: AtspiSettle;
  private readonly opener: LinuxAppOpener;

  private constructor(bus: AtspiBus, env: NodeJS.ProcessEnv, windowOrigin: WindowOriginLookup | undefined) {
    this.bus = bus;
    this.apps = new AtspiApps(bus);
    this.tree = new AtspiTree(bus, windowOrigin);
    this.actions = new AtspiActions(bus);
    this.settle = new AtspiSettle(bus);
    this.opener = new LinuxAppOpener(bus, this.apps, env);
  }

  static async connect(options: AtspiConnectOptions = {}): Promise<AtspiAccessibility> {
    const env = options.env ?? process.env;
    const bus = await AtspiBus.connect(env, CONNECT_TIMEOUT_MS);
    const accessibility = new AtspiAccessibility(bus, env, options.windowOrigin);
    // Listen from the start: events an action causes count towards the quiet period after it.
    try {
      await accessibility.settle.ensureListening(createProgress({ timeoutMs: CONNECT_TIMEOUT_MS }));
    } catch (error) {
      bus.close();
      throw error;
    }
    return accessibility;
  }

  async listApps(progress: Progress): Promise<RunningApp[]> {
    return (await this.apps.list(progress)).map(publicApp);
  }

  async appForPid(pid: number, progress: Progress): Promise<RunningApp | null> {
    const app = await this.apps.forPid(pid, progress);
    return app ? publicApp(app) : null;
  }

  async snapshot(pid: number, limits: SnapshotLimits, progress: Progress): Promise<TreeSnapshot> {
    const app = await this.requireApp(pid, progress);
    const eventsBefore = this.settle.eventsFrom(app.busName);
    const tree = await this.tree.snapshot(app, limits, progress);
    // A tree cut short by time came from an app that stopped answering: nothing to wait for.
    if (eventsBefore === undefined || tree.truncated?.reason === 'time') return tree;
    const synced = await this.bus.syncEvents(app.busName, progress);
    // Unsynced (the app went busy), events may still be on their way: say it may have changed.
    return { ...tree, changedWhileReading: !synced || this.settle.eventsFrom(app.busName) !== eventsBefore };
  }

  performAction(request: ElementActionRequest, progress: Progress): Promise<void> {
    return this.actions.performAction(request, progress);
  }

  setValue(element: ElementNode, value: string, progress: Progress): Promise<void> {
    return this.actions.setValue(element, value, progress);
  }

  setSelected(element: ElementNode, selected: boolean, progress: Progress): Promise<void> {
    return this.actions.setSelected(element, selected, progress);
  }

  async waitForQuiet(pid: number, quietMs: number, capMs: number, progress: Progress): Promise<SettleOutcome> {
    const app = await this.apps.forPid(pid, progress);
    if (!app) return 'unsupported';
    return this.settle.waitForQuiet(app.busName, quietMs, capMs, progress);
  }

  openApp(identifier: string, progress: Progress): Promise<OpenedApp> {
    return this.opener.open(identifier, progress);
  }

  /** The accessibility bus is reachable (or this object would not exist) and how many apps use it. */
  async checks(progress: Progress): Promise<PermissionCheck[]> {
    try {
      const apps = await this.apps.list(progress);
      return [
        {
          id: 'atspi-bus',
          title: 'Accessibility bus (AT-SPI)',
          state: 'granted',
          detail: `Connected; ${apps.length} app${apps.length === 1 ? '' : 's'} registered${apps.length ? `: ${apps.map((app) => app.name).join(', ')}` : ''}.`,
          ...(apps.length === 0
            ? { remedy: 'Apps register when they start: restart the apps you want to use. GTK apps need no setup (unless NO_AT_BRIDGE=1 is set); Qt apps need QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1.' }
            : {}),
        },
      ];
    } catch (error) {
      return [atspiUnavailableCheck(error)];
    }
  }

  async close(): Promise<void> {
    this.settle.close();
    this.bus.close();
  }

  private async requireApp(pid: number, progress: Progress): Promise<AtspiApp> {
    const app = await this.apps.forPid(pid, progress);
    if (app) return app;
    const running = await this.apps.list(progress).catch(() => []);
    throw new TandemError('unknown-app', `No app with pid ${pid} on the accessibility bus.${running.length ? ` Apps: ${running.map((entry) => `${entry.name} (pid ${entry.pid})`).join(', ')}.` : ''}`, {
      running: running.map(publicApp),
    });
  }
}

/** The check to show when connect() failed (or the bus broke): what is wrong and what to do. */
export function atspiUnavailableCheck(error: unknown): PermissionCheck {
  const message = error instanceof Error ? error.message : String(error);
  return {
    id: 'atspi-bus',
    title: 'Accessibility bus (AT-SPI)',
    state: 'denied',
    detail: message,
    remedy: 'Install at-spi2-core, run inside a desktop session with a D-Bus session bus (DBUS_SESSION_BUS_ADDRESS set) and do not disable accessibility (org.gnome.desktop.interface toolkit-accessibility, NO_AT_BRIDGE).',
    action: { kind: 'run-command', value: 'sudo apt-get install at-spi2-core' },
  };
}

function publicApp(app: AtspiApp): RunningApp {
  return { pid: app.pid, name: app.name, ...(app.id ? { id: app.id } : {}) };
}
