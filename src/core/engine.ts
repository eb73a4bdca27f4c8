// The engine: what the MCP tools, the CLI and the Electron app call (TandemEngine). It owns the
// one queue, the one guard and the element index of a desktop, and runs every disruptive call
// through the call lifecycle (call/callLifecycle.ts). Read-only calls never engage the guard or
// move anything (readCall.ts); launch_app and kill_app run in lifecycleCalls.ts.

import { ArtifactStore, isArtifactWriter, type ArtifactFile, type ArtifactStoreOptions, type ArtifactWriter } from './artifacts/artifacts.js';
import { CallRecord } from './call/callRecord.js';
import type { Desktop, SnapshotLimits } from './desktop.js';
import { windowAwareDesktop } from './tree/windowAwareDesktop.js';
import { SnapshotCache } from './tree/elementIndex.js';
import { createRevisionDeps } from './revisions/revisionDeps.js';
import type { ActRequest, CallContext, EngineEventMap, EngineEventName, TandemEngine } from './engineApi.js';
import { TandemError } from './errors.js';
import { TypedEmitter } from './events.js';
import { GuardPolicy } from './guard.js';
import type { Display, PermissionCheck, Point, Rect, RunningApp, WindowInfo } from './model.js';
import { frontmostFirst, requireWindow } from './tree/windowChoice.js';
import type { ZoomImage, ZoomView } from './artifacts/zoom.js';
import { createProgress, type Progress } from './progress.js';
import { ActionQueue } from './queue.js';
import type { CallResult } from './call/result.js';
import { explainMissingApp, readabilityCheck } from './apps/readability.js';
import { settle } from './call/settle.js';
import { callOptions, type PinnedCallOptions } from './call/callOptions.js';
import { runTransaction, type TransactionDeps, type TransactionOptions } from './call/callLifecycle.js';
import { INSPECTION, checkZoomRegion, inspect, zoomRead } from './call/inspection.js';
import { KILL_TOOL, LAUNCH_TOOL, recordedKill, recordedLaunch, type KillAppResult, type LaunchAppResult } from './apps/lifecycleCalls.js';
import { readCall } from './call/readCall.js';
import { bringToFront } from './call/bringToFront.js';
import { LIMITS, checkPid, checkWindowId } from './limits.js';
import { openApp } from './apps/appArrival.js';
import { checkLaunchRequest, type LaunchArguments } from './apps/appLifecycle.js';
import { DEFAULT_SETTINGS, SettingsStore, type ConfigReport } from './settings.js';

/** Tool names used for open/refresh artifacts and results (the MCP tools of the same name). */
export const OPEN_TOOL = 'open_application_and_traverse';
export const REFRESH_TOOL = 'refresh_traversal';
export const FRONT_TOOL = 'bring_to_front';

export const DEFAULT_GRACE_MS = DEFAULT_SETTINGS.grace_ms;
/** Longest wait for a just-started app to stop changing before its first tree is read. */
export const LAUNCH_SETTLE_CAP_MS = 3_000;
export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = { maxDepth: 64, maxElements: 10_000, maxMs: 5_000 };

export interface RefreshOptions {
  /** Only this window of the app: its part of the tree, and its capture. */
  windowId?: number;
}

export const PAUSED_MESSAGE = 'Agent control is paused by the person in the Tandem menu.';

/** Besides these, the call options it pins over the settings (core/call/callOptions.ts). */
export interface EngineOptions extends PinnedCallOptions {
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
}

export { INSPECTION } from './call/inspection.js';
export { KILL_TOOL, LAUNCH_TOOL, type KillAppResult, type LaunchAppResult } from './apps/lifecycleCalls.js';

export class Engine implements TandemEngine {
  private readonly queue = new ActionQueue();
  private readonly guard: GuardPolicy;
  private readonly snapshots = new SnapshotCache();
  private readonly revisions = createRevisionDeps();
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

  /** The backend, its trees seen among the desktop's windows (visible, blocked by a modal dialog). */
  private readonly desktop: Desktop;

  constructor(
    desktop: Desktop,
    private readonly options: EngineOptions,
  ) {
    this.desktop = windowAwareDesktop(desktop);
    if (options.watchdogMs !== undefined && !(options.watchdogMs > 0)) throw new TandemError('bad-input', `watchdogMs must be a positive number of milliseconds (got ${options.watchdogMs}).`);
    this.settings = options.settings ?? new SettingsStore();
    this.guard = new GuardPolicy(desktop, () => this.transactionOptions.watchdogMs);
  }

  /** The call-time options: the settings as they are now (a set_config applies to the next call). */
  private get transactionOptions(): TransactionOptions {
    return callOptions(this.settings.current(), this.options, DEFAULT_SNAPSHOT_LIMITS);
  }

  /** What a call needs of the engine, with the options as they are now. */
  private get callDeps(): TransactionDeps {
    return { desktop: this.desktop, guard: this.guard, snapshots: this.snapshots, ...this.revisions, options: this.transactionOptions, zoomView: (pid) => this.zooms.get(pid) };
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
        runTransaction(this.callDeps, { record, signal: context.signal }, request),
      );
    }, context.signal);
  }

  async open(identifier: string, context: CallContext = {}): Promise<CallResult> {
    this.assertOpen();
    if (typeof identifier !== 'string' || identifier.trim() === '') {
      throw new TandemError('bad-input', 'No app to open was named.', { reason: 'no-app-named' });
    }
    if (identifier.length > LIMITS.queryChars) throw new TandemError('bad-input', `The app identifier is ${identifier.length} characters long; at most ${LIMITS.queryChars}.`);
    return this.queue.run(
      () =>
        this.recorded(OPEN_TOOL, context, (record) => readCall(this.callDeps, record, context, { identifier }, undefined, async (progress) => {
          const opened = await openApp(this.desktop, identifier.trim(), progress);
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
          readCall(this.callDeps, record, context, windowId === undefined ? { pid } : { pid, windowId }, pid, async (progress) => {
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
          readCall(this.callDeps, record, context, { pid, windowId }, pid, async (progress) => {
            this.assertNotPaused();
            const app = await this.requireApp(pid, progress);
            return bringToFront(this.desktop, pid, app.name, windowId, progress);
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
          return recordedLaunch(this.callDeps, record, request, context);
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
          return recordedKill(this.callDeps, record, pid, force, context);
        }),
      context.signal,
    );
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
   * A crop of one of pid's windows (window_id, else its frontmost) around `region` (screen
   * points, as the tree prints them) at full resolution, password fields painted over; remembered for clicks in its pixels.
   * Read-only: no guard, nothing moves.
   */
  async zoom(pid: number, windowId: number | undefined, region: Rect, context: CallContext = {}): Promise<ZoomImage> {
    this.assertOpen();
    checkPid(pid);
    checkZoomRegion(region);
    return this.queue.run(
      () =>
        this.inspected(
          INSPECTION.zoom,
          context,
          pid,
          { pid, windowId, region },
          async (progress) => {
            await this.requireApp(pid, progress);
            const image = await zoomRead(this.desktop, this.transactionOptions.snapshotLimits, pid, windowId, region, progress);
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

  async requestPermission(id: string): Promise<void> {
    this.assertOpen();
    await this.desktop.requestPermission?.(id, this.readProgress());
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

  /** A small inspection read in its own call record (inspection.ts). */
  private async inspected<T>(
    tool: string,
    context: CallContext,
    pid: number | undefined,
    args: Record<string, unknown>,
    read: (progress: Progress) => Promise<T>,
    describe: (value: T) => string,
  ): Promise<T> {
    return inspect(this.newRecord(tool, context), pid, args, () => this.readProgress(context.signal), read, describe);
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
}
