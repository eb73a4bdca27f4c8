// The macOS Desktop: core's primitives over AX, CoreGraphics and `open`/`screencapture`. Each
// concern lives in the file named after the API it wraps; this class only wires them together.
// Input is paced (core/input/inputPacing.ts): each primitive sends its events in small batches, each
// proven taken in by the receiving app (axInputBarrier.ts) before more than a small window is
// in flight, so an answer means the app has handled it, and a cancel leaves nothing behind.

import type {
  AppRequest,
  ClickOptions,
  Desktop,
  DragOptions,
  ElementActionRequest,
  EngagedGuard,
  GuardListener,
  KeyName,
  ProcessState,
  QuitRequest,
  ResolvedApp,
  PaintWatch,
  SettleOutcome,
  SnapshotLimits,
} from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import type { Display, ElementNode, Frontmost, Modifier, PermissionCheck, Point, Rect, RunningApp, Screenshot, TreeSnapshot, WindowInfo } from '../../core/model.js';
import { DEFAULT_PACING, InputPacer, type PacingOptions } from '../../core/input/inputPacing.js';
import { dragPath } from '../../core/input/dragPath.js';
import { type Progress, sleep, throwIfAborted } from '../../core/progress.js';
import type { MacNative } from '../../../native/macos/macNative.js';
import { AxActions } from './axActions.js';
import { AxElementRegistry, AxSession } from './axElement.js';
import { axElementsAtPoint } from './axHitTest.js';
import { waitForQuietAx } from './axObserverSettle.js';
import { AxTreeReader } from './axTree.js';
import { AxInputBarrier, DEFAULT_AX_BARRIER, type AxBarrierOptions } from './axInputBarrier.js';
import { CGEventInput, pieceUnits, planScroll, planText } from './cgEvents.js';
import { DEFAULT_TAP_GUARD_OPTIONS, engageTapGuard, type EngagedTapGuard, type TapGuardOptions } from './cgEventTapGuard.js';
import { spawnTapWorker, TapThreadHost, type TapWorker } from './cgEventTapHost.js';
import type { TapThreadOptions } from './cgEventTapThread.js';
import { readWindowList } from './cgWindows.js';
import { MacApps } from './macApps.js';
import { launchedSince } from './libprocLaunches.js';
import { readDisplays } from './macDisplays.js';
import { checkMacPermissions, promptForAccessibility, requestScreenRecording } from './macPermissions.js';
import { captureScreenshot, type ScreencaptureRunner } from './macScreenshot.js';

/**
 * UTF-16 units per unicode key event while typing (macOS takes up to 20). With DEFAULT_PACING's
 * three batches in flight, at most 24 are ever on their way to the app.
 */
const TEXT_UNITS_PER_EVENT = 8;

export interface MacDesktopOptions {
  tapGuard: TapGuardOptions;
  pacing: PacingOptions;
  barrier: AxBarrierOptions;
  /** Test seam: how the guard's worker thread is started. */
  spawnTapWorker?: (data: TapThreadOptions) => TapWorker;
  /** Test seam: how screencapture is run. */
  runScreencapture?: ScreencaptureRunner;
}

export const DEFAULT_MAC_DESKTOP_OPTIONS: MacDesktopOptions = { tapGuard: DEFAULT_TAP_GUARD_OPTIONS, pacing: DEFAULT_PACING, barrier: DEFAULT_AX_BARRIER };

export class MacDesktop implements Desktop {
  readonly platform = 'darwin' as const;
  private readonly session: AxSession;
  private readonly registry: AxElementRegistry;
  private readonly tree: AxTreeReader;
  private readonly actions: AxActions;
  private readonly input: CGEventInput;
  private readonly apps: MacApps;
  private readonly options: MacDesktopOptions;
  /** The guard's tap while engaged: the barrier counts Tandem's events passing it. */
  private activeTap: EngagedTapGuard | null = null;
  /** The tap was seen not to count Tandem's events (?): the barrier stops waiting for it. */
  private tapBlind = false;
  /** The one guard thread, kept across engagements. */
  private readonly tapHost: TapThreadHost;

  constructor(
    private readonly native: MacNative,
    options: Partial<MacDesktopOptions> = {},
  ) {
    this.options = { ...DEFAULT_MAC_DESKTOP_OPTIONS, ...options };
    this.session = new AxSession(native);
    this.registry = new AxElementRegistry(native.cf);
    this.tree = new AxTreeReader(this.session, this.registry);
    this.actions = new AxActions(this.session, this.registry);
    this.input = new CGEventInput(native);
    this.apps = new MacApps(native, this.session);
    this.tapHost = new TapThreadHost(this.options.spawnTapWorker ?? spawnTapWorker);
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

  async displays(_progress: Progress): Promise<Display[]> {
    // Primary first, as on X11.
    return readDisplays(this.native).sort((a, b) => Number(b.primary) - Number(a.primary));
  }

  async moveCursor(point: Point): Promise<void> {
    this.input.warp(point);
  }

  async resolveApp(request: AppRequest, _progress: Progress): Promise<ResolvedApp> {
    return this.apps.resolveApp(request);
  }

  async askToQuit(pid: number, _progress: Progress): Promise<QuitRequest> {
    return this.apps.askToQuit(pid);
  }

  async signalProcess(pid: number, signal: 'terminate' | 'kill'): Promise<void> {
    try {
      process.kill(pid, signal === 'terminate' ? 'SIGTERM' : 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }

  /** libproc's proc_bsdinfo: there while the process exists (a zombie is not told apart (?)), with its parent. */
  async processState(pid: number): Promise<ProcessState> {
    const info = this.native.proc.proc_bsdinfo(pid);
    return info ? { running: true, parentPid: info.ppid > 0 ? info.ppid : null } : { running: false, parentPid: null };
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

  async accessibleAtPoint(window: ElementNode, point: Point, progress: Progress): Promise<string[] | null> {
    throwIfAborted(progress);
    this.session.requireTrust();
    return axElementsAtPoint(this.session, this.registry, window, point, progress);
  }

  async setValue(element: ElementNode, value: string, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    this.session.requireTrust();
    this.actions.setValue(element, value, progress);
  }

  async insertText(element: ElementNode, text: string, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    this.session.requireTrust();
    this.actions.insertText(element, text);
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
   * Unknown on macOS: no primitive here tells when a window finished painting (see
   * docs/macos.md), so settling rests on the accessibility notifications alone.
   */
  async watchPaint(_pid: number, progress: Progress): Promise<PaintWatch | null> {
    throwIfAborted(progress);
    return null;
  }

  /**
   * The app's new descendants, and apps launchd started for this user since (LaunchServices
   * launches have launchd as their parent): libprocLaunches.ts.
   */
  async launchedSince(pid: number, sinceMs: number, _progress: Progress): Promise<RunningApp[]> {
    return launchedSince(this.native.proc, this.apps, pid, sinceMs, process.getuid?.() ?? -1);
  }

  // — paced input —

  /** A paced stream to `receiver` (a pid, or null when unknown: fixed pace); run `body`, then close the barrier. */
  private async paced(receiver: number | null, progress: Progress, total: number, body: (pacer: InputPacer) => Promise<void>): Promise<void> {
    throwIfAborted(progress);
    const tap = this.activeTap;
    const own = tap && !this.tapBlind ? { posted: () => this.input.countedPosted, seen: () => (tap.holding ? tap.oursSeen() : null) } : null;
    const barrier = new AxInputBarrier(this.native, receiver, own, {
      log: progress.log,
      // Not remembered: an app busy for a second at the first batch would stay unpaced for good.
      onSilent: () => undefined,
      onTapBlind: () => {
        if (this.tapBlind) return;
        this.tapBlind = true;
        console.error("[tandem] the guard's event tap did not see Tandem's own events: pacing on accessibility round trips alone");
      },
    }, this.options.barrier);
    try {
      const pacer = new InputPacer(barrier, progress, total, this.options.pacing);
      await body(pacer);
      await pacer.finish();
    } finally {
      barrier.close();
    }
  }

  /** The app keys go to: the focused application. */
  private keyReceiver(): number | null {
    return this.apps.frontmost()?.pid ?? null;
  }

  /** The app a pointer event at `point` goes to (hit-testing), else the focused one. */
  private pointerReceiver(point: Point): number | null {
    return this.apps.pidAt(point) ?? this.keyReceiver();
  }

  async click(point: Point, options: ClickOptions, progress: Progress): Promise<void> {
    await this.paced(this.pointerReceiver(point), progress, 1, async (pacer) => {
      await pacer.send(1, () => this.input.click(point, options));
    });
  }

  async pressKey(key: KeyName, modifiers: Modifier[], progress: Progress): Promise<void> {
    await this.paced(this.keyReceiver(), progress, 1, async (pacer) => {
      await pacer.send(1, () => this.input.pressKey(key, modifiers));
    });
  }

  async typeText(text: string, progress: Progress): Promise<void> {
    const pieces = planText(text, TEXT_UNITS_PER_EVENT);
    const total = pieces.reduce((sum, piece) => sum + pieceUnits(piece), 0);
    await this.paced(this.keyReceiver(), progress, total, async (pacer) => {
      for (const piece of pieces) await pacer.send(pieceUnits(piece), () => this.input.typePiece(piece));
    });
  }

  async scroll(point: Point, deltaX: number, deltaY: number, progress: Progress): Promise<void> {
    const steps = planScroll(deltaX, deltaY);
    const total = steps.reduce((sum, step) => sum + Math.abs(step.wheel1) + Math.abs(step.wheel2), 0);
    await this.paced(this.pointerReceiver(point), progress, total, async (pacer) => {
      await pacer.send(0, () => this.input.moveTo(point));
      for (const step of steps) await pacer.send(Math.abs(step.wheel1) + Math.abs(step.wheel2), () => this.input.scrollStep(step));
    });
  }

  /**
   * Press, dragged events along core's dragPath, release (contract in core/desktop.ts). Once the
   * button is down, an early end (Esc, the watchdog, an app not responding, an error) posts its
   * release where the pointer is, on the spot; the window server delivers it after what came
   * before (?).
   */
  async drag(from: Point, to: Point, options: DragOptions, progress: Progress): Promise<void> {
    const path = dragPath(from, to, options.durationMs);
    const { button, modifiers } = options;
    let held = false;
    let at = from;
    try {
      await this.paced(this.pointerReceiver(from), progress, path.points.length + 2, async (pacer) => {
        await pacer.send(1, () => {
          this.input.pressButton(from, button, modifiers);
          held = true;
        });
        for (const point of path.points) {
          if (path.intervalMs > 0) await sleep(path.intervalMs, progress);
          await pacer.send(1, () => {
            this.input.dragTo(point, button, modifiers);
            at = point;
          });
        }
        await pacer.send(1, () => {
          this.input.releaseButton(at, button, modifiers);
          held = false;
        });
      });
    } finally {
      if (held) {
        this.input.releaseButton(at, button, modifiers);
        progress.log(`the drag stopped early: the ${button} button was released at ${at.x},${at.y}`);
      }
    }
  }

  async screenshot(target: { windowId?: number; pid?: number; rect?: Rect }, progress: Progress): Promise<Screenshot> {
    const granted = this.native.cg.CGPreflightScreenCaptureAccess();
    const run = this.options.runScreencapture;
    if (target.rect) return captureScreenshot({ kind: 'rect', rect: target.rect }, target.rect, progress, granted, run);
    const windows = readWindowList(this.native, this.session.decoder, false).filter((w) => w.layer === 0);
    let window = target.windowId !== undefined ? windows.find((w) => w.windowId === target.windowId) : undefined;
    if (target.windowId !== undefined && !window) {
      const known = windows.filter((w) => target.pid === undefined || w.pid === target.pid).map((w) => w.windowId).slice(0, 20);
      throw new TandemError('not-found', `No window ${target.windowId}. Windows${target.pid !== undefined ? ` of pid ${target.pid}` : ''}: ${known.join(', ') || 'none'}.`);
    }
    if (!window && target.pid !== undefined) window = windows.find((w) => w.pid === target.pid && w.onScreen);
    if (window?.bounds) return captureScreenshot({ kind: 'window', windowId: window.windowId }, window.bounds, progress, granted, run);
    const primary = readDisplays(this.native).find((d) => d.primary);
    if (!primary) throw new TandemError('internal', 'macOS reported no active display.');
    return captureScreenshot({ kind: 'main-display' }, primary.bounds, progress, granted, run);
  }

  async engageGuard(listener: GuardListener, progress: Progress): Promise<EngagedGuard> {
    const tap = await engageTapGuard(listener, progress, this.options.tapGuard, { native: this.native, host: this.tapHost });
    this.activeTap = tap;
    return {
      release: async () => {
        if (this.activeTap === tap) this.activeTap = null;
        await tap.release();
      },
    };
  }

  checkPermissions(_progress: Progress): Promise<PermissionCheck[]> {
    return checkMacPermissions(this.native);
  }

  async requestPermission(id: string, _progress: Progress): Promise<void> {
    if (id === 'accessibility') promptForAccessibility(this.native);
    else if (id === 'screen-recording') requestScreenRecording(this.native);
  }

  async close(): Promise<void> {
    this.registry.releaseAll();
    this.session.close();
    await this.tapHost.close();
  }
}
