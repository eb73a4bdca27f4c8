// The engine: what the MCP tools, the CLI and the Electron app call (TandemEngine). It owns the
// one queue, the one guard and the element index of a desktop, and runs every disruptive call
// as a transaction (transaction.ts). Read-only calls never engage the guard or move anything.

import { ArtifactStore, type ArtifactFile, type ArtifactStoreOptions } from './artifacts.js';
import { CallRecord } from './callRecord.js';
import type { Desktop, SnapshotLimits } from './desktop.js';
import { SnapshotCache } from './elementIndex.js';
import type { ActRequest, CallContext, EngineEventMap, EngineEventName, TandemEngine } from './engineApi.js';
import { TandemError, errorFacts, toTandemError } from './errors.js';
import { TypedEmitter } from './events.js';
import { GuardPolicy } from './guard.js';
import type { Display, PermissionCheck, Point, Rect, RunningApp, Screenshot, TreeSnapshot, WindowInfo } from './model.js';
import { chooseWindow, frontmostFirst, requireWindow, windowSubtree } from './windowChoice.js';
import { zoomInto, type ZoomImage, type ZoomView } from './zoom.js';
import { createProgress, type Progress } from './progress.js';
import { ActionQueue } from './queue.js';
import { secureAreas } from './redact.js';
import type { CallResult } from './result.js';
import { explainMissingApp, explainUnreadable, readabilityCheck, readWithContent } from './readability.js';
import { DEFAULT_SETTLE, settle, type SettleOptions } from './settle.js';
import { runTransaction, type TransactionOptions } from './call/callLifecycle.js';
import { formatTree } from './treeFormat.js';
import { LIMITS, checkPid, checkWindowId } from './limits.js';
import { checkKillTarget, checkLaunchRequest, killApp, launchApp, protectedPids, type KillOutcome, type LaunchArguments, type LaunchOutcome } from './appLifecycle.js';
import { DEFAULT_SETTINGS, SettingsStore, type ConfigReport } from './settings.js';

/** Tool names used for open/refresh artifacts and results (the MCP tools of the same name). */
export const OPEN_TOOL = 'open_application_and_traverse';
export const REFRESH_TOOL = 'refresh_traversal';
export const FRONT_TOOL = 'bring_to_front';
export const LAUNCH_TOOL = 'launch_app';
export const KILL_TOOL = 'kill_app';
/** The small inspection reads, as the feed and the call record name them. */
export const INSPECTION = {
  apps: 'list_applications',
  windows: 'list_windows',
  zoom: 'zoom',
  displays: 'get_screen_size',
  cursor: 'get_cursor_position',
  permissions: 'check_permissions',
} as const;

export const DEFAULT_GRACE_MS = DEFAULT_SETTINGS.grace_ms;
/** Longest wait for a just-started app to stop changing before its first tree is read. */
export const LAUNCH_SETTLE_CAP_MS = 3_000;
export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = { maxDepth: 64, maxElements: 10_000, maxMs: 5_000 };

export interface RefreshOptions {
  /** Only this window of the app: its part of the tree, and its capture. */
  windowId?: number;
}

/** What a read call reads: the app, and the one window when the caller named one. */
interface ReadTarget {
  pid: number;
  app: string;
  verb: string;
  window?: WindowInfo;
}

export const PAUSED_MESSAGE = 'Agent control is paused by the person in the Tandem menu.';

export interface EngineOptions {
  /**
   * Where tree/diff files and screenshots go: an open store, or options to open one on first use.
   * A store that can only write (tests) serves no resources.
   */
  artifacts: ArtifactWriter | ArtifactStoreOptions;
  /**
   * The person's settings (watchdog, grace, artifact retention, inline defaults, tool profile),
   * read at every call so a change applies to the next one. Default: defaults only, in memory.
   */
  settings?: SettingsStore;
  /** Fixes the watchdog whatever the settings say (tests; unbounded). The host uses `settings`. */
  watchdogMs?: number;
  /** Fixes the late-Esc grace whatever the settings say (tests; unbounded). */
  graceMs?: number;
  /** Settle policy after the steps (see DEFAULT_SETTLE). */
  settle?: Partial<SettleOptions>;
  /** Traversal caps (defaults: depth 64, 10 000 elements, 5 000 ms). */
  snapshotLimits?: Partial<SnapshotLimits>;
  /** Clock (tests). */
  now?: () => number;
}

type ArtifactWriter = Pick<ArtifactStore, 'writeCall'> & Partial<Pick<ArtifactStore, 'listFiles' | 'readFile'>>;

function isArtifactWriter(value: EngineOptions['artifacts']): value is ArtifactWriter {
  return typeof (value as Partial<ArtifactStore>).writeCall === 'function';
}

export type LaunchAppResult = LaunchOutcome & { durationMs: number };
export type KillAppResult = KillOutcome & { file?: string; fileBytes?: number; screenshot?: string; durationMs: number };

export class Engine implements TandemEngine {
  private readonly queue = new ActionQueue();
  private readonly guard: GuardPolicy;
  private readonly snapshots = new SnapshotCache();
  /** The last zoom image of each app, for clicks given in its pixels. */
  private readonly zooms = new Map<number, ZoomView>();
  private readonly events = new TypedEmitter<EngineEventMap>((error) => {
    console.error('[tandem] an engine event listener threw:', error);
  });
  private readonly settings: SettingsStore;
  private artifacts: Promise<ArtifactWriter> | null = null;
  private nextCallId = 1;
  private isPaused = false;
  private closed = false;
  /** The call being run (the queue runs one at a time). */
  private running: CallRecord | null = null;

  constructor(
    private readonly desktop: Desktop,
    private readonly options: EngineOptions,
  ) {
    if (options.watchdogMs !== undefined && !(options.watchdogMs > 0)) throw new TandemError('bad-input', `watchdogMs must be a positive number of milliseconds (got ${options.watchdogMs}).`);
    this.settings = options.settings ?? new SettingsStore();
    this.guard = new GuardPolicy(desktop, () => this.transactionOptions.watchdogMs);
  }

  /** The call-time options: the settings as they are now (a set_config applies to the next call). */
  private get transactionOptions(): TransactionOptions {
    const settings = this.settings.current();
    return {
      watchdogMs: this.options.watchdogMs ?? settings.watchdog_ms,
      graceMs: this.options.graceMs ?? settings.grace_ms,
      settle: { ...DEFAULT_SETTLE, ...this.options.settle },
      snapshotLimits: { ...DEFAULT_SNAPSHOT_LIMITS, ...this.options.snapshotLimits },
      now: this.options.now ?? Date.now,
    };
  }

  async getConfig(): Promise<ConfigReport> {
    this.assertOpen();
    return this.settings.report();
  }

  /** Validates and persists `changes`; they apply from the next call on, for every connection. */
  async setConfig(changes: unknown): Promise<ConfigReport> {
    this.assertOpen();
    return this.settings.update(changes);
  }

  get paused(): boolean {
    return this.isPaused;
  }

  get current(): { callId: number; tool: string; app?: string } | null {
    const running = this.running;
    if (!running) return null;
    return running.app === undefined ? { callId: running.callId, tool: running.tool } : { callId: running.callId, tool: running.tool, app: running.app };
  }

  setPaused(paused: boolean): void {
    this.isPaused = paused;
    this.events.emit('log', { message: paused ? 'agent control paused by the user' : 'agent control resumed' });
  }

  on<K extends EngineEventName>(event: K, listener: (payload: EngineEventMap[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  async act(request: ActRequest, context: CallContext = {}): Promise<CallResult> {
    this.assertOpen();
    this.assertNotPaused();
    return this.queue.run(async () => {
      this.assertNotPaused();
      return this.recorded(request.tool, context, (record) =>
        runTransaction(
          { desktop: this.desktop, guard: this.guard, snapshots: this.snapshots, options: this.transactionOptions, zoomView: (pid) => this.zooms.get(pid) },
          { record, signal: context.signal },
          request,
        ),
      );
    }, context.signal);
  }

  async open(identifier: string, context: CallContext = {}): Promise<CallResult> {
    this.assertOpen();
    if (typeof identifier !== 'string' || identifier.trim() === '') {
      throw new TandemError('bad-input', 'Send the app to open: a name ("Calculator"), a bundle/desktop id or a path.');
    }
    if (identifier.length > LIMITS.queryChars) throw new TandemError('bad-input', `The app identifier is ${identifier.length} characters long; at most ${LIMITS.queryChars}.`);
    return this.queue.run(
      () =>
        this.recorded(OPEN_TOOL, context, (record) => this.readCall(record, context, { identifier }, undefined, async (progress) => {
          const opened = await this.desktop.openApp(identifier.trim(), progress);
          // A window that just appeared is still being filled (a browser loading its page, an
          // office suite building its toolbars): read it once it has been quiet for a moment.
          if (!opened.reused) await settle(this.desktop, opened.pid, { ...this.transactionOptions.settle, capMs: LAUNCH_SETTLE_CAP_MS }, progress);
          return { pid: opened.pid, app: opened.name, verb: opened.reused ? 'already running' : 'opened' };
        })),
      context.signal,
    );
  }

  async refresh(pid: number, context: CallContext = {}, options: RefreshOptions = {}): Promise<CallResult> {
    this.assertOpen();
    checkPid(pid);
    const { windowId } = options;
    checkWindowId(windowId);
    return this.queue.run(
      () =>
        this.recorded(REFRESH_TOOL, context, (record) =>
          this.readCall(record, context, windowId === undefined ? { pid } : { pid, windowId }, pid, async (progress) => {
            const app = await this.requireApp(pid, progress);
            const window = windowId === undefined ? undefined : requireWindow(await this.desktop.windows(pid, progress), pid, windowId);
            return { pid, app: app.name, verb: 'read', ...(window ? { window } : {}) };
          }),
        ),
      context.signal,
    );
  }

  /**
   * Brings pid (or one of its windows) to the front and reads its tree. Not guarded and not put
   * back: changing which app is in front is the point. Refused while the person has paused agents.
   */
  async bringToFront(pid: number, windowId: number | undefined, context: CallContext = {}): Promise<CallResult> {
    this.assertOpen();
    this.assertNotPaused();
    checkPid(pid);
    checkWindowId(windowId);
    return this.queue.run(
      () =>
        this.recorded(FRONT_TOOL, context, (record) =>
          this.readCall(record, context, { pid, windowId }, pid, async (progress) => {
            this.assertNotPaused();
            const app = await this.requireApp(pid, progress);
            if (windowId !== undefined) {
              const windows = await this.desktop.windows(pid, progress);
              if (!windows.some((window) => window.windowId === windowId)) {
                throw new TandemError('not-found', `pid ${pid} has no window ${windowId}; its windows: ${windows.map((window) => window.windowId).join(', ') || 'none'}.`, { reason: 'no-window', windowId, windows: windows.map((window) => window.windowId) });
              }
            }
            const confirmed = await this.desktop.activate(pid, windowId, progress);
            return { pid, app: app.name, verb: confirmed ? 'brought to the front' : 'asked to come to the front (not confirmed: the window manager may have declined)' };
          }),
        ),
      context.signal,
    );
  }

  /**
   * Starts an app with arguments (launch_app): not guarded, nothing put back but the front when
   * `background` asks for it (see appLifecycle.ts for why). Refused while paused.
   */
  async launchApp(args: LaunchArguments, context: CallContext = {}): Promise<LaunchAppResult> {
    this.assertOpen();
    this.assertNotPaused();
    const request = checkLaunchRequest(args);
    return this.queue.run(
      () =>
        this.recorded(LAUNCH_TOOL, context, async (record) => {
          this.assertNotPaused();
          await this.guard.refuseAfterLateEscape();
          const progress = createProgress({ signal: context.signal, timeoutMs: this.transactionOptions.watchdogMs, log: record.log, now: this.transactionOptions.now });
          record.start(undefined, { [request.kind]: request.value, args: request.args, urls: request.urls, background: request.background, new_instance: request.newInstance });
          try {
            const outcome = await launchApp(this.desktop, request, this.transactionOptions.settle, progress);
            record.app = outcome.app.name;
            const verb = outcome.app.alreadyRunning ? 'already running' : outcome.app.handedOver ? 'handed to the running instance' : 'started';
            const call = record.finish(this.lifecycleCall(LAUNCH_TOOL, outcome.app.pid, outcome.app.name, `${outcome.app.name} ${verb}: ${outcome.windows.length} window(s)`));
            return { ...outcome, durationMs: call.durationMs };
          } catch (error) {
            const failure = toTandemError(error);
            record.finish(this.failedReadResult(LAUNCH_TOOL, undefined, failure));
            throw failure;
          }
        }),
      context.signal,
    );
  }

  /**
   * Closes an app (kill_app): politely by default — the app's answer, a "Save changes?" question,
   * is read and handed back, never answered — or by signals with `force`. Refuses pid 1, Tandem,
   * the processes it runs under, the connected client, and pids without a window.
   */
  async killApp(pid: number, force: boolean, context: CallContext = {}): Promise<KillAppResult> {
    this.assertOpen();
    this.assertNotPaused();
    checkPid(pid);
    return this.queue.run(
      () =>
        this.recorded(KILL_TOOL, context, async (record) => {
          this.assertNotPaused();
          await this.guard.refuseAfterLateEscape();
          // Over a socket the client is another process tree: without its pid, nothing says which
          // processes are the person's MCP client, so nothing is closed.
          if (context.viaSocket && context.clientPid === undefined) {
            throw new TandemError('unsupported', "The connected client's process could not be identified (the socket gave no peer pid), so kill_app cannot tell which processes to spare.", { reason: 'client-unknown' });
          }
          const progress = createProgress({ signal: context.signal, timeoutMs: this.transactionOptions.watchdogMs, log: record.log, now: this.transactionOptions.now });
          // Refusals touch nothing: no events, no files.
          const protectedBy = await protectedPids(this.desktop, process.pid, context.clientPid);
          const target = await checkKillTarget(this.desktop, pid, protectedBy, progress);
          record.start(pid, { pid, force });
          record.app = target.app;
          try {
            const outcome = await killApp(this.desktop, { pid, ...target }, force, { snapshot: (of) => this.desktop.snapshot(of, this.transactionOptions.snapshotLimits, progress), settleOptions: this.transactionOptions.settle }, progress);
            let files: { file?: string; fileBytes?: number; screenshot?: string } = {};
            if (outcome.tree) {
              // element_index of the dialog's buttons works in the next call (a click on "Save").
              this.snapshots.set(outcome.tree);
              const screenshot = await this.desktop.screenshot({ windowId: outcome.dialog?.windowId ?? outcome.windows[0]?.windowId, pid }, progress).catch(() => undefined);
              const written = await record.writeFiles({ text: formatTree(outcome.tree), screenshot, covered: secureAreas(outcome.tree.elements) });
              files = { file: written.textPath, fileBytes: written.textBytes, screenshot: written.pngPath };
            }
            const call = record.finish({ ...this.lifecycleCall(KILL_TOOL, pid, target.app, `${target.app} ${outcome.status}${outcome.dialog ? `: ${outcome.dialog.title}` : ''}`), ...files });
            return { ...outcome, ...files, durationMs: call.durationMs };
          } catch (error) {
            const failure = toTandemError(error);
            record.finish(this.failedReadResult(KILL_TOOL, pid, failure));
            throw failure;
          }
        }),
      context.signal,
    );
  }

  /** The feed's record of a launch or a close: no tree read, no input sent. */
  private lifecycleCall(tool: string, pid: number, app: string, summary: string): Omit<CallResult, 'durationMs'> {
    return { ...this.emptyResult(tool, pid), app, summary };
  }

  /** The app with this pid, or the not-accessible / unknown-app error that says what to do. */
  private async requireApp(pid: number, progress: Progress): Promise<RunningApp> {
    const app = await this.desktop.appForPid(pid, progress);
    if (app) return app;
    throw await explainMissingApp(this.desktop, pid, progress);
  }

  async listApps(context: CallContext = {}): Promise<RunningApp[]> {
    this.assertOpen();
    return this.inspected(INSPECTION.apps, context, undefined, {}, (progress) => this.desktop.listApps(progress), (apps) => `${apps.length} running apps`);
  }

  async listWindows(pid?: number, onScreenOnly = false, context: CallContext = {}): Promise<WindowInfo[]> {
    this.assertOpen();
    if (pid !== undefined) checkPid(pid);
    return this.inspected(
      INSPECTION.windows,
      context,
      pid,
      { pid, onScreenOnly },
      async (progress) => {
        const windows = await this.desktop.windows(pid, progress);
        return frontmostFirst(onScreenOnly ? windows.filter((window) => window.onScreen !== false) : windows);
      },
      (windows) => `${windows.length} windows`,
    );
  }

  /**
   * A crop of one of pid's windows (window_id, else its frontmost) around `region` (window-local
   * points) at full resolution, password fields painted over; remembered for clicks in its pixels.
   * Read-only: no guard, nothing moves.
   */
  async zoom(pid: number, windowId: number | undefined, region: Rect, context: CallContext = {}): Promise<ZoomImage> {
    this.assertOpen();
    checkPid(pid);
    const numbers = [region?.x, region?.y, region?.width, region?.height];
    if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= LIMITS.coordinate) || !(region.width > 0 && region.height > 0)) {
      throw new TandemError('bad-input', 'region needs x, y (window-local points) and a positive width and height, each within ±100,000.');
    }
    return this.queue.run(
      () =>
        this.inspected(
          INSPECTION.zoom,
          context,
          pid,
          { pid, windowId, region },
          async (progress) => {
            await this.requireApp(pid, progress);
            const window = chooseWindow(await this.desktop.windows(pid, progress), pid, windowId);
            const [screenshot, tree] = await Promise.all([
              this.desktop.screenshot({ windowId: window.windowId, pid }, progress),
              this.desktop.snapshot(pid, this.transactionOptions.snapshotLimits, progress),
            ]);
            const image = await zoomInto(screenshot, window.bounds, region, secureAreas(tree.elements), { pid, windowId: window.windowId });
            this.zooms.set(pid, image.view);
            return image;
          },
          (image) => `zoomed window ${image.view.windowId}: ${image.view.width}×${image.view.height} pixels`,
        ),
      context.signal,
    );
  }

  async displays(context: CallContext = {}): Promise<Display[]> {
    this.assertOpen();
    return this.inspected(INSPECTION.displays, context, undefined, {}, (progress) => this.desktop.displays(progress), (displays) => `${displays.length} displays`);
  }

  async cursorPosition(context: CallContext = {}): Promise<Point> {
    this.assertOpen();
    return this.inspected(INSPECTION.cursor, context, undefined, {}, () => this.desktop.cursorPosition(), (point) => `cursor at ${point.x},${point.y}`);
  }

  async checkPermissions(context: CallContext = {}): Promise<PermissionCheck[]> {
    this.assertOpen();
    return this.inspected(
      INSPECTION.permissions,
      context,
      undefined,
      {},
      async (progress) => {
        const [checks, readable] = await Promise.all([this.desktop.checkPermissions(progress), readabilityCheck(this.desktop, progress, process.pid)]);
        return [...checks, readable];
      },
      (checks) => `${checks.filter((check) => check.state === 'granted').length} of ${checks.length} checks granted`,
    );
  }

  async listArtifacts(limit?: number): Promise<ArtifactFile[]> {
    this.assertOpen();
    const store = await this.artifactStore();
    return store.listFiles ? store.listFiles(limit) : [];
  }

  async readArtifact(name: string): Promise<Buffer> {
    this.assertOpen();
    const store = await this.artifactStore();
    if (!store.readFile) throw new TandemError('unsupported', 'This engine writes its artifacts somewhere it cannot read them back.');
    return store.readFile(name);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Let the running call finish its restore before the backend's connections go away, and
    // give the person their input back now rather than at the end of a grace period.
    await this.queue.run(async () => undefined).catch(() => undefined);
    await this.guard.endLinger();
    this.events.clear();
    await this.desktop.close();
  }

  // — internals —

  private assertOpen(): void {
    if (this.closed) throw new TandemError('internal', 'The Tandem engine is closed.');
  }

  private assertNotPaused(): void {
    if (this.isPaused) throw new TandemError('paused', PAUSED_MESSAGE);
  }

  private readProgress(signal?: AbortSignal): Progress {
    const options = this.transactionOptions;
    return createProgress({ signal, timeoutMs: options.watchdogMs, now: options.now });
  }

  private artifactStore(): Promise<ArtifactWriter> {
    const configured = this.options.artifacts;
    this.artifacts ??= isArtifactWriter(configured)
      ? Promise.resolve(configured)
      : ArtifactStore.open({
          retention: () => {
            const settings = this.settings.current();
            return { maxCalls: settings.artifact_max_calls, maxBytes: settings.artifact_max_bytes };
          },
          ...configured,
        });
    // A failed open is retried on the next call rather than remembered forever.
    this.artifacts.catch(() => {
      this.artifacts = null;
    });
    return this.artifacts;
  }

  /**
   * Opens the call's record (its id, events and files, callRecord.ts) and runs `body` in it:
   * every call, read-only or acting, goes through here.
   */
  private async recorded<T>(tool: string, context: CallContext, body: (record: CallRecord) => Promise<T>): Promise<T> {
    const record = this.newRecord(tool, context);
    this.running = record;
    try {
      return await body(record);
    } finally {
      this.running = null;
    }
  }

  /**
   * A small inspection read in its own call record: started and finished events (the feed and
   * the caller's progress hear of it), a one-line summary, no files. It does not become the
   * engine's `current` call: reads that do not queue may run while an action does.
   */
  private async inspected<T>(
    tool: string,
    context: CallContext,
    pid: number | undefined,
    args: Record<string, unknown>,
    read: (progress: Progress) => Promise<T>,
    describe: (value: T) => string,
  ): Promise<T> {
    const record = this.newRecord(tool, context);
    record.start(pid, args);
    try {
      const value = await read(this.readProgress(context.signal));
      record.finish({ ...this.emptyResult(tool, pid), summary: describe(value) });
      return value;
    } catch (error) {
      const failure = toTandemError(error);
      record.finish(this.failedReadResult(tool, pid, failure));
      throw failure;
    }
  }

  private newRecord(tool: string, context: CallContext): CallRecord {
    return new CallRecord(this.nextCallId++, tool, context.clientId, {
      emit: (event, payload) => {
        this.events.emit(event, payload);
        try {
          context.onEvent?.(event, payload);
        } catch {
          // A caller's listener never breaks the call (as with the emitter's own).
        }
      },
      now: this.transactionOptions.now,
      artifacts: () => this.artifactStore(),
    });
  }

  /**
   * open/refresh: resolve the app, read its tree (no guard, nothing moves), write the tree file
   * and a screenshot. Failures are thrown (nothing was disturbed) after a call-finished event.
   */
  private async readCall(
    record: CallRecord,
    context: CallContext,
    args: Record<string, unknown>,
    pid: number | undefined,
    resolve: (progress: Progress) => Promise<ReadTarget>,
  ): Promise<CallResult> {
    const options = this.transactionOptions;
    const now = options.now;
    const log = record.log;
    const progress = createProgress({ signal: context.signal, timeoutMs: options.watchdogMs, log, now });
    record.start(pid, args);
    try {
      const target = await resolve(progress);
      record.app = target.app;
      // The window is captured while its tree is read: the two wait on different processes
      // (the X server, the app), so the answer waits for the longer one only.
      const window = target.window;
      const capturing = this.desktop.screenshot(window ? { pid: target.pid, windowId: window.windowId } : { pid: target.pid }, progress).catch((error: unknown) => {
        if (progress.signal.aborted) throw error;
        log(`no screenshot: ${toTandemError(error).message}`);
        return undefined;
      });
      const limits = options.snapshotLimits;
      const whole = await readWithContent(this.desktop, target.pid, limits, progress).finally(() => capturing.catch(() => {}));
      // Windows on screen with nothing readable in them: say so, rather than hand over an empty tree.
      const unreadable = await explainUnreadable(this.desktop, target.pid, whole, progress);
      if (unreadable) throw unreadable;
      const snapshot = window ? this.windowPart(whole, window) : whole;
      this.snapshots.set(snapshot);
      const screenshot: Screenshot | undefined = await capturing;
      const written = await record.writeFiles({ text: formatTree(snapshot), screenshot, covered: secureAreas(snapshot.elements) });
      return record.finish({ ...this.treeResult(record.tool, target, snapshot), file: written.textPath, fileBytes: written.textBytes, screenshot: written.pngPath });
    } catch (error) {
      const failure = toTandemError(error);
      record.finish(this.failedReadResult(record.tool, pid, failure));
      throw failure;
    }
  }

  /** One window's part of the tree (its element_index values are the ones handed out). */
  private windowPart(snapshot: TreeSnapshot, window: WindowInfo): TreeSnapshot {
    const part = windowSubtree(snapshot, window);
    if (part) return part;
    const frames = snapshot.elements.filter((el) => el.depth === 1).map((el) => ({ role: el.role, name: el.text }));
    throw new TandemError('not-found', `window ${window.windowId} of pid ${snapshot.pid} is not in its accessibility tree.`, {
      pid: snapshot.pid,
      windowId: window.windowId,
      reason: 'no-accessible-window',
      title: window.title,
      frames,
    });
  }

  private treeResult(tool: string, target: { pid: number; app: string; verb: string }, snapshot: TreeSnapshot): Omit<CallResult, 'durationMs'> {
    const visible = snapshot.elements.filter((el) => el.visible).length;
    return {
      ...this.emptyResult(tool, target.pid),
      app: target.app,
      elementCount: snapshot.elements.length,
      visibleElements: visible,
      summary: `${target.app} ${target.verb}: ${snapshot.elements.length} elements, ${visible} visible`,
      ...(snapshot.truncated ? { truncated: { pid: target.pid, ...snapshot.truncated } } : {}),
    };
  }

  /** A read that touched no tree: nothing counted, nothing moved. */
  private emptyResult(tool: string, pid: number | undefined): Omit<CallResult, 'durationMs'> {
    return {
      status: 'ok',
      tool,
      pid: pid ?? 0,
      app: '',
      elementCount: 0,
      visibleElements: 0,
      summary: '',
      textChanges: [],
      stepsDone: [],
      stepsTotal: 0,
      humanInputBlocked: 0,
      watchdogFired: false,
      restore: { cursor: true, frontmost: 'not-needed' },
    };
  }

  private failedReadResult(tool: string, pid: number | undefined, failure: TandemError): Omit<CallResult, 'durationMs'> {
    return {
      ...this.emptyResult(tool, pid),
      status: failure.code === 'cancelled' ? 'cancelled' : 'error',
      summary: `failed: ${failure.message.split('\n')[0]}`,
      error: errorFacts(failure),
    };
  }
}
