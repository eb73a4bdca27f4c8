// The Desktop interface: the primitives a backend implements. Primitives only — no retries,
// no settle policy, no restore logic: that is core's job and is written once (call/callLifecycle.ts).
// A backend file is named after the API it wraps (atspiTree.ts, x11Input.ts, axTree.ts…).

import type {
  LaunchedProcess,
  ElementNode,
  Display,
  Frontmost,
  Modifier,
  PermissionCheck,
  Point,
  Rect,
  RunningApp,
  Screenshot,
  TreeSnapshot,
  WindowInfo,
} from './model.js';
import type { TandemError } from './errors.js';
import type { Progress } from './progress.js';

export interface SnapshotLimits {
  maxDepth: number;
  maxElements: number;
  /** The traversal stops at min(progress.deadline, now + maxMs) and flags the tree truncated. */
  maxMs: number;
}

export type MouseButton = 'left' | 'right' | 'middle';

export interface ClickOptions {
  button: MouseButton;
  /** 1 = single, 2 = double. */
  count: 1 | 2;
  modifiers: Modifier[];
}

export interface DragOptions {
  button: MouseButton;
  /** Held from before the press until after the release. */
  modifiers: Modifier[];
  /** From press to release; the motion events are spread over it (dragPath.ts). */
  durationMs: number;
}

/** Canonical key names (lower case): see keys.ts for the list and aliases. */
export type KeyName = string;

export interface ElementActionRequest {
  element: ElementNode;
  /** Canonical names: "press", "show-menu", "confirm", "cancel", "increment", "decrement", or a raw backend name. */
  action: string;
}

/** Callbacks the backend's input guard calls while engaged. Must never throw into native code. */
export interface GuardListener {
  /** Plain Esc (no modifiers) pressed on a human device. */
  onEscape(): void;
  /**
   * Plain Return or keypad Enter (no modifiers) pressed on a human device: the person's yes to
   * a question the overlay asks. Never called for input another program posts (as far as the OS
   * tells them apart: a virtual keyboard driver passes as a device). Without it, Enter counts as
   * other human input.
   */
  onEnter?(): void;
  /** Any other human key/pointer event that the guard swallowed. */
  onHumanInput(kind: 'key' | 'pointer'): void;
  /**
   * The guard stopped holding the person's input without being asked to (its thread died, it
   * released itself, the display connection it held the grab on closed). Called at once, at most
   * once, never after release(); the person has their input back. `reason` is a fact for logs
   * ("the guard thread exited"), not a sentence for the model.
   */
  onLost(reason: string, kind?: GuardLostKind): void;
  /**
   * The guard stopped holding for a moment and holds again (the OS switched it off, it was
   * switched back on): whatever the person typed or clicked in that gap reached the apps.
   */
  onInputLeaked?(): void;
}

/**
 * Why a guard was lost, where the next move differs from the usual one: 'secure-input' — the OS
 * hides keys from the guard (a password field, secure keyboard entry), so Esc cannot be heard.
 */
export type GuardLostKind = 'secure-input';

export interface EngagedGuard {
  /** Idempotent; must not throw. */
  release(): Promise<void>;
}

export type SettleOutcome = 'quiet' | 'cap' | 'unsupported';

/**
 * Paints of an app's windows, seen from the moment the watch began (Linux: X DAMAGE on each of
 * its top-level windows). Facts only: how long to wait for the painting to stop is core's.
 */
export interface PaintWatch {
  /** When the watch began (epoch ms). */
  readonly since: number;
  /** When one of the windows was last painted since the watch began (epoch ms); undefined: not yet. */
  lastPaintAt(): number | undefined;
  /** Resolves at the next paint, or when the watch is closed. */
  nextPaint(): Promise<void>;
  /** Idempotent; must not throw. */
  close(): void;
}

export interface OpenedApp extends RunningApp {
  /** True when an already-running instance was used instead of starting a new one. */
  reused: boolean;
}

/** What launch_app starts (core checked every count and length against LIMITS). */
export interface LaunchRequest {
  /** How `value` names the app: a display name, a bundle/.desktop id, or an absolute path. */
  kind: 'name' | 'id' | 'path';
  value: string;
  /** Extra argv words after the app's own (never through a shell). */
  args: string[];
  /** Documents or URLs to open with it. */
  urls: string[];
  /** true: start another process even when an instance already runs. */
  newInstance: boolean;
  /** true: ask the OS not to bring it to the front where it can (macOS `open -g`); core restores the front otherwise. */
  background: boolean;
}

/** What open_application (kind 'any': a name, a bundle/.desktop id or a path) or launch_app names. */
export type AppRequest = { kind: 'any'; value: string } | LaunchRequest;

/** An app request resolved by the backend: the instance already running, and how to start one. */
export interface ResolvedApp {
  /** The instance that already runs (named and identified as the request resolved it), or null. */
  running: RunningApp | null;
  /**
   * Starting again is how this OS hands a running app the request (macOS open_application:
   * LaunchServices' `open` brings it forward and opens the document), so it is started anyway.
   */
  startsWhenRunning: boolean;
  /** Starts it (argv, never a shell; launch_app's arguments and documents appended): resolves once the OS took it. */
  start(progress: Progress): Promise<StartedApp>;
}

/** A started app on its way to its first window. */
export interface StartedApp {
  /** Longest wait for its window, within the call's deadline; unset: the call's deadline. */
  readonly windowWaitMs?: number;
  /** One look, no waiting: the app that now answers with a window (the started process, a child of it, or the instance it handed over to), or null. */
  arrived(progress: Progress): Promise<ArrivedApp | null>;
  /** What to answer when no window came in time: what was started and how far it got. */
  notArrived(): TandemError;
  /**
   * The answer as soon as no window can come any more (the started process failed and exited,
   * with no instance it could have handed over to): null while a window may still come. Absent
   * where the backend cannot tell: the wait then runs to notArrived.
   */
  failed?(): TandemError | null;
}

export interface ArrivedApp extends RunningApp {
  /** The started process handed its work to the instance already running (single-instance apps). */
  handedOver: boolean;
}

export interface LaunchedApp extends RunningApp {
  /** An instance was already running and nothing was started (newInstance false). */
  alreadyRunning: boolean;
  /** A new process was started but handed its work to the running instance and exited (single-instance apps). */
  handedOver: boolean;
}

/** What asking an app to quit politely did: how many top-level windows were asked to close, how many could not be. */
export interface QuitRequest {
  asked: number;
  /** Windows that take no polite close request (no WM_DELETE_WINDOW): left alone, never killed. */
  refused: number;
}

export interface ProcessState {
  /** Running (a zombie, or no process, is not). */
  running: boolean;
  /** Its parent, when the OS tells (for "never Tandem's own ancestors"). */
  parentPid: number | null;
}

export interface Desktop {
  readonly platform: 'linux' | 'darwin' | 'test';

  // — apps, windows, focus, cursor —
  listApps(progress: Progress): Promise<RunningApp[]>;
  /** Resolves a pid to the app, or null when it is not running / not on the accessibility bus. */
  appForPid(pid: number, progress: Progress): Promise<RunningApp | null>;
  frontmost(progress: Progress): Promise<Frontmost | null>;
  /** Brings pid (optionally a window) to the front. Returns whether a live check confirmed it. */
  activate(pid: number, windowId: number | undefined, progress: Progress): Promise<boolean>;
  windows(pid: number | undefined, progress: Progress): Promise<WindowInfo[]>;
  /**
   * The top-level window a click at `point` would reach: the topmost managed window there (X11:
   * the client under the point, through the stacking), null over the desktop or a popup (menu,
   * tooltip). Optional: where it is missing, a click goes without the check.
   */
  windowAt?(point: Point, progress: Progress): Promise<WindowInfo | null>;
  cursorPosition(): Promise<Point>;
  /** The displays (monitors), primary first. */
  displays(progress: Progress): Promise<Display[]>;
  /** Moves the pointer without clicking (warp). */
  moveCursor(point: Point): Promise<void>;
  /**
   * Resolves what an app request names: the instance already running, and how to start it. Throws
   * 'unknown-app' when nothing goes by that name, 'not-accessible' when it runs but cannot be read
   * (Linux: started before accessibility was on). Core decides whether to reuse or start and
   * waits for the window (appArrival.ts).
   */
  resolveApp(request: AppRequest, progress: Progress): Promise<ResolvedApp>;
  /**
   * Asks pid to quit the way its own close button would (X11: WM_DELETE_WINDOW to each of its
   * top-level windows; macOS: NSRunningApplication terminate). Never forces anything.
   */
  askToQuit(pid: number, progress: Progress): Promise<QuitRequest>;
  /** Sends pid SIGTERM ('terminate') or SIGKILL ('kill'). */
  signalProcess(pid: number, signal: 'terminate' | 'kill'): Promise<void>;
  /** Whether pid runs, and its parent. */
  processState(pid: number): Promise<ProcessState>;

  // — accessibility —
  /** The app's tree; with the desktop's windows and displays where the backend can read them (TreeSnapshot.windows). */
  snapshot(pid: number, limits: SnapshotLimits, progress: Progress): Promise<TreeSnapshot>;
  performAction(request: ElementActionRequest, progress: Progress): Promise<void>;
  /**
   * The accessibility layer's own hit test at a screen point, from `window` (an element of the
   * snapshot at depth 1) down to the deepest element there (AT-SPI
   * Component.GetAccessibleAtPoint; macOS AXUIElementCopyElementAtPosition): the identities
   * (ElementNode.identity) of the elements hit, outermost first. null where the toolkit cannot
   * answer in screen coordinates. Optional: where it is missing, a click goes without the check.
   */
  accessibleAtPoint?(window: ElementNode, point: Point, progress: Progress): Promise<string[] | null>;
  setValue(element: ElementNode, value: string, progress: Progress): Promise<void>;
  /**
   * Inserts text into the element at its caret, replacing its selected text, as one edit of the
   * app's own (AT-SPI EditableText.InsertText, AXSelectedText); the caret ends after the text.
   * Throws 'unsupported' (details.reason 'no-editable-text') when the element takes no text this
   * way: nothing was inserted then.
   */
  insertText(element: ElementNode, text: string, progress: Progress): Promise<void>;
  setSelected(element: ElementNode, selected: boolean, progress: Progress): Promise<void>;
  /** Waits until pid's UI has been quiet for quietMs (accessibility events), at most capMs. */
  waitForQuiet(pid: number, quietMs: number, capMs: number, progress: Progress): Promise<SettleOutcome>;
  /**
   * Starts watching pid's windows being painted ("window painted since"). null where the
   * platform cannot tell (macOS today, an X server without DAMAGE): whether it finished painting is unknown.
   * A paint wholly inside one of `ignoring` (screen areas: busy indicators, call/busyIndicators.ts) is not counted.
   */
  watchPaint(pid: number, progress: Progress, ignoring?: readonly Rect[]): Promise<PaintWatch | null>;
  /**
   * Processes an action on pid may have launched since sinceMs (epoch ms) that still run: their
   * window may be on its way (Linux: pid's descendants started since). [] where the platform
   * cannot tell.
   */
  launchedSince(pid: number, sinceMs: number, progress: Progress): Promise<LaunchedProcess[]>;

  // — synthetic input (must pass through the guard) —
  //
  // Paced input (the "act means consumed" contract, docs/architecture.md): each of these resolves only
  // once the app receiving the input has handled every event it was sent, and never keeps more
  // than a small window of events in flight. When progress is aborted (Esc, watchdog, client
  // cancel) it sends nothing more, waits (bounded) for what is in flight to be handled, then
  // rejects with the abort reason: after the rejection no further synthetic event reaches any
  // app. An app that stops taking in its input rejects with 'not-responding' (details: how much
  // was taken in). Long typing calls progress.reportInput(done, total) as the app takes it in.
  click(point: Point, options: ClickOptions, progress: Progress): Promise<void>;
  pressKey(key: KeyName, modifiers: Modifier[], progress: Progress): Promise<void>;
  typeText(text: string, progress: Progress): Promise<void>;
  /** Scroll by lines at a point: positive deltaY scrolls content down (wheel towards the user). */
  scroll(point: Point, deltaX: number, deltaY: number, progress: Progress): Promise<void>;
  /**
   * Presses `options.button` at `from`, moves with it held along dragPath(from, to) over
   * `options.durationMs`, releases it at `to`. Paced like the others; when aborted (or failing)
   * after the press, it sends no more motion but always releases the button (and the modifiers)
   * where the pointer is, and waits (bounded) for that release to be handled, before it rejects:
   * a button left held would hold the person's pointer in the app's grab.
   */
  drag(from: Point, to: Point, options: DragOptions, progress: Progress): Promise<void>;

  // — capture —
  /** Window capture when windowId is given, else the pid's top window, else the rect or the whole screen. */
  screenshot(target: { windowId?: number; pid?: number; rect?: Rect }, progress: Progress): Promise<Screenshot>;

  // — guard —
  /** Blocks the human's hardware input; synthetic input from this process still passes. */
  engageGuard(listener: GuardListener, progress: Progress): Promise<EngagedGuard>;

  // — overlay (optional: where the server itself can draw one, X11) —
  /** Shows (or updates) the "Tandem holds your input" overlay with `text`. Never throws. */
  showOverlay?(text: string): Promise<void>;
  /** Takes the overlay off the screen. Never throws. */
  hideOverlay?(): Promise<void>;

  // — environment —
  checkPermissions(progress: Progress): Promise<PermissionCheck[]>;
  /**
   * Shows the OS's own prompt for a permission (a check's id), where it has one (macOS: the
   * prompt also adds Tandem to the Settings list). Optional: platforms without prompts omit it.
   */
  requestPermission?(id: string, progress: Progress): Promise<void>;
  /** Releases connections; the process may exit afterwards. */
  close(): Promise<void>;
}
