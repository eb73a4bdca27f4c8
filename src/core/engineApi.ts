// The engine's public surface: what the MCP tools, the CLI and the Electron app call.
// Implemented by Engine (engine.ts). Kept as an interface so the MCP layer and the app can be
// tested against the real engine over a scripted desktop, and never reach past it.

import type { KillOutcome, LaunchArguments, LaunchOutcome } from './apps/appLifecycle.js';
import type { ArtifactFile } from './artifacts/artifacts.js';
import type { Display, PermissionCheck, Point, Rect, RunningApp, WindowInfo } from './model.js';
import type { ZoomImage } from './artifacts/zoom.js';
import type { CallResult } from './call/result.js';
import type { Step } from './call/steps.js';
import type { ConfigReport } from './settings.js';

/** Who is calling, for the feed's filter and for cancelling on disconnect. */
export interface CallContext {
  /** MCP session / connection id. */
  clientId?: string;
  /** Aborts the call (client disconnected). Guard is still released and state restored. */
  signal?: AbortSignal;
  /**
   * The process at the other end of the connection (socket mode: the relay the MCP client
   * spawned), when known: it and its ancestors are never closed by kill_app.
   */
  clientPid?: number;
  /** The call came over Tandem's socket (the client is not this process's parent). */
  viaSocket?: boolean;
  /** Sees this call's own events (its steps, its input progress) as they happen: MCP progress notifications. */
  onEvent?: <K extends EngineEventName>(event: K, payload: EngineEventMap[K]) => void;
}

export interface ActRequest {
  /** Tool name, used for the artifact file name and the feed. */
  tool: string;
  pid: number;
  steps: Step[];
  /**
   * true: run through accessibility alone (no guard, no activation, no pointer), refused when a
   * step needs real input; false: in the foreground; absent: the background_default setting.
   */
  background?: boolean;
  /** The app's revision the agent expects: when its tree is not that revision's any more, nothing is done (code 'changed'). */
  ifRevision?: number;
}

export interface CallStartedEvent {
  callId: number;
  tool: string;
  pid?: number;
  clientId?: string;
  /** Arguments with secure text redacted. */
  args: Record<string, unknown>;
  startedAt: number;
  /** An acting call that runs in the background: no guard, the person keeps their input. */
  background?: boolean;
}

export interface GuardEngagedEvent {
  callId: number;
  tool: string;
  /** Overlay text, e.g. "Tandem is clicking in Mousepad — press Esc to take back control" (overlayText.ts). */
  label: string;
  /** What is being done, e.g. "Clicking" (the first step's verb). */
  verb: string;
  /** The app acted on. */
  app: string;
}

export interface GuardReleasedEvent {
  callId: number;
  /** 'lost': the guard stopped holding the input by itself (its thread died…); the call stopped with 'guard-lost'. */
  reason: 'done' | 'cancelled' | 'watchdog' | 'error' | 'lost';
}

export interface StepEvent {
  callId: number;
  index: number;
  label: string;
  /** The step's verb, e.g. "Typing". */
  verb: string;
}

/** Long typing: how many characters of the current step the app has taken in so far. */
export interface InputProgressEvent {
  callId: number;
  /** The step being run (0-based). */
  index: number;
  done: number;
  total: number;
}

/** A press waits for the person's Enter or Esc (confirm_before): the overlay asks, the feed shows it. */
export interface ConfirmAskedEvent {
  callId: number;
  /** The step about to press (0-based). */
  step: number;
  /** The element's name and role, as the tree gives them. */
  element: string;
  role: string;
  app: string;
}

export interface ConfirmAnsweredEvent {
  callId: number;
  step: number;
  element: string;
  allowed: boolean;
  by: 'enter' | 'esc' | 'watchdog';
}

export interface CallFinishedEvent {
  callId: number;
  clientId?: string;
  result: CallResult;
}

export interface EngineEventMap {
  'call-started': CallStartedEvent;
  'guard-engaged': GuardEngagedEvent;
  'guard-released': GuardReleasedEvent;
  step: StepEvent;
  'input-progress': InputProgressEvent;
  'confirm-asked': ConfirmAskedEvent;
  'confirm-answered': ConfirmAnsweredEvent;
  'call-finished': CallFinishedEvent;
  log: { callId?: number; message: string };
}

export type EngineEventName = keyof EngineEventMap;

export interface TandemEngine {
  /** Opens (or reuses) an app and returns its tree: a read of the tree, no guard. */
  open(identifier: string, context?: CallContext): Promise<CallResult>;
  /** A disruptive, guarded transaction of one or more steps. */
  act(request: ActRequest, context?: CallContext): Promise<CallResult>;
  /** Re-traverses pid (only its window `options.windowId` when given): read-only, never engages the guard, never moves anything. */
  refresh(pid: number, context?: CallContext, options?: { windowId?: number }): Promise<CallResult>;
  /** Brings pid (or its window) to the front and reads its tree; not guarded, and the front is not put back. */
  bringToFront(pid: number, windowId?: number, context?: CallContext): Promise<CallResult>;
  // The small inspection reads below each run in a call record of their own (events, no files).
  listApps(context?: CallContext): Promise<RunningApp[]>;
  /** Starts an app with arguments (or finds it running) and lists its windows once one is on screen; not guarded. */
  launchApp(args: LaunchArguments, context?: CallContext): Promise<LaunchOutcome & { durationMs: number }>;
  /** Closes an app politely (its "Save changes?" question is returned, never answered), or with signals when `force`. */
  killApp(pid: number, force: boolean, context?: CallContext): Promise<KillOutcome & { file?: string; fileBytes?: number; screenshot?: string; durationMs: number }>;
  /** Top-level windows (of pid, or of every app), frontmost first; read-only. */
  listWindows(pid?: number, onScreenOnly?: boolean, context?: CallContext): Promise<WindowInfo[]>;
  /** A full-resolution crop of one of pid's windows around a region in screen points; remembered for clicks in its pixels. */
  zoom(pid: number, windowId: number | undefined, region: Rect, context?: CallContext): Promise<ZoomImage>;
  /** The displays, primary first (bounds in screen points, pixels per point); read-only. */
  displays(context?: CallContext): Promise<Display[]>;
  /** Where the pointer is, in screen points; read-only. */
  cursorPosition(context?: CallContext): Promise<Point>;
  checkPermissions(context?: CallContext): Promise<PermissionCheck[]>;
  /** Shows the OS's prompt for that permission where it has one (the app's wizard; not offered over the socket). */
  requestPermission?(id: string): Promise<void>;
  /** The artifacts folder's files, newest first (for clients that cannot read local files). */
  listArtifacts(limit?: number): Promise<ArtifactFile[]>;
  /** One artifact by the name an answer gave it ('bad-input', 'not-found' or 'permission' otherwise). */
  readArtifact(name: string): Promise<Buffer>;

  /** The effective settings, where each came from (default, config file, environment) and its allowed values. */
  getConfig(): Promise<ConfigReport>;
  /** Validates (all or nothing), persists in the per-user config file, answers the new report; applies from the next call. */
  setConfig(changes: unknown): Promise<ConfigReport>;

  /** While paused, act() answers a 'paused' error; read-only calls still work. */
  setPaused(paused: boolean): void;
  readonly paused: boolean;
  /** The call being run right now, if any (tray status). */
  readonly current: { callId: number; tool: string; app?: string } | null;

  on<K extends EngineEventName>(event: K, listener: (payload: EngineEventMap[K]) => void): () => void;
  close(): Promise<void>;
}
