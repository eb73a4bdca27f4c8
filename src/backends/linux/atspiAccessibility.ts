// The accessibility half of the Linux backend over AT-SPI2: apps, trees, element actions,
// settling and opening apps. The X11 half (windows, input, capture) is composed with it in
// linuxDesktop.ts.

import type { AppRequest, Desktop, ElementActionRequest, ResolvedApp, SettleOutcome, SnapshotLimits } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import type { InsertionCounter } from '../../core/input/inputPacing.js';
import type { ElementNode, PermissionCheck, Point, RunningApp, TreeSnapshot } from '../../core/model.js';
import { createProgress, type Progress } from '../../core/progress.js';
import { AtspiActions } from './atspiActions.js';
import { AtspiApps, type AtspiApp } from './atspiApps.js';
import { AtspiBus } from './atspiBus.js';
import { AtspiHitTest } from './atspiHitTest.js';
import { AtspiToolkits } from './atspiToolkit.js';
import { AtspiSettle } from './atspiSettle.js';
import { AtspiTree } from './atspiTree.js';
import { LinuxAppOpener } from './linuxApps.js';
import { DesktopA11ySwitch, readSwitchStatus, systemSwitchIo, type SwitchStatus } from './desktopA11ySwitch.js';

export interface AtspiConnectOptions {
  /** Environment of the desktop session (DBUS_SESSION_BUS_ADDRESS, PATH, XDG_*); defaults to this process's. */
  env?: NodeJS.ProcessEnv;
  /** Root position of a pid's toplevel window (from X11), for GTK4's window-relative extents. */
  windowOrigin?: (pid: number, windowTitle: string) => Promise<Point | null>;
  /** Titles of a pid's windows on this display (from X11): tells a running-but-unreadable app apart. */
  windowTitles?: (pid: number) => Promise<string[]>;
  /**
   * Turn the desktop's accessibility switch on while this connection lives, and put it back as
   * found on close() (see desktopA11ySwitch.ts). Hosts that serve agents set it; doctor does not.
   */
  switchAccessibilityOn?: boolean;
}

type AccessibilityPart = Pick<Desktop, 'listApps' | 'appForPid' | 'snapshot' | 'performAction' | 'accessibleAtPoint' | 'setValue' | 'insertText' | 'setSelected' | 'waitForQuiet' | 'resolveApp'>;

const CONNECT_TIMEOUT_MS = 5000;

export class AtspiAccessibility implements AccessibilityPart {
  private readonly bus: AtspiBus;
  private readonly apps: AtspiApps;
  private readonly tree: AtspiTree;
  private readonly actions: AtspiActions;
  private readonly hitTest: AtspiHitTest;
  private readonly settle: AtspiSettle;
  private readonly opener: LinuxAppOpener;
  private readonly env: NodeJS.ProcessEnv;
  private a11ySwitch: DesktopA11ySwitch | null = null;

  private constructor(bus: AtspiBus, env: NodeJS.ProcessEnv, options: AtspiConnectOptions) {
    this.bus = bus;
    this.env = env;
    this.apps = new AtspiApps(bus);
    // One toolkit read per app, for the tree and the hit test.
    const toolkits = new AtspiToolkits(bus);
    this.tree = new AtspiTree(bus, options.windowOrigin, toolkits);
    this.actions = new AtspiActions(bus, toolkits);
    this.hitTest = new AtspiHitTest(bus, toolkits);
    this.settle = new AtspiSettle(bus);
    this.opener = new LinuxAppOpener(bus, this.apps, env, options.windowTitles);
  }

  static async connect(options: AtspiConnectOptions = {}): Promise<AtspiAccessibility> {
    const env = options.env ?? process.env;
    // Before the bus: apps started from now on must see the switch on.
    const a11ySwitch = options.switchAccessibilityOn ? await turnSwitchOn(env) : null;
    let bus: AtspiBus;
    try {
      bus = await AtspiBus.connect(env, CONNECT_TIMEOUT_MS);
    } catch (error) {
      await a11ySwitch?.restore().catch(() => {});
      throw error;
    }
    const accessibility = new AtspiAccessibility(bus, env, options);
    accessibility.a11ySwitch = a11ySwitch;
    // Listen from the start: events an action causes count towards the quiet period after it.
    try {
      await accessibility.settle.ensureListening(createProgress({ timeoutMs: CONNECT_TIMEOUT_MS }));
    } catch (error) {
      bus.close();
      await a11ySwitch?.restore().catch(() => {});
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

  accessibleAtPoint(window: ElementNode, point: Point, progress: Progress): Promise<string[] | null> {
    return this.hitTest.accessibleAtPoint(window, point, progress);
  }

  setValue(element: ElementNode, value: string, progress: Progress): Promise<void> {
    return this.actions.setValue(element, value, progress);
  }

  insertText(element: ElementNode, text: string, progress: Progress): Promise<void> {
    return this.actions.insertText(element, text, progress);
  }

  setSelected(element: ElementNode, selected: boolean, progress: Progress): Promise<void> {
    return this.actions.setSelected(element, selected, progress);
  }

  async waitForQuiet(pid: number, quietMs: number, capMs: number, progress: Progress): Promise<SettleOutcome> {
    const app = await this.apps.forPid(pid, progress);
    if (!app) return 'unsupported';
    return this.settle.waitForQuiet(app.busName, quietMs, capMs, progress);
  }

  /** Counts the characters pid's app inserts into its text from now on (paced typing); null when it is not on the bus. */
  async insertionCounter(pid: number, progress: Progress): Promise<InsertionCounter | null> {
    const app = await this.apps.forPid(pid, progress);
    return app ? this.settle.insertionCounter(app.busName) : null;
  }

  resolveApp(request: AppRequest, progress: Progress): Promise<ResolvedApp> {
    return this.opener.resolve(request, progress);
  }

  /** The accessibility bus is reachable (or this object would not exist) and how many apps use it. */
  async checks(progress: Progress): Promise<PermissionCheck[]> {
    const switchCheck = await readSwitchStatus(systemSwitchIo(this.env)).then(desktopA11yCheck, (error: unknown) => desktopA11yCheck(error));
    try {
      const apps = await this.apps.list(progress);
      return [
        switchCheck,
        {
          id: 'atspi-bus',
          title: 'Accessibility bus (AT-SPI)',
          state: 'granted',
          detail: `Connected; ${apps.length} app${apps.length === 1 ? '' : 's'} registered${apps.length ? `: ${apps.map((app) => app.name).join(', ')}` : ''}.`,
          ...(apps.length === 0
            ? { remedy: 'Apps register when they start: restart the apps you want to use while Tandem runs, or open them through Tandem. GTK apps need no setup (unless NO_AT_BRIDGE=1 is set).' }
            : {}),
        },
      ];
    } catch (error) {
      return [switchCheck, atspiUnavailableCheck(error)];
    }
  }

  async close(): Promise<void> {
    this.settle.close();
    this.bus.close();
    const a11ySwitch = this.a11ySwitch;
    this.a11ySwitch = null;
    if (!a11ySwitch) return;
    try {
      const report = await a11ySwitch.restore();
      if (report.restored) console.error('tandem: desktop accessibility put back as it was found (off).');
    } catch (error) {
      console.error(`tandem: could not put desktop accessibility back as it was found: ${error instanceof Error ? error.message : String(error)}`);
    }
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

/**
 * Turns the switch on for this process, saying so once on stderr when it changed anything. A
 * failure is reported and not fatal: the accessibility bus itself may still be reachable.
 */
async function turnSwitchOn(env: NodeJS.ProcessEnv): Promise<DesktopA11ySwitch | null> {
  try {
    const a11ySwitch = await DesktopA11ySwitch.turnOn(systemSwitchIo(env));
    const { report } = a11ySwitch;
    if (report.adoptedFromDead.length > 0 && !report.changed) {
      console.error(`tandem: desktop accessibility was left on by Tandem pid ${report.adoptedFromDead.join(', ')}, which ended without putting it back; it is turned off again when this Tandem exits.`);
    } else if (report.changed) {
      console.error('tandem: desktop accessibility turned on (org.a11y.Status IsEnabled, as a screen reader does) so that apps started from now on expose their contents; it is turned off again when Tandem exits.');
    }
    return a11ySwitch;
  } catch (error) {
    console.error(`tandem: could not turn desktop accessibility on: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/** The doctor's line for the switch: on or off, and who turned it on. */
export function desktopA11yCheck(status: SwitchStatus | unknown): PermissionCheck {
  const title = 'Desktop accessibility';
  if (!isSwitchStatus(status)) {
    return { id: 'desktop-a11y', title, state: 'unknown', detail: `Could not read org.a11y.Status: ${status instanceof Error ? status.message : String(status)}` };
  }
  const key = status.toolkitAccessibility === null ? '' : `, GSettings toolkit-accessibility ${status.toolkitAccessibility ? 'true' : 'false'}`;
  if (!status.bus.isEnabled) {
    return {
      id: 'desktop-a11y',
      title,
      state: 'unknown',
      detail: `Off (org.a11y.Status IsEnabled false${key}). Tandem turns it on while it serves an agent (tandem mcp, tandem serve, the app) and back off when it exits.`,
      remedy: 'Nothing to do for GTK and Qt apps. Chromium, Electron apps and Firefox read the switch when they start: start them while Tandem runs, or open them through Tandem.',
    };
  }
  const holders = status.liveHolders.length ? ` Turned on by Tandem (pid ${status.liveHolders.join(', ')}); it goes back off when the last of them exits.` : '';
  const dead = status.deadHolders.length
    ? ` Left on by Tandem pid ${status.deadHolders.join(', ')}, which ended without putting it back (killed?): the next Tandem run turns it off when it exits, or run: gsettings set org.gnome.desktop.interface toolkit-accessibility false.`
    : '';
  const other = !holders && !dead ? ' Turned on by the desktop or a screen reader, not by Tandem: left as it is.' : '';
  return { id: 'desktop-a11y', title, state: 'granted', detail: `On (org.a11y.Status IsEnabled true${key}).${holders}${dead}${other}` };
}

function isSwitchStatus(value: unknown): value is SwitchStatus {
  return typeof value === 'object' && value !== null && 'bus' in value && 'liveHolders' in value;
}
