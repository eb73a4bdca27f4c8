// The Linux desktop: core's Desktop made of its two halves — X11 (windows, focus, cursor,
// synthetic input, capture, the input guard) and AT-SPI (apps, trees, element actions, settle).
// Composition only: each call goes to the half that owns it, nothing is decided here.

import type {
  AppRequest,
  ClickOptions,
  DragOptions,
  Desktop,
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
import type { Display, ElementNode, Frontmost, LaunchedProcess, Modifier, PermissionCheck, Point, Rect, RunningApp, Screenshot, TreeSnapshot, WindowInfo } from '../../core/model.js';
import type { Progress } from '../../core/progress.js';
import type { AtspiAccessibility } from './atspiAccessibility.js';
import type { X11Display } from './x11Display.js';
import { descendantsStartedSince } from './procLaunches.js';
import { processState, signalProcess } from './procSignals.js';

export class LinuxDesktop implements Desktop {
  readonly platform = 'linux' as const;

  constructor(
    private readonly x11: X11Display,
    private readonly atspi: AtspiAccessibility,
  ) {}

  // — apps, windows, focus, cursor —

  listApps(progress: Progress): Promise<RunningApp[]> {
    return this.atspi.listApps(progress);
  }

  appForPid(pid: number, progress: Progress): Promise<RunningApp | null> {
    return this.atspi.appForPid(pid, progress);
  }

  frontmost(progress: Progress): Promise<Frontmost | null> {
    return this.x11.frontmost(progress);
  }

  activate(pid: number, windowId: number | undefined, progress: Progress): Promise<boolean> {
    return this.x11.activate(pid, windowId, progress);
  }

  windows(pid: number | undefined, progress: Progress): Promise<WindowInfo[]> {
    return this.x11.windows(pid, progress);
  }

  windowAt(point: Point, progress: Progress): Promise<WindowInfo | null> {
    return this.x11.windowAt(point, progress);
  }

  cursorPosition(): Promise<Point> {
    return this.x11.cursorPosition();
  }

  displays(progress: Progress): Promise<Display[]> {
    return this.x11.displays(progress);
  }

  moveCursor(point: Point): Promise<void> {
    return this.x11.moveCursor(point);
  }

  resolveApp(request: AppRequest, progress: Progress): Promise<ResolvedApp> {
    return this.atspi.resolveApp(request, progress);
  }

  askToQuit(pid: number, progress: Progress): Promise<QuitRequest> {
    return this.x11.askToQuit(pid, progress);
  }

  signalProcess(pid: number, signal: 'terminate' | 'kill'): Promise<void> {
    return signalProcess(pid, signal);
  }

  processState(pid: number): Promise<ProcessState> {
    return processState(pid);
  }

  // — accessibility —

  async snapshot(pid: number, limits: SnapshotLimits, progress: Progress): Promise<TreeSnapshot> {
    // The windows and displays with the tree, read at the same time: core clips what is visible
    // with them. A display that cannot list them leaves the tree as AT-SPI gave it.
    const [tree, windows, displays] = await Promise.all([
      this.atspi.snapshot(pid, limits, progress),
      this.x11.windows(undefined, progress).catch(() => undefined),
      this.x11.displays(progress).catch(() => undefined),
    ]);
    return { ...tree, ...(windows ? { windows } : {}), ...(displays ? { displays } : {}) };
  }

  performAction(request: ElementActionRequest, progress: Progress): Promise<void> {
    return this.atspi.performAction(request, progress);
  }

  accessibleAtPoint(window: ElementNode, point: Point, progress: Progress): Promise<string[] | null> {
    return this.atspi.accessibleAtPoint(window, point, progress);
  }

  setValue(element: ElementNode, value: string, progress: Progress): Promise<void> {
    return this.atspi.setValue(element, value, progress);
  }

  insertText(element: ElementNode, text: string, progress: Progress): Promise<void> {
    return this.atspi.insertText(element, text, progress);
  }

  setSelected(element: ElementNode, selected: boolean, progress: Progress): Promise<void> {
    return this.atspi.setSelected(element, selected, progress);
  }

  waitForQuiet(pid: number, quietMs: number, capMs: number, progress: Progress): Promise<SettleOutcome> {
    return this.atspi.waitForQuiet(pid, quietMs, capMs, progress);
  }

  launchedSince(pid: number, sinceMs: number, _progress: Progress): Promise<LaunchedProcess[]> {
    return descendantsStartedSince(pid, sinceMs);
  }

  // — synthetic input —

  click(point: Point, options: ClickOptions, progress: Progress): Promise<void> {
    return this.x11.click(point, options, progress);
  }

  pressKey(key: KeyName, modifiers: Modifier[], progress: Progress): Promise<void> {
    return this.x11.pressKey(key, modifiers, progress);
  }

  /**
   * Keys go to the frontmost app; its own count of inserted characters paces them too (see
   * core/input/inputPacing.ts: some apps answer pings before they apply their keys).
   */
  async typeText(text: string, progress: Progress): Promise<void> {
    const frontmost = await this.x11.frontmost(progress);
    const insertions = frontmost ? await this.atspi.insertionCounter(frontmost.pid, progress).catch(() => null) : null;
    try {
      await this.x11.typeText(text, progress, insertions ?? undefined);
    } finally {
      insertions?.close();
    }
  }

  scroll(point: Point, deltaX: number, deltaY: number, progress: Progress): Promise<void> {
    return this.x11.scroll(point, deltaX, deltaY, progress);
  }

  drag(from: Point, to: Point, options: DragOptions, progress: Progress): Promise<void> {
    return this.x11.drag(from, to, options, progress);
  }

  watchPaint(pid: number, progress: Progress, ignoring?: readonly Rect[]): Promise<PaintWatch | null> {
    return this.x11.watchPaint(pid, progress, ignoring);
  }

  // — capture and guard —

  screenshot(target: { windowId?: number; pid?: number; rect?: Rect }, progress: Progress): Promise<Screenshot> {
    return this.x11.screenshot(target, progress);
  }

  engageGuard(listener: GuardListener, progress: Progress): Promise<EngagedGuard> {
    return this.x11.engageGuard(listener, progress);
  }

  // — overlay —

  showOverlay(text: string): Promise<void> {
    return this.x11.showOverlay(text);
  }

  hideOverlay(): Promise<void> {
    return this.x11.hideOverlay();
  }

  // — environment —

  async checkPermissions(progress: Progress): Promise<PermissionCheck[]> {
    const [display, accessibility] = await Promise.all([this.x11.checks(progress), this.atspi.checks(progress)]);
    return [...display, ...accessibility];
  }

  async close(): Promise<void> {
    // Both halves are closed even when one fails: the process may exit right after.
    const results = await Promise.allSettled([this.atspi.close(), this.x11.close()]);
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
