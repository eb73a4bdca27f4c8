// The macOS Desktop: core's primitives over AX, CoreGraphics and `open`/`screencapture`. Each
// concern lives in the file named after the API it wraps; this class only wires them together
// and adds the cancellation checkpoints core expects around input.

import type {
  ClickOptions,
  Desktop,
  ElementActionRequest,
  EngagedGuard,
  GuardListener,
  KeyName,
  OpenedApp,
  SettleOutcome,
  SnapshotLimits,
} from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import type { ElementNode, Frontmost, Modifier, PermissionCheck, Point, Rect, RunningApp, Screenshot, TreeSnapshot, WindowInfo } from '../../core/model.js';
import { type Progress, sleep, throwIfAborted } from '../../core/progress.js';
import type { MacNative } from '../../../native/macos/macNative.js';
import { AxActions } from './axActions.js';
import { AxElementRegistry, AxSession } from './axElement.js';
import { waitForQuietAx } from './axObserverSettle.js';
import { AxTreeReader } from './axTree.js';
import { CGEventInput, planText } from './cgEvents.js';
import { DEFAULT_TAP_GUARD_OPTIONS, engageTapGuard } from './cgEventTapGuard.js';
import { readWindowList } from './cgWindows.js';
import { MacApps } from './macApps.js';
import { launchedSince } from './libprocLaunches.js';
import { readDisplays } from './macDisplays.js';
import { checkMacPermissions } from './macPermissions.js';
import { captureScreenshot } from './macScreenshot.js';

/** Pause between typed chunks so slow text views keep every character in order. */
const TYPE_CHUNK_PAUSE_MS = 8;

export class MacDesktop implements Desktop {
  readonly platform = 'darwin' as const;
  private readonly session: AxSession;
  private readonly registry: AxElementRegistry;
  private readonly tree: AxTreeReader;
  private readonly actions: AxActions;
  private readonly input: CGEventInput;
  private readonly apps: MacApps;

  constructor(private readonly native: MacNative) {
    this.session = new AxSession(native);
    this.registry = new AxElementRegistry(native.cf);
    this.tree = new AxTreeReader(this.session, this.registry);
    this.actions = new AxActions(this.session, this.registry);
    this.input = new CGEventInput(native);
    this.apps = new MacApps(native, this.session);
  }

  async listApps(_progress: Progress): Promise<RunningApp[]> {
    return this.apps.listApps();
  }

  async appForPid(pid: number, _progress: Progress): Promise<RunningApp | null> {
    return this.apps.appForPid(pid);
  }

  async frontmost(_progress: Progress): Promise<Frontmost | null> {
    return this.apps.frontmost();
  }

  activate(pid: number, windowId: number | undefined, progress: Progress): Promise<boolean> {
    return this.apps.activate(pid, windowId, progress);
  }

  async windows(pid: number | undefined, _progress: Progress): Promise<WindowInfo[]> {
    return this.apps.windows(pid);
  }

  async cursorPosition(): Promise<Point> {
    return this.input.cursorPosition();
  }

  async moveCursor(point: Point): Promise<void> {
    this.input.warp(point);
  }

  openApp(identifier: string, progress: Progress): Promise<OpenedApp> {
    return this.apps.openApp(identifier, progress);
  }

  async snapshot(pid: number, limits: SnapshotLimits, progress: Progress): Promise<TreeSnapshot> {
    this.session.requireTrust();
    const screens = readDisplays(this.native).map((d) => d.bounds);
    const windowBounds = readWindowList(this.native, this.session.decoder, false).filter((w) => w.pid === pid);
    return this.tree.snapshot(pid, limits, progress, { screens, windowBounds });
  }

  async performAction(request: ElementActionRequest, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    this.session.requireTrust();
    this.actions.perform(request, progress);
  }

  async setValue(element: ElementNode, value: string, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    this.session.requireTrust();
    this.actions.setValue(element, value, progress);
  }

  async setSelected(element: ElementNode, selected: boolean, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    this.session.requireTrust();
    this.actions.setSelected(element, selected);
  }

  waitForQuiet(pid: number, quietMs: number, capMs: number, progress: Progress): Promise<SettleOutcome> {
    return waitForQuietAx(this.session, pid, quietMs, capMs, progress, { pumpRunLoop: !process.versions.electron });
  }

  /**
   * The app's new descendants, and apps launchd started for this user since (LaunchServices
   * launches have launchd as their parent): libprocLaunches.ts.
   */
  async launchedSince(pid: number, sinceMs: number, _progress: Progress): Promise<RunningApp[]> {
    return launchedSince(this.native.proc, this.apps, pid, sinceMs, process.getuid?.() ?? -1);
  }

  async click(point: Point, options: ClickOptions, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    this.input.click(point, options);
  }

  async pressKey(key: KeyName, modifiers: Modifier[], progress: Progress): Promise<void> {
    throwIfAborted(progress);
    this.input.pressKey(key, modifiers);
  }

  async typeText(text: string, progress: Progress): Promise<void> {
    for (const piece of planText(text)) {
      throwIfAborted(progress);
      this.input.typePiece(piece);
      await sleep(TYPE_CHUNK_PAUSE_MS, progress);
    }
  }

  async scroll(point: Point, deltaX: number, deltaY: number, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    this.input.scroll(point, deltaX, deltaY);
  }

  async screenshot(target: { windowId?: number; pid?: number; rect?: Rect }, progress: Progress): Promise<Screenshot> {
    const granted = this.native.cg.CGPreflightScreenCaptureAccess();
    if (target.rect) return captureScreenshot({ kind: 'rect', rect: target.rect }, target.rect, progress, granted);
    const windows = readWindowList(this.native, this.session.decoder, false).filter((w) => w.layer === 0);
    let window = target.windowId !== undefined ? windows.find((w) => w.windowId === target.windowId) : undefined;
    if (target.windowId !== undefined && !window) {
      const known = windows.filter((w) => target.pid === undefined || w.pid === target.pid).map((w) => w.windowId).slice(0, 20);
      throw new TandemError('not-found', `No window ${target.windowId}. Windows${target.pid !== undefined ? ` of pid ${target.pid}` : ''}: ${known.join(', ') || 'none'}.`);
    }
    if (!window && target.pid !== undefined) window = windows.find((w) => w.pid === target.pid && w.onScreen);
    if (window?.bounds) return captureScreenshot({ kind: 'window', windowId: window.windowId }, window.bounds, progress, granted);
    const primary = readDisplays(this.native).find((d) => d.primary);
    if (!primary) throw new TandemError('internal', 'macOS reported no active display.');
    return captureScreenshot({ kind: 'main-display' }, primary.bounds, progress, granted);
  }

  engageGuard(listener: GuardListener, progress: Progress): Promise<EngagedGuard> {
    return engageTapGuard(listener, progress, DEFAULT_TAP_GUARD_OPTIONS, { native: this.native });
  }

  checkPermissions(_progress: Progress): Promise<PermissionCheck[]> {
    return checkMacPermissions(this.native);
  }

  async close(): Promise<void> {
    this.registry.releaseAll();
    this.session.close();
  }
}
