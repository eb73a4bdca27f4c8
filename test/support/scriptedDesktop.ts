/**
 * ScriptedDesktop — an in-memory `Desktop` for tests (never shipped, never evidence that a feature
 * works on a real OS). It keeps live element trees per app, routes synthetic input to them, logs
 * every primitive in order, and lets a test play the human at the keyboard.
 *
 * ```ts
 * const desktop = new ScriptedDesktop({
 *   apps: [
 *     { pid: 100, name: 'Finder', tree: { role: 'Application', children: [] } },
 *     { pid: 200, name: 'Counter', tree: {
 *         role: 'Application', text: 'Counter', children: [
 *           { role: 'Window', text: 'Counter', bounds: { x: 0, y: 0, width: 400, height: 300 }, children: [
 *             { role: 'PushButton', text: 'Count: 0', bounds: { x: 10, y: 10, width: 100, height: 30 },
 *               onClick: ({ node }) => node.setText(`Count: ${Number(node.text.split(' ')[1]) + 1}`) },
 *             { role: 'PasswordText', secure: true, bounds: { x: 10, y: 50, width: 200, height: 30 } },
 *             { role: 'List', scrollable: { lineHeight: 20 }, bounds: { x: 10, y: 100, width: 200, height: 100 },
 *               children: items },   // child bounds in content coordinates; they move as the list scrolls
 *           ] },
 *         ] } },
 *   ],
 *   frontmostPid: 100,
 *   cursor: { x: 5, y: 5 },
 * });
 * desktop.calls;     // ['app-for-pid 200', 'frontmost', 'cursor', 'snapshot 200', 'guard:engage', 'activate 200', 'click 60,25', …]
 * desktop.actions();                   // calls without the reads (snapshot, frontmost, cursor, windows…)
 * desktop.guardEngaged;                // true while the engine holds the guard
 * desktop.frontmostPid; desktop.cursor;
 * desktop.human.pressEscape();         // reaches the guard's listener only while it is engaged
 * desktop.human.input('pointer');
 * desktop.when('click', () => desktop.human.pressEscape(), { once: true }); // react to a logged call (prefix match)
 * desktop.behave('typeText', { hang: true });           // rejects only when progress.signal aborts
 * desktop.behave('click', { hang: 'ignore-abort' });    // never settles, like a wedged native call
 * desktop.behave('snapshot', { delayMs: 50 });          // or { fail: new TandemError('app-gone', …) }, once: true
 * desktop.behave('engageGuard', { delayMs: 50, ignoreAbort: true }); // finishes late even if aborted
 * desktop.behave('engageGuard', { fail: new Error('grab refused') });
 * desktop.startApp({ pid: 300, name: 'Save Panel', tree }, { frontmost: true }); // a handoff, e.g. from onClick
 * desktop.quitApp(200);                // later primitives on pid 200 fail with 'app-gone'
 * desktop.find(200, 'Count: 1');       // the live node (text or identity), for assertions/mutations
 * desktop.secretOf(node);              // what was typed into a secure field (the backend never reports it)
 * ```
 *
 * Input routing: a click hits the deepest visible node under the point in the frontmost app (then any
 * other app), moves the cursor there, focuses it when it is focusable and calls its `onClick`.
 * `typeText` appends to the focused node (a secure node keeps it privately) and calls `onType`;
 * `pressKey` calls the focused node's `onKey` and the desktop's `onKey`; `scroll` moves the offset
 * of the innermost `scrollable` node under the point (positive deltaY reveals later content);
 * `drag` calls the `onDrag` of the node under its start and leaves the cursor at its end.
 */

import { deflateSync, crc32 } from 'node:zlib';
import type {
  AppRequest,
  ClickOptions,
  Desktop,
  DragOptions,
  ElementActionRequest,
  EngagedGuard,
  GuardListener,
  KeyName,
  LaunchRequest,
  ProcessState,
  QuitRequest,
  PaintWatch,
  ResolvedApp,
  SettleOutcome,
  SnapshotLimits,
} from '../../src/core/desktop.js';
import { TandemError } from '../../src/core/errors.js';
import type {
  Display,
  ElementNode,
  Frontmost,
  Modifier,
  PermissionCheck,
  Point,
  Rect,
  LaunchedProcess,
  RunningApp,
  Screenshot,
  TreeSnapshot,
  WindowInfo,
} from '../../src/core/model.js';
import { throwIfAborted, type Progress } from '../../src/core/progress.js';

export interface ScriptedEventBase {
  node: ScriptedNode;
  desktop: ScriptedDesktop;
}

export interface ScriptedNodeSpec {
  role: string;
  text?: string;
  /** Screen rectangle; inside a `scrollable` node these are content coordinates at offset 0. */
  bounds?: Rect | null;
  visible?: boolean;
  enabled?: boolean;
  actionable?: boolean;
  secure?: boolean;
  focused?: boolean;
  selected?: boolean;
  identity?: string;
  /** Typing appends to `value` (default: true for text-like roles and secure fields). */
  editable?: boolean;
  /** What an editable node holds at first (its `text` is its label). */
  value?: string;
  /** insertText works on it (default: editable); false: like a terminal that only takes keys. */
  insertable?: boolean;
  /** setValue works on it (default: editable); false: like Chromium's inputs, which offer no EditableText. */
  settable?: boolean;
  /** A one-line field (reported as singleLine). */
  singleLine?: boolean;
  /** A click gives it focus (default: editable). */
  focusable?: boolean;
  /** Content scrolls by `lineHeight` points per wheel line; descendants outside its bounds become invisible. */
  scrollable?: { lineHeight: number };
  children?: ScriptedNodeSpec[];
  onClick?: (event: ScriptedEventBase & { point: Point; options: ClickOptions }) => void | Promise<void>;
  onType?: (event: ScriptedEventBase & { text: string }) => void | Promise<void>;
  /** A drag that started on this node (pressed over it), released at `to`. */
  onDrag?: (event: ScriptedEventBase & { from: Point; to: Point; options: DragOptions }) => void | Promise<void>;
  onKey?: (event: ScriptedEventBase & { key: KeyName; modifiers: Modifier[] }) => void | Promise<void>;
  /** Accessibility actions; without it, "press" runs onClick at the node's centre. */
  onAction?: (event: ScriptedEventBase & { action: string }) => void | Promise<void>;
}

export interface ScriptedAppSpec {
  pid: number;
  name: string;
  id?: string;
  tree: ScriptedNodeSpec;
  /**
   * What a polite quit request does: 'exit' (nothing unsaved), 'ask' (a "Save changes?" dialog
   * window appears: `dialog`), 'ignore'. Default 'exit'.
   */
  onQuit?: 'exit' | 'ask' | 'ignore';
  /** The window onQuit 'ask' adds (default: a Dialog "Save changes?" with Don't Save / Cancel / Save). */
  dialog?: ScriptedNodeSpec;
  /** SIGTERM is ignored (only SIGKILL ends it). */
  ignoresTerminate?: boolean;
  /** Installable: how long after its start its window appears (default at once; Infinity: never). */
  arrivesAfterMs?: number;
  /** Installable: the StartedApp's windowWaitMs (default: the call's deadline). */
  windowWaitMs?: number;
}

export interface ScriptedDesktopOptions {
  apps?: ScriptedAppSpec[];
  /** Apps resolveApp() can start (matched by name or id, case-insensitive). */
  installable?: ScriptedAppSpec[];
  frontmostPid?: number;
  cursor?: Point;
  screen?: Rect;
  /** What waitForQuiet answers (default 'quiet'). */
  settle?: SettleOutcome;
  /** Like GTK3: elements scrolled out of view report no geometry at all (bounds null). */
  hideOffscreenGeometry?: boolean;
  /** Parent of each pid, for processState (Tandem's own ancestry in kill_app tests). */
  parents?: Record<number, number>;
}

export type PrimitiveName =
  | 'listApps' | 'appForPid' | 'frontmost' | 'activate' | 'windows' | 'cursorPosition' | 'displays' | 'moveCursor'
  | 'resolveApp' | 'startApp' | 'lookAtApp' | 'snapshot' | 'performAction' | 'setValue' | 'insertText' | 'setSelected' | 'waitForQuiet' | 'launchedSince'
  | 'click' | 'pressKey' | 'typeText' | 'scroll' | 'drag' | 'screenshot' | 'engageGuard' | 'releaseGuard'
  | 'checkPermissions' | 'askToQuit' | 'signalProcess' | 'processState';

export interface PrimitiveBehavior {
  /** Resolve after this many ms (rejects early when the progress aborts). */
  delayMs?: number;
  /** true: pending until progress.signal aborts; 'ignore-abort': pending forever. */
  hang?: boolean | 'ignore-abort';
  /** Reject with this error. */
  fail?: Error;
  /** With delayMs: finish the delay even when the progress aborts (a native call that ignores it). */
  ignoreAbort?: boolean;
  /** Apply once, then forget. */
  once?: boolean;
}

const READ_CALLS = /^(list-apps|app-for-pid|frontmost|windows|cursor|snapshot|settle|launched-since|screenshot|permissions|displays|resolve|look)\b/;
const TEXT_ROLES = /text|entry|field|edit|search|combo/i;

let serial = 0;

export class ScriptedNode {
  role: string;
  /** The label (accessible name); a secure field keeps it. */
  text: string;
  /** What an editable, non-secure node holds (typing and set-value change it). */
  value: string;
  /** Unscrolled rectangle (content coordinates inside a scrollable ancestor). */
  bounds: Rect | null;
  visible: boolean;
  enabled: boolean;
  actionable: boolean;
  secure: boolean;
  selected?: boolean;
  focused: boolean;
  readonly identity: string;
  readonly editable: boolean;
  readonly focusable: boolean;
  readonly scrollable?: { lineHeight: number };
  /** Scroll offset in lines (only for scrollable nodes). */
  scrollOffset = 0;
  parent: ScriptedNode | null = null;
  children: ScriptedNode[] = [];
  /** Secure value: kept here only, never reported by snapshot(). */
  secret = '';
  readonly spec: ScriptedNodeSpec;

  constructor(spec: ScriptedNodeSpec, readonly app: ScriptedApp) {
    this.spec = spec;
    this.role = spec.role;
    this.text = spec.text ?? '';
    this.value = spec.value ?? '';
    this.bounds = spec.bounds ?? null;
    this.visible = spec.visible ?? true;
    this.enabled = spec.enabled ?? true;
    this.secure = spec.secure ?? false;
    this.editable = spec.editable ?? (this.secure || TEXT_ROLES.test(spec.role));
    this.focusable = spec.focusable ?? this.editable;
    this.actionable = spec.actionable ?? (Boolean(spec.onClick) || Boolean(spec.onAction) || /button|item|link|check|radio|tab/i.test(spec.role));
    this.selected = spec.selected;
    this.identity = spec.identity ?? `/scripted/${app.pid}/${++serial}`;
    this.scrollable = spec.scrollable;
    this.focused = spec.focused ?? false;
    for (const child of spec.children ?? []) this.append(child);
  }

  get attached(): boolean {
    let top: ScriptedNode | null = this.parent;
    if (!top) return this.app.root === this && !this.app.gone;
    while (top.parent) top = top.parent;
    return top === this.app.root && !this.app.gone;
  }

  setText(text: string): void {
    this.text = text;
  }

  append(spec: ScriptedNodeSpec): ScriptedNode {
    const child = new ScriptedNode(spec, this.app);
    child.parent = this;
    this.children.push(child);
    return child;
  }

  remove(): void {
    if (!this.parent) return;
    this.parent.children = this.parent.children.filter((c) => c !== this);
    this.parent = null;
  }

  focus(): void {
    for (const node of this.app.nodes()) node.focused = false;
    this.focused = true;
  }

  /** On-screen rectangle after the scroll offsets of its scrollable ancestors. */
  screenBounds(): Rect | null {
    if (!this.bounds) return null;
    let dy = 0;
    for (let p = this.parent; p; p = p.parent) if (p.scrollable) dy += p.scrollOffset * p.scrollable.lineHeight;
    return { ...this.bounds, y: this.bounds.y - dy };
  }

  /** Visible, and not scrolled out of any scrollable ancestor's viewport. */
  isShowing(): boolean {
    if (!this.visible) return false;
    const rect = this.screenBounds();
    for (let p = this.parent; p; p = p.parent) {
      if (!p.visible) return false;
      if (p.scrollable && rect) {
        const view = p.screenBounds();
        if (view && (rect.y + rect.height <= view.y || rect.y >= view.y + view.height)) return false;
      }
    }
    return true;
  }

  centre(): Point {
    const rect = this.screenBounds();
    if (!rect) throw new Error(`node ${this.role} "${this.text}" has no bounds`);
    return { x: Math.round(rect.x + rect.width / 2), y: Math.round(rect.y + rect.height / 2) };
  }
}

export class ScriptedApp {
  readonly root: ScriptedNode;
  gone = false;
  constructor(
    readonly pid: number,
    readonly name: string,
    readonly id: string | undefined,
    tree: ScriptedNodeSpec,
  ) {
    this.root = new ScriptedNode(tree, this);
  }

  *nodes(): Generator<ScriptedNode> {
    const stack = [this.root];
    while (stack.length) {
      const node = stack.pop()!;
      yield node;
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
  }

  focusedNode(): ScriptedNode | undefined {
    for (const node of this.nodes()) if (node.focused) return node;
    return undefined;
  }

  windowNodes(): ScriptedNode[] {
    return this.root.children.filter((c) => /window|frame|dialog/i.test(c.role));
  }
}

interface CallHook {
  prefix: string;
  run: (call: string) => void;
  once: boolean;
}

function rectContains(rect: Rect, point: Point): boolean {
  return point.x >= rect.x && point.x < rect.x + rect.width && point.y >= rect.y && point.y < rect.y + rect.height;
}

/** A solid grey PNG, so artifact code gets a real image to draw on. */
function solidPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.alloc(1 + width * 3, 0xc0);
  row[0] = 0; // filter: none
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const SCREENSHOT_SCALE = 0.25;

export class ScriptedDesktop implements Desktop {
  readonly platform = 'test' as const;
  readonly apps = new Map<number, ScriptedApp>();
  /** Every primitive call, in order ("click 60,25", "type hello", "guard:engage"…). */
  readonly calls: string[] = [];
  frontmostPid: number | null;
  cursor: Point;
  readonly screen: Rect;
  settleOutcome: SettleOutcome;
  /** What watchPaint answers: null (default) where paints cannot be seen, or a test's own watch. */
  paintWatch: ((pid: number) => PaintWatch) | null = null;
  /** The next this-many snapshots report that the app changed while it was being read. */
  changingReads = 0;
  /** When false, activate() does nothing and answers false (a window manager refusing focus). */
  activationAllowed = true;
  /** Called for every key press after the focused node's onKey. */
  onKey?: (event: { desktop: ScriptedDesktop; key: KeyName; modifiers: Modifier[] }) => void | Promise<void>;
  guardEngaged = false;
  /** How many times the guard was engaged in total. */
  guardEngagements = 0;
  /** Human events that reached the apps because no guard was engaged. */
  readonly passedThrough: string[] = [];
  closed = false;

  /** Processes apps started (spawnProcess), still running until endProcess/quitApp. */
  private readonly processes = new Map<number, { parentPid: number; name: string; startedAt: number; commandLine?: readonly string[] }>();
  private readonly installable: ScriptedAppSpec[];
  private readonly behaviors = new Map<PrimitiveName, PrimitiveBehavior>();
  private readonly hooks: CallHook[] = [];
  private listener: GuardListener | null = null;
  private png?: Buffer;

  /** The person at the keyboard: their events reach the guard only while it is engaged. */
  readonly human = {
    /** Returns true when the guard swallowed it. */
    pressEscape: (): boolean => {
      if (!this.guardEngaged || !this.listener) {
        this.passedThrough.push('escape');
        return false;
      }
      this.listener.onEscape();
      return true;
    },
    /** Plain Enter on the person's keyboard; returns true when the guard swallowed it. */
    pressEnter: (): boolean => {
      if (!this.guardEngaged || !this.listener) {
        this.passedThrough.push('enter');
        return false;
      }
      if (this.listener.onEnter) this.listener.onEnter();
      else this.listener.onHumanInput('key');
      return true;
    },
    input: (kind: 'key' | 'pointer'): boolean => {
      if (!this.guardEngaged || !this.listener) {
        this.passedThrough.push(kind);
        return false;
      }
      this.listener.onHumanInput(kind);
      return true;
    },
  };

  /**
   * The backend's guard stops holding the input by itself (a guard thread dying, a display
   * connection closing): from now on the person's events reach the apps, and core is told.
   */
  loseGuard(reason: string): void {
    const listener = this.listener;
    if (!this.guardEngaged || !listener) throw new Error('scripted desktop: loseGuard() while no guard is engaged');
    this.guardEngaged = false;
    this.listener = null;
    this.log(`guard:lost ${reason}`);
    listener.onLost(reason);
  }

  private readonly hideOffscreenGeometry: boolean;
  private readonly appSpecs = new Map<number, ScriptedAppSpec>();
  private readonly parents: Map<number, number>;

  constructor(options: ScriptedDesktopOptions = {}) {
    this.parents = new Map(Object.entries(options.parents ?? {}).map(([pid, parent]) => [Number(pid), parent]));
    for (const spec of options.apps ?? []) this.addApp(spec);
    this.installable = options.installable ?? [];
    this.frontmostPid = options.frontmostPid ?? options.apps?.[0]?.pid ?? null;
    this.cursor = options.cursor ?? { x: 0, y: 0 };
    this.screen = options.screen ?? { x: 0, y: 0, width: 1280, height: 800 };
    this.settleOutcome = options.settle ?? 'quiet';
    this.hideOffscreenGeometry = options.hideOffscreenGeometry ?? false;
  }

  // — scripting —

  /** Changes how a primitive behaves (delay, hang, failure); `undefined` restores the default. */
  behave(primitive: PrimitiveName, behavior: PrimitiveBehavior | undefined): void {
    if (behavior) this.behaviors.set(primitive, behavior);
    else this.behaviors.delete(primitive);
  }

  /** Runs `run` right after a call whose log entry starts with `prefix` has been logged. */
  when(prefix: string, run: (call: string) => void, options: { once?: boolean } = {}): void {
    this.hooks.push({ prefix, run, once: options.once ?? false });
  }

  /** Adds a running app; `frontmost` also brings it to the front (a launched app or a dialog). */
  startApp(spec: ScriptedAppSpec, options: { frontmost?: boolean } = {}): ScriptedApp {
    const app = this.addApp(spec);
    if (options.frontmost) this.frontmostPid = spec.pid;
    return app;
  }

  /** parentPid starts a process (e.g. from an onClick); its window may come later with launchApp. */
  spawnProcess(parentPid: number, child: { pid: number; name: string; commandLine?: readonly string[] }): void {
    this.processes.set(child.pid, { parentPid, name: child.name, startedAt: Date.now(), commandLine: child.commandLine });
  }

  /** A spawned process exits (without ever showing a window, or after). */
  endProcess(pid: number): void {
    this.processes.delete(pid);
  }

  /** The process exits: its tree goes away and later primitives on it fail with 'app-gone'. */
  quitApp(pid: number): void {
    this.processes.delete(pid);
    const app = this.apps.get(pid);
    if (!app) return;
    app.gone = true;
    this.apps.delete(pid);
    if (this.frontmostPid === pid) this.frontmostPid = null;
  }

  app(pid: number): ScriptedApp {
    const app = this.apps.get(pid);
    if (!app) throw new Error(`no scripted app ${pid}`);
    return app;
  }

  /** The live node whose text (exact) or identity matches. */
  find(pid: number, textOrIdentity: string): ScriptedNode {
    for (const node of this.app(pid).nodes()) {
      if (node.text === textOrIdentity || (node.editable && !node.secure && node.value === textOrIdentity) || node.identity === textOrIdentity) return node;
    }
    throw new Error(`no node "${textOrIdentity}" in pid ${pid}`);
  }

  secretOf(node: ScriptedNode): string {
    return node.secret;
  }

  /** The log without read-only primitives: what a person would see happen. */
  actions(): string[] {
    return this.calls.filter((call) => !READ_CALLS.test(call));
  }

  // — Desktop: apps, windows, focus, cursor —

  async listApps(progress: Progress): Promise<RunningApp[]> {
    await this.enter('listApps', 'list-apps', progress);
    return [...this.apps.values()].map((app) => this.runningApp(app));
  }

  async appForPid(pid: number, progress: Progress): Promise<RunningApp | null> {
    await this.enter('appForPid', `app-for-pid ${pid}`, progress);
    const app = this.apps.get(pid);
    return app ? this.runningApp(app) : null;
  }

  async frontmost(progress: Progress): Promise<Frontmost | null> {
    await this.enter('frontmost', 'frontmost', progress);
    const app = this.frontmostPid === null ? undefined : this.apps.get(this.frontmostPid);
    if (!app) return null;
    const windowId = app.windowNodes()[0] ? this.windowIdOf(app, 0) : undefined;
    return { pid: app.pid, app: app.name, windowId };
  }

  async activate(pid: number, _windowId: number | undefined, progress: Progress): Promise<boolean> {
    await this.enter('activate', `activate ${pid}`, progress);
    if (!this.apps.has(pid)) throw new TandemError('app-gone', `pid ${pid} is not running`);
    if (!this.activationAllowed) return false;
    this.frontmostPid = pid;
    return true;
  }

  async windows(pid: number | undefined, progress: Progress): Promise<WindowInfo[]> {
    await this.enter('windows', `windows ${pid ?? 'all'}`, progress);
    // The frontmost app's windows are on top; the others follow in the order the apps were added.
    const stacked = [...this.apps.values()].sort((a, b) => Number(b.pid === this.frontmostPid) - Number(a.pid === this.frontmostPid));
    const windows = stacked.flatMap((app) =>
      app.windowNodes().map((node, i) => ({
        windowId: this.windowIdOf(app, i),
        pid: app.pid,
        title: node.text,
        bounds: node.screenBounds(),
        app: app.name,
        onScreen: true,
      })),
    );
    return windows.map((window, zOrder) => ({ ...window, zOrder })).filter((window) => pid === undefined || window.pid === pid);
  }

  async displays(progress: Progress): Promise<Display[]> {
    await this.enter('displays', 'displays', progress);
    return [{ id: 1, bounds: { ...this.screen }, scale: 2, primary: true }];
  }

  async cursorPosition(): Promise<Point> {
    this.log('cursor');
    return { ...this.cursor };
  }

  async moveCursor(point: Point): Promise<void> {
    await this.enter('moveCursor', `move-cursor ${point.x},${point.y}`);
    this.cursor = { ...point };
  }

  /** launch_app requests, in order (what a real backend would have put on the command line). */
  readonly launchRequests: LaunchRequest[] = [];
  /** Signals sent, in order. */
  readonly signals: Array<{ pid: number; signal: 'terminate' | 'kill' }> = [];

  /**
   * Resolves by name or id (case-insensitive) among running and installable apps. Starting an
   * installable app adds it (in front) at the first look `arrivesAfterMs` after the start; a
   * second instance of a running one gets the installable's pid + 1. Logs `resolve <value>`,
   * `start <value>` and `look <pid>` (each look at the started app).
   */
  async resolveApp(request: AppRequest, progress: Progress): Promise<ResolvedApp> {
    await this.enter('resolveApp', `resolve ${request.value}`, progress);
    if (request.kind !== 'any') this.launchRequests.push(request);
    const wanted = request.value.toLowerCase();
    const matches = (spec: { name: string; id?: string }): boolean => spec.name.toLowerCase() === wanted || spec.id?.toLowerCase() === wanted;
    const running = [...this.apps.values()].find(matches);
    const spec = this.installable.find(matches);
    const unknown = (): TandemError => new TandemError('unknown-app', `No application named "${request.value}".`);
    if (!running && !spec) throw unknown();
    return {
      running: running ? this.runningApp(running) : null,
      startsWhenRunning: false,
      start: async (startProgress) => {
        await this.enter('startApp', `start ${request.value}`, startProgress);
        if (!spec) throw unknown();
        const started = running ? { ...spec, pid: spec.pid + 1 } : spec;
        const startedAt = Date.now();
        return {
          windowWaitMs: spec.windowWaitMs,
          arrived: async (lookProgress) => {
            await this.enter('lookAtApp', `look ${started.pid}`, lookProgress);
            if (!this.apps.has(started.pid)) {
              if (Date.now() - startedAt < (spec.arrivesAfterMs ?? 0)) return null;
              this.startApp(started, { frontmost: true });
            }
            return { ...this.runningApp(this.app(started.pid)), handedOver: false };
          },
          notArrived: () => new TandemError('timeout', `Started "${request.value}" but no window of it appeared in time.`, { pid: started.pid }),
        };
      },
    };
  }

  async askToQuit(pid: number, progress: Progress): Promise<QuitRequest> {
    await this.enter('askToQuit', `ask-to-quit ${pid}`, progress);
    const app = this.apps.get(pid);
    if (!app) return { asked: 0, refused: 0 };
    const asked = app.windowNodes().length;
    const spec = this.appSpecs.get(pid);
    const onQuit = spec?.onQuit ?? 'exit';
    if (onQuit === 'exit') this.quitApp(pid);
    else if (onQuit === 'ask') {
      app.root.append(spec?.dialog ?? { role: 'Dialog', text: 'Save changes?', bounds: { x: 300, y: 300, width: 300, height: 120 }, children: [{ role: 'Label', text: 'Save changes to "notes" before closing?' }, { role: 'PushButton', text: "Don't Save" }, { role: 'PushButton', text: 'Cancel' }, { role: 'PushButton', text: 'Save' }] });
      this.frontmostPid = pid;
    }
    return { asked, refused: 0 };
  }

  async signalProcess(pid: number, signal: 'terminate' | 'kill'): Promise<void> {
    this.log(`signal ${pid} ${signal}`);
    this.signals.push({ pid, signal });
    if (signal === 'kill' || !this.appSpecs.get(pid)?.ignoresTerminate) this.quitApp(pid);
  }

  async processState(pid: number): Promise<ProcessState> {
    return { running: this.apps.has(pid) || this.processes.has(pid), parentPid: this.parents.get(pid) ?? this.processes.get(pid)?.parentPid ?? null };
  }

  // — Desktop: accessibility —

  async snapshot(pid: number, limits: SnapshotLimits, progress: Progress): Promise<TreeSnapshot> {
    await this.enter('snapshot', `snapshot ${pid}`, progress);
    const app = this.liveApp(pid);
    const elements: ElementNode[] = [];
    let truncated: TreeSnapshot['truncated'];
    const visit = (node: ScriptedNode, parentIndex: number | null, depth: number, windowId: number | undefined): void => {
      if (truncated) return;
      if (elements.length >= limits.maxElements) {
        truncated = { reason: 'count', detail: `stopped at ${limits.maxElements} elements` };
        return;
      }
      const index = elements.length;
      const windowIndex = node.parent === app.root ? app.windowNodes().indexOf(node) : -1;
      const ownWindow = windowIndex >= 0 ? this.windowIdOf(app, windowIndex) : windowId;
      elements.push({
        index,
        parentIndex,
        depth,
        role: node.role,
        text: node.text,
        ...(node.editable && !node.secure ? { value: node.value } : {}),
        editable: node.editable,
        ...(node.spec.singleLine ? { singleLine: true } : {}),
        bounds: this.hideOffscreenGeometry && !node.isShowing() ? null : node.screenBounds(),
        visible: node.isShowing(),
        enabled: node.enabled,
        focused: node.focused,
        actionable: node.actionable,
        secure: node.secure,
        selected: node.selected,
        windowId: ownWindow,
        identity: node.identity,
        handle: node,
      });
      if (depth + 1 > limits.maxDepth) {
        if (node.children.length) truncated = { reason: 'depth', detail: `stopped at depth ${limits.maxDepth}` };
        return;
      }
      for (const child of node.children) visit(child, index, depth + 1, ownWindow);
    };
    visit(app.root, null, 0, undefined);
    const changedWhileReading = this.changingReads > 0;
    if (changedWhileReading) this.changingReads--;
    return { pid, app: app.name, elements, truncated, elapsedMs: 0, changedWhileReading };
  }

  async performAction(request: ElementActionRequest, progress: Progress): Promise<void> {
    await this.enter('performAction', `action ${request.action} "${request.element.text}"`, progress);
    const node = this.liveNode(request.element);
    if (node.spec.onAction) return node.spec.onAction({ node, desktop: this, action: request.action });
    if (request.action === 'press' && node.spec.onClick) {
      return node.spec.onClick({ node, desktop: this, point: node.centre(), options: { button: 'left', count: 1, modifiers: [] } });
    }
    throw new TandemError('unsupported', `${node.role} "${node.text}" has no action "${request.action}"`);
  }

  async setValue(element: ElementNode, value: string, progress: Progress): Promise<void> {
    await this.enter('setValue', element.secure ? `set-value [secure] "${element.role}"` : `set-value "${value}"`, progress);
    const node = this.liveNode(element);
    if (!(node.spec.settable ?? node.editable)) throw new TandemError('unsupported', `${node.role} "${node.text}" has no editable value`, { reason: 'value-refused' });
    if (node.secure) node.secret = value;
    else node.value = value;
  }

  /** Appends to the node (its caret is taken to be at the end); 'unsupported' unless it takes insertion (default: editable). */
  async insertText(element: ElementNode, text: string, progress: Progress): Promise<void> {
    await this.enter('insertText', element.secure ? `insert [secure] "${element.role}"` : `insert "${text}"`, progress);
    const node = this.liveNode(element);
    if (!(node.spec.insertable ?? node.editable)) throw new TandemError('unsupported', `${node.role} "${node.text}" takes no insertion`, { reason: 'no-editable-text' });
    if (node.secure) node.secret += text;
    else node.value += text;
  }

  async setSelected(element: ElementNode, selected: boolean, progress: Progress): Promise<void> {
    await this.enter('setSelected', `set-selected ${selected} "${element.text}"`, progress);
    const node = this.liveNode(element);
    node.selected = selected;
  }

  async waitForQuiet(pid: number, _quietMs: number, _capMs: number, progress: Progress): Promise<SettleOutcome> {
    await this.enter('waitForQuiet', `settle ${pid}`, progress);
    return this.settleOutcome;
  }

  async watchPaint(pid: number, progress: Progress): Promise<PaintWatch | null> {
    throwIfAborted(progress);
    return this.paintWatch ? this.paintWatch(pid) : null;
  }

  async launchedSince(pid: number, sinceMs: number, progress: Progress): Promise<LaunchedProcess[]> {
    await this.enter('launchedSince', `launched-since ${pid}`, progress);
    const found: LaunchedProcess[] = [];
    const parents = new Set([pid]);
    for (const [childPid, child] of this.processes) {
      if (parents.has(child.parentPid) && child.startedAt >= sinceMs) {
        found.push({ pid: childPid, name: child.name, ...(child.commandLine ? { commandLine: child.commandLine } : {}) });
        parents.add(childPid);
      }
    }
    return found;
  }

  // — Desktop: synthetic input —

  async click(point: Point, options: ClickOptions, progress: Progress): Promise<void> {
    const extra = [
      options.button !== 'left' ? options.button : '',
      options.count === 2 ? 'double' : '',
      options.modifiers.length ? options.modifiers.join('+') : '',
    ].filter(Boolean);
    await this.enter('click', `click ${point.x},${point.y}${extra.length ? ' ' + extra.join(' ') : ''}`, progress);
    this.cursor = { ...point };
    const node = this.nodeAt(point);
    if (!node) return;
    if (node.focusable) node.focus();
    await node.spec.onClick?.({ node, desktop: this, point, options });
  }

  async pressKey(key: KeyName, modifiers: Modifier[], progress: Progress): Promise<void> {
    await this.enter('pressKey', `key ${[...modifiers, key].join('+')}`, progress);
    const node = this.frontApp()?.focusedNode();
    if (node) await node.spec.onKey?.({ node, desktop: this, key, modifiers });
    await this.onKey?.({ desktop: this, key, modifiers });
  }

  async typeText(text: string, progress: Progress): Promise<void> {
    await this.enter('typeText', `type ${text}`, progress);
    // Like a real backend, a long text reports how much the app took in (every 500 characters).
    const length = [...text].length;
    for (let done = 500; done <= length; done += 500) progress.reportInput?.(done, length);
    const node = this.frontApp()?.focusedNode();
    if (!node) return;
    if (node.editable) {
      if (node.secure) node.secret += text;
      else node.value += text;
    }
    await node.spec.onType?.({ node, desktop: this, text });
  }

  async scroll(point: Point, deltaX: number, deltaY: number, progress: Progress): Promise<void> {
    await this.enter('scroll', `scroll ${point.x},${point.y} ${deltaX},${deltaY}`, progress);
    let node: ScriptedNode | null = this.nodeAt(point);
    while (node && !node.scrollable) node = node.parent;
    if (!node) return;
    const viewport = node.screenBounds();
    const lineHeight = node.scrollable!.lineHeight;
    const contentBottom = Math.max(0, ...node.children.map((c) => (c.bounds ? c.bounds.y + c.bounds.height : 0)));
    const maxOffset = viewport && node.bounds
      ? Math.max(0, Math.ceil((contentBottom - (node.bounds.y + node.bounds.height)) / lineHeight))
      : 0;
    node.scrollOffset = Math.min(maxOffset, Math.max(0, node.scrollOffset + Math.round(deltaY)));
  }

  async drag(from: Point, to: Point, options: DragOptions, progress: Progress): Promise<void> {
    const extra = [options.button !== 'left' ? options.button : '', options.modifiers.join('+')].filter(Boolean);
    await this.enter('drag', `drag ${from.x},${from.y} -> ${to.x},${to.y} ${options.durationMs}ms${extra.length ? ' ' + extra.join(' ') : ''}`, progress);
    const node = this.nodeAt(from);
    this.cursor = { ...to };
    if (node) await node.spec.onDrag?.({ node, desktop: this, from, to, options });
  }

  // — Desktop: capture, guard, environment —

  async screenshot(target: { windowId?: number; pid?: number; rect?: Rect }, progress: Progress): Promise<Screenshot> {
    const what = target.windowId !== undefined ? `window ${target.windowId}` : target.pid !== undefined ? `pid ${target.pid}` : 'screen';
    await this.enter('screenshot', `screenshot ${what}`, progress);
    this.png ??= solidPng(Math.round(this.screen.width * SCREENSHOT_SCALE), Math.round(this.screen.height * SCREENSHOT_SCALE));
    return { png: this.png, bounds: { ...this.screen }, scale: SCREENSHOT_SCALE };
  }

  async engageGuard(listener: GuardListener, progress: Progress): Promise<EngagedGuard> {
    if (this.guardEngaged) throw new Error('scripted desktop: guard engaged twice (nested transaction)');
    await this.enter('engageGuard', 'guard:engage', progress);
    this.guardEngaged = true;
    this.guardEngagements++;
    this.listener = listener;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.guardEngaged = false;
        this.listener = null;
        this.log('guard:release');
      },
    };
  }

  async checkPermissions(progress: Progress): Promise<PermissionCheck[]> {
    await this.enter('checkPermissions', 'permissions', progress);
    return [{ id: 'scripted', title: 'Scripted desktop', state: 'granted', detail: 'in-memory test desktop' }];
  }

  async close(): Promise<void> {
    this.closed = true;
    this.log('close');
  }

  // — internals —

  private addApp(spec: ScriptedAppSpec): ScriptedApp {
    const app = new ScriptedApp(spec.pid, spec.name, spec.id, spec.tree);
    this.apps.set(spec.pid, app);
    this.appSpecs.set(spec.pid, spec);
    return app;
  }

  private runningApp(app: ScriptedApp): RunningApp {
    return app.id === undefined ? { pid: app.pid, name: app.name } : { pid: app.pid, name: app.name, id: app.id };
  }

  private windowIdOf(app: ScriptedApp, index: number): number {
    return app.pid * 100 + index + 1;
  }

  private frontApp(): ScriptedApp | undefined {
    return this.frontmostPid === null ? undefined : this.apps.get(this.frontmostPid);
  }

  private liveApp(pid: number): ScriptedApp {
    const app = this.apps.get(pid);
    if (!app) throw new TandemError('app-gone', `pid ${pid} is not running any more`);
    return app;
  }

  private liveNode(element: ElementNode): ScriptedNode {
    const node = element.handle;
    if (!(node instanceof ScriptedNode)) throw new TandemError('internal', 'element handle is not from the scripted desktop');
    if (node.app.gone) throw new TandemError('app-gone', `pid ${node.app.pid} is not running any more`);
    if (!node.attached) throw new TandemError('stale-element', `${node.role} "${node.text}" is no longer in the tree`);
    return node;
  }

  /** Deepest showing node under the point: the frontmost app first, then the others. */
  private nodeAt(point: Point): ScriptedNode | null {
    const front = this.frontApp();
    const order = [front, ...[...this.apps.values()].filter((a) => a !== front)].filter((a) => a !== undefined);
    for (const app of order) {
      let best: ScriptedNode | null = null;
      for (const node of app.nodes()) {
        const rect = node.screenBounds();
        if (rect && node.isShowing() && rectContains(rect, point)) best = node; // pre-order: later = deeper
      }
      if (best) return best;
    }
    return null;
  }

  private log(call: string): void {
    this.calls.push(call);
    for (const hook of [...this.hooks]) {
      if (!call.startsWith(hook.prefix)) continue;
      if (hook.once) this.hooks.splice(this.hooks.indexOf(hook), 1);
      hook.run(call);
    }
  }

  /** Logs the call, then applies its scripted behaviour, honouring the progress's abort signal. */
  private async enter(primitive: PrimitiveName, call: string, progress?: Progress): Promise<void> {
    if (progress) throwIfAborted(progress);
    this.log(call);
    const behavior = this.behaviors.get(primitive);
    if (!behavior) return;
    if (behavior.once) this.behaviors.delete(primitive);
    if (behavior.fail) throw behavior.fail;
    if (behavior.hang === 'ignore-abort') return new Promise<void>(() => {});
    if (behavior.ignoreAbort && behavior.delayMs !== undefined) {
      await new Promise<void>((resolve) => setTimeout(resolve, behavior.delayMs));
      return;
    }
    if (behavior.hang || behavior.delayMs !== undefined) {
      await new Promise<void>((resolve, reject) => {
        const signal = progress?.signal;
        const timer = behavior.hang ? undefined : setTimeout(done, behavior.delayMs);
        function done(): void {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }
        function onAbort(): void {
          clearTimeout(timer);
          try {
            throwIfAborted(progress!);
          } catch (error) {
            reject(error);
          }
        }
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }
}
