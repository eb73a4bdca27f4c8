// The one IPC contract between Electron main and the renderer. Both sides import this module:
// main registers a handler per invoke channel, the preload turns the method table below into
// named functions, and the compiler checks that request and response types agree on both ends.
// Pure types and constant tables only: no Electron, no Node (the renderer imports it too).

import type { FeedCall, McpClientConfig, OverlayState, PermissionView, AppStateView, TestRunResult } from './types.js';

export type ArtifactTarget = 'file' | 'screenshot' | 'folder';

/** Renderer → main request/response channels (ipcRenderer.invoke ⇄ ipcMain.handle). */
export interface InvokeChannels {
  'app:get-state': { request: void; response: AppStateView };
  'app:set-paused': { request: { paused: boolean }; response: AppStateView };
  'permissions:check': { request: void; response: PermissionView };
  /** Asks the OS for the permission (macOS prompt) or opens the right settings pane. */
  'permissions:request': { request: { id: string }; response: PermissionView };
  /** Main copies the command remedy of that check, as the check produced it (the renderer never writes the clipboard). */
  'permissions:copy-command': { request: { id: string }; response: void };
  /** Runs a harmless read-only refresh of a real app and reports what it saw. */
  'onboarding:test-refresh': { request: void; response: TestRunResult };
  'onboarding:finish': { request: void; response: void };
  /**
   * Quits and starts Tandem again (macOS applies Screen Recording only to a new process); the
   * wizard then reopens at `resumeStep` (its step key: a permission id, 'test' or 'clients').
   */
  'app:relaunch': { request: { resumeStep: string }; response: void };
  /** The wizard step to reopen at after Tandem relaunched itself, once; null otherwise. */
  'onboarding:resume-step': { request: void; response: string | null };
  'mcp-config:list': { request: void; response: McpClientConfig[] };
  /** Main copies the config text it generated itself: the renderer never writes the clipboard. */
  'mcp-config:copy': { request: { client: McpClientConfig['client'] }; response: void };
  'feed:list': { request: void; response: FeedCall[] };
  /** The call's screenshot as a data URL (main reads the file; the renderer has no file access). */
  'feed:screenshot': { request: { callId: number }; response: string | null };
  'feed:open-artifact': { request: { callId: number; target: ArtifactTarget }; response: void };
}

/** Main → renderer event channels (webContents.send ⇄ ipcRenderer.on). */
export interface EventChannels {
  'overlay:state': OverlayState;
  'app:state': AppStateView;
  /** A new or updated feed card (upsert by callId). */
  'feed:call': FeedCall;
}

export type InvokeChannel = keyof InvokeChannels;
export type EventChannel = keyof EventChannels;
export type RequestOf<C extends InvokeChannel> = InvokeChannels[C]['request'];
export type ResponseOf<C extends InvokeChannel> = InvokeChannels[C]['response'];

/** The names the preload exposes on `window.tandem`, and the channel each one invokes. */
export const API_METHODS = {
  getState: 'app:get-state',
  setPaused: 'app:set-paused',
  checkPermissions: 'permissions:check',
  requestPermission: 'permissions:request',
  copyPermissionCommand: 'permissions:copy-command',
  runTestRefresh: 'onboarding:test-refresh',
  finishOnboarding: 'onboarding:finish',
  relaunchApp: 'app:relaunch',
  getResumeStep: 'onboarding:resume-step',
  listMcpConfigs: 'mcp-config:list',
  copyMcpConfig: 'mcp-config:copy',
  listFeed: 'feed:list',
  getScreenshot: 'feed:screenshot',
  openArtifact: 'feed:open-artifact',
} as const satisfies Record<string, InvokeChannel>;

/** Subscriptions on `window.tandem`: each takes a listener and returns a disposer. */
export const API_EVENTS = {
  onOverlayState: 'overlay:state',
  onAppState: 'app:state',
  onFeedCall: 'feed:call',
} as const satisfies Record<string, EventChannel>;

type Methods = typeof API_METHODS;
type Events = typeof API_EVENTS;

type MethodOf<C extends InvokeChannel> = RequestOf<C> extends void
  ? () => Promise<ResponseOf<C>>
  : (request: RequestOf<C>) => Promise<ResponseOf<C>>;

/** What the renderer sees as `window.tandem`: named functions only, never ipcRenderer. */
export type TandemApi = { [M in keyof Methods]: MethodOf<Methods[M]> } & {
  [E in keyof Events]: (listener: (payload: EventChannels[Events[E]]) => void) => () => void;
};

export const INVOKE_CHANNELS: readonly InvokeChannel[] = Object.values(API_METHODS);
export const EVENT_CHANNELS: readonly EventChannel[] = Object.values(API_EVENTS);

export function isInvokeChannel(channel: string): channel is InvokeChannel {
  return (INVOKE_CHANNELS as readonly string[]).includes(channel);
}
