// A Desktop that creates the real backend on first use. The stdio server must answer
// `initialize` and `tools/list` on a machine with no display (and before macOS permissions are
// granted); only a tool that touches the desktop needs the backend, and it gets the backend's
// own actionable error when it cannot be made. A failed creation is not cached: the person may
// fix the cause (start X, grant a permission) and the next call then works.

import type { Desktop } from '../core/desktop.js';
import type { Progress } from '../core/progress.js';

type DesktopFactory = () => Promise<Desktop>;

function currentPlatform(): Desktop['platform'] {
  return process.platform === 'darwin' ? 'darwin' : 'linux';
}

export class LazyDesktop implements Desktop {
  readonly platform: Desktop['platform'] = currentPlatform();
  private pending: Promise<Desktop> | null = null;
  private desktop: Desktop | null = null;

  constructor(private readonly create: DesktopFactory) {}

  /** The backend, created on the first call. */
  async get(): Promise<Desktop> {
    if (this.desktop) return this.desktop;
    this.pending ??= this.create().then(
      (desktop) => (this.desktop = desktop),
      (error: unknown) => {
        this.pending = null;
        throw error;
      },
    );
    return this.pending;
  }

  /** Starts creating the backend in the background; a failure is dropped (the next get() retries). */
  warmUp(): void {
    this.get().catch(() => {});
  }

  /** Whether the backend exists already (doctor reports without forcing it). */
  get created(): boolean {
    return this.desktop !== null;
  }

  listApps: Desktop['listApps'] = async (...args) => (await this.get()).listApps(...args);
  appForPid: Desktop['appForPid'] = async (...args) => (await this.get()).appForPid(...args);
  frontmost: Desktop['frontmost'] = async (...args) => (await this.get()).frontmost(...args);
  activate: Desktop['activate'] = async (...args) => (await this.get()).activate(...args);
  windows: Desktop['windows'] = async (...args) => (await this.get()).windows(...args);
  // Optional in the backend: null (unknown) where it has none, so a click goes unchecked there.
  windowAt: NonNullable<Desktop['windowAt']> = async (...args) => {
    const desktop = await this.get();
    return desktop.windowAt ? desktop.windowAt(...args) : null;
  };
  cursorPosition: Desktop['cursorPosition'] = async () => (await this.get()).cursorPosition();
  displays: Desktop['displays'] = async (...args) => (await this.get()).displays(...args);
  moveCursor: Desktop['moveCursor'] = async (...args) => (await this.get()).moveCursor(...args);
  resolveApp: Desktop['resolveApp'] = async (...args) => (await this.get()).resolveApp(...args);
  askToQuit: Desktop['askToQuit'] = async (...args) => (await this.get()).askToQuit(...args);
  signalProcess: Desktop['signalProcess'] = async (...args) => (await this.get()).signalProcess(...args);
  processState: Desktop['processState'] = async (...args) => (await this.get()).processState(...args);
  snapshot: Desktop['snapshot'] = async (...args) => (await this.get()).snapshot(...args);
  performAction: Desktop['performAction'] = async (...args) => (await this.get()).performAction(...args);
  accessibleAtPoint: NonNullable<Desktop['accessibleAtPoint']> = async (...args) => {
    const desktop = await this.get();
    return desktop.accessibleAtPoint ? desktop.accessibleAtPoint(...args) : null;
  };
  setValue: Desktop['setValue'] = async (...args) => (await this.get()).setValue(...args);
  insertText: Desktop['insertText'] = async (...args) => (await this.get()).insertText(...args);
  setSelected: Desktop['setSelected'] = async (...args) => (await this.get()).setSelected(...args);
  waitForQuiet: Desktop['waitForQuiet'] = async (...args) => (await this.get()).waitForQuiet(...args);
  watchPaint: Desktop['watchPaint'] = async (...args) => (await this.get()).watchPaint(...args);
  launchedSince: Desktop['launchedSince'] = async (...args) => (await this.get()).launchedSince(...args);
  click: Desktop['click'] = async (...args) => (await this.get()).click(...args);
  pressKey: Desktop['pressKey'] = async (...args) => (await this.get()).pressKey(...args);
  typeText: Desktop['typeText'] = async (...args) => (await this.get()).typeText(...args);
  scroll: Desktop['scroll'] = async (...args) => (await this.get()).scroll(...args);
  drag: Desktop['drag'] = async (...args) => (await this.get()).drag(...args);
  screenshot: Desktop['screenshot'] = async (...args) => (await this.get()).screenshot(...args);
  engageGuard: Desktop['engageGuard'] = async (...args) => (await this.get()).engageGuard(...args);
  checkPermissions: Desktop['checkPermissions'] = async (...args) => (await this.get()).checkPermissions(...args);
  requestPermission = async (id: string, progress: Progress): Promise<void> => (await this.get()).requestPermission?.(id, progress);
  /** Never starts the backend just to draw: an overlay only follows a guard, which started it. */
  showOverlay = async (text: string): Promise<void> => this.desktop?.showOverlay?.(text);
  hideOverlay = async (): Promise<void> => this.desktop?.hideOverlay?.();

  async close(): Promise<void> {
    // Never create a backend just to close it.
    const pending = this.pending;
    this.pending = null;
    this.desktop = null;
    if (!pending) return;
    const desktop = await pending.catch(() => null);
    await desktop?.close();
  }
}
