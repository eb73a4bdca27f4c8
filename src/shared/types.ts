// Payloads that cross the IPC boundary. They mirror what main knows from the engine, reduced to
// plain serialisable data the renderer can show. Shared may not import core (layer rule), so the
// few engine shapes the UI needs are restated here; main maps core objects onto them.

export type PermissionStateView = 'granted' | 'denied' | 'unknown' | 'not-applicable';

export interface PermissionItem {
  id: string;
  title: string;
  state: PermissionStateView;
  detail: string;
  remedy?: string;
  /** What the wizard's button does: ask the OS (macOS prompt), open a settings pane, or show a command. */
  action?: { kind: 'prompt' | 'open-url' | 'run-command'; label: string; value?: string };
  /** The OS applies this grant only to a new process (macOS Screen Recording): the wizard offers to relaunch Tandem. */
  relaunchToApply?: boolean;
}

export interface PermissionView {
  platform: 'darwin' | 'linux' | 'other';
  items: PermissionItem[];
  checkedAt: number;
}

export interface AppStateView {
  paused: boolean;
  /** "idle", "paused" or "acting: click_and_traverse in Mousepad". */
  status: string;
  current: { callId: number; tool: string; app?: string } | null;
  platform: 'darwin' | 'linux' | 'other';
  version: string;
}

export interface OverlayState {
  visible: boolean;
  label: string;
  /** The overlay asks the person (a confirm_before press): Enter allows, Esc refuses. */
  asking?: boolean;
}

export type FeedCallState = 'running' | 'ok' | 'cancelled' | 'watchdog' | 'error';

/** A press the person was asked about (confirm_before): 'waiting' until they answer. */
export interface FeedDecision {
  step: number;
  /** The element's name. */
  element: string;
  answer: 'waiting' | 'enter' | 'esc' | 'watchdog';
}

export interface FeedCall {
  callId: number;
  tool: string;
  clientId?: string;
  /** Arguments as the engine reported them: secure text is already redacted. */
  args: Record<string, unknown>;
  state: FeedCallState;
  startedAt: number;
  durationMs?: number;
  app?: string;
  pid?: number;
  summary?: string;
  /** Diff lines (`+ …`, `- …`, `~ …`) for actions, capped for the UI. */
  diff?: string;
  file?: string;
  hasScreenshot: boolean;
  /** Another app took the front during the call. */
  handoff?: { pid: number; app: string };
  /** Ran in the background: no guard, the person kept their keyboard, pointer and front window. */
  background?: boolean;
  steps: string[];
  /** Live step label while running. */
  currentStep?: string;
  humanInputBlocked?: number;
  watchdogFired?: boolean;
  /** Presses the person was asked about, in order, with their answers. */
  decisions?: FeedDecision[];
  error?: { code: string; message: string };
  /** The app's revision the answer handed out. */
  revision?: number;
  /** Changes in the app the call did not make (the person or the app), as diff lines. */
  outsideChanges?: { lines: string[]; count: number };
  /** A call refused because the app changed since the revision it named: that revision and the diff lines. */
  changedSince?: { revision: number; lines: string[]; count: number };
}

export type McpClientId = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode';

export interface McpClientConfig {
  client: McpClientId;
  title: string;
  /** A JSON snippet to merge into a config file, or a shell command to run. */
  kind: 'json' | 'command';
  text: string;
  /** Where the snippet goes, for the person reading it. */
  where: string;
}

export interface TestRunResult {
  ok: boolean;
  app?: string;
  pid?: number;
  elementCount?: number;
  summary: string;
  /** First lines of the tree, to show the person what the agent would see. */
  preview?: string;
  error?: string;
}
