// The X11 half of the Linux desktop: windows, focus, cursor, synthetic input, capture and the
// input guard, over one X connection (plus the guard's own). The AT-SPI half lives beside it;
// linuxDesktop.ts composes both into core's Desktop.

import type { CompositeExtension, ResExtension, XInputExtension, XTestExtension } from 'x11';
import type { ClickOptions, Desktop, DragOptions, EngagedGuard, GuardListener, KeyName, PaintWatch, QuitRequest } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import type { Display, Frontmost, Modifier, PermissionCheck, Point, Rect, Screenshot, WindowInfo } from '../../core/model.js';
import { throwIfAborted, type Progress } from '../../core/progress.js';
import type { InsertionCounter } from '../../core/input/inputPacing.js';
import { X11Connection } from '../../../native/linux/x11Connection.js';
import { X11Capture } from './x11Capture.js';
import { unreachableDisplayCheck, waylandSessionCheck, x11Checks, type X11Facts } from './x11Checks.js';
import { X11Input } from './x11Input.js';
import { X11Windows } from './x11Windows.js';
import { XInputGuard } from './xinputGuard.js';
import { X11Overlay } from './x11OverlayWindows.js';
import { randr15Opcode, readMonitors } from './x11Monitors.js';
import { X11PaintWatcher } from './x11Damage.js';

type X11Primitives = Pick<
  Desktop,
  'frontmost' | 'activate' | 'windows' | 'cursorPosition' | 'displays' | 'moveCursor' | 'click' | 'pressKey' | 'typeText' | 'scroll' | 'drag' | 'screenshot' | 'engageGuard' | 'watchPaint'
>;

export class X11Display implements X11Primitives {
  private guard: Promise<XInputGuard> | null = null;
  private randrOpcode: Promise<number | null> | null = null;
  private paints: Promise<X11PaintWatcher | null> | null = null;
  private overlay: Promise<X11Overlay | null> | null = null;
  private overlayPulse: boolean | undefined;
  private readonly windowsApi: X11Windows;
  private readonly capture: X11Capture;
  private readonly input: X11Input | null;

  private constructor(
    private readonly connection: X11Connection,
    private readonly xtest: XTestExtension | null,
    private readonly composite: CompositeExtension | null,
    private readonly xinput: XInputExtension | null,
    resources: ResExtension | null,
  ) {
    this.windowsApi = new X11Windows(connection, resources);
    this.capture = new X11Capture(connection, this.windowsApi, composite);
    this.input = xtest ? new X11Input(connection, xtest, this.windowsApi) : null;
  }

  static async open(options: { display?: string; overlayPulse?: boolean }): Promise<X11Display> {
    const name = options.display ?? process.env.DISPLAY;
    if (!name) {
      const check = unreachableDisplayCheck(undefined, '');
      throw new TandemError('permission', `${check.detail} ${check.remedy}`);
    }
    let connection: X11Connection;
    try {
      connection = await X11Connection.open(name);
    } catch (error) {
      const check = unreachableDisplayCheck(name, (error as Error).message);
      throw new TandemError('permission', `${check.detail} ${check.remedy}`);
    }
    const optional = <T>(extension: 'xtest' | 'composite' | 'xinput' | 'res'): Promise<T | null> =>
      connection.request<T>((callback) => connection.client.require(extension as 'xtest', callback as never)).catch(() => null);
    const [xtest, composite, xinput, resources] = await Promise.all([
      optional<XTestExtension>('xtest'),
      optional<CompositeExtension>('composite'),
      optional<XInputExtension>('xinput'),
      optional<ResExtension>('res'),
    ]);
    const display = new X11Display(connection, xtest, composite, xinput, resources);
    display.overlayPulse = options.overlayPulse;
    // The guard's own connection is opened ahead, so the first action does not wait for it; the
    // overlay's windows too, so showing them is one map request when the guard engages.
    display.guardConnection();
    void display.overlaySurface();
    return display;
  }

  get displayName(): string {
    return this.connection.name;
  }

  // — windows, focus, cursor —

  frontmost(progress: Progress): Promise<Frontmost | null> {
    return this.windowsApi.frontmost(progress);
  }

  activate(pid: number, windowId: number | undefined, progress: Progress): Promise<boolean> {
    return this.windowsApi.activate(pid, windowId, progress);
  }

  askToQuit(pid: number, progress: Progress): Promise<QuitRequest> {
    return this.windowsApi.askToQuit(pid, progress);
  }

  windows(pid: number | undefined, progress: Progress): Promise<WindowInfo[]> {
    return this.windowsApi.windows(pid, progress);
  }

  windowAt(point: Point, progress: Progress): Promise<WindowInfo | null> {
    return this.windowsApi.windowAt(point, progress);
  }

  /**
   * Root position of the pid's toplevel (the one titled windowTitle when given), where its
   * widgets' coordinates start: GTK4 reports extents relative to it. A client-side-decorated
   * window's invisible shadow is skipped, since GTK4 widget coordinates start inside it.
   */
  async windowOrigin(pid: number, windowTitle?: string): Promise<Point | null> {
    const window = await this.windowsApi.topWindowOf(pid, windowTitle);
    if (!window) return null;
    const bounds = await this.windowsApi.clientBounds(window);
    return bounds ? { x: bounds.x, y: bounds.y } : null;
  }

  cursorPosition(): Promise<Point> {
    return this.windowsApi.cursorPosition();
  }

  /** The RandR monitors, primary first (the RANDR opcode looked up once). */
  async displays(progress: Progress): Promise<Display[]> {
    throwIfAborted(progress);
    this.randrOpcode ??= randr15Opcode(this.connection);
    return readMonitors(this.connection, await this.randrOpcode);
  }

  moveCursor(point: Point): Promise<void> {
    return this.windowsApi.warpCursor(point);
  }

  // — synthetic input —

  click(point: Point, options: ClickOptions, progress: Progress): Promise<void> {
    return this.requireInput().click(point, options, progress);
  }

  pressKey(key: KeyName, modifiers: Modifier[], progress: Progress): Promise<void> {
    return this.requireInput().pressKey(key, modifiers, progress);
  }

  typeText(text: string, progress: Progress, insertions?: InsertionCounter): Promise<void> {
    return this.requireInput().typeText(text, progress, insertions);
  }

  scroll(point: Point, deltaX: number, deltaY: number, progress: Progress): Promise<void> {
    return this.requireInput().scroll(point, deltaX, deltaY, progress);
  }

  drag(from: Point, to: Point, options: DragOptions, progress: Progress): Promise<void> {
    return this.requireInput().drag(from, to, options, progress);
  }

  // — capture —

  async screenshot(target: { windowId?: number; pid?: number; rect?: Rect }, progress: Progress): Promise<Screenshot> {
    if (target.windowId !== undefined) return this.capture.window(target.windowId, progress);
    // The app's own window, not the whole screen: smaller, faster, and none of the person's
    // other windows end up in the artifacts.
    const window = target.pid !== undefined && !target.rect ? await this.windowsApi.topWindowOf(target.pid) : null;
    if (window) return this.capture.window(window, progress);
    return this.capture.screen(target.rect, progress);
  }

  /** X DAMAGE on pid's top-level windows (the extension looked up once); null without it. */
  async watchPaint(pid: number, progress: Progress, ignoring: readonly Rect[] = []): Promise<PaintWatch | null> {
    throwIfAborted(progress);
    this.paints ??= X11PaintWatcher.open(this.connection, this.windowsApi);
    const watcher = await this.paints;
    return watcher ? watcher.watch(pid, ignoring) : null;
  }

  // — guard —

  async engageGuard(listener: GuardListener, progress: Progress): Promise<EngagedGuard> {
    return (await this.guardConnection()).engage(listener, progress);
  }

  /** The guard on its own X connection, opened once (again after a failed attempt). */
  private guardConnection(): Promise<XInputGuard> {
    if (!this.guard) {
      const opening = XInputGuard.open(this.connection.name);
      this.guard = opening;
      opening.catch((error: unknown) => {
        if (this.guard === opening) this.guard = null;
        console.error(`[x11] input guard unavailable: ${(error as Error).message}`);
      });
    }
    return this.guard;
  }

  // — overlay —

  async showOverlay(text: string): Promise<void> {
    await (await this.overlaySurface())?.show(text);
  }

  async hideOverlay(): Promise<void> {
    await (await this.overlay)?.hide();
  }

  /** The overlay's windows on this (the server's own) connection, created once; null if that failed. */
  private overlaySurface(): Promise<X11Overlay | null> {
    this.overlay ??= X11Overlay.create(this.connection, { pulse: this.overlayPulse }).catch((error: unknown) => {
      console.error(`[x11] overlay unavailable: ${(error as Error).message}`);
      return null;
    });
    return this.overlay;
  }

  // — environment —

  async checks(progress: Progress): Promise<PermissionCheck[]> {
    progress.log(`Checking the X display ${this.connection.name}.`);
    const version = (major: number | undefined, minor: number | undefined): { major: number; minor: number } => ({ major: major ?? 0, minor: minor ?? 0 });
    let xtestVersion: { major: number; minor: number } | null = null;
    if (this.xtest) {
      const xtest = this.xtest;
      const reply = await this.connection.request<[number, number]>((callback) => xtest.GetVersion(2, 2, callback)).catch(() => null);
      xtestVersion = reply ? version(reply[0], reply[1]) : version(2, 0);
    }
    const facts: X11Facts = {
      display: this.connection.name,
      screen: { width: this.connection.screen.pixel_width, height: this.connection.screen.pixel_height },
      xtest: xtestVersion,
      xinput: this.xinput?.xi2 ? version(this.xinput.xi2.majorVersion, this.xinput.xi2.minorVersion) : null,
      composite: this.composite ? version(this.composite.major, this.composite.minor) : null,
    };
    return [waylandSessionCheck(process.env), ...x11Checks(facts)];
  }

  async close(): Promise<void> {
    const guard = this.guard;
    this.guard = null;
    if (guard) await (await guard.catch(() => null))?.close();
    await (await this.overlay)?.close();
    await this.input?.close();
    await this.connection.close();
  }

  private requireInput(): X11Input {
    if (!this.input) throw new TandemError('unsupported', `The X display ${this.connection.name} has no XTEST extension, so Tandem cannot click or type there.`);
    return this.input;
  }
}
