// Main's side of the IPC contract: a handler per invoke channel, checked against the shared
// type map at compile time, and at run time two gates — the sender must be the main frame of a
// window we created, and the request must have the shape the channel declares.

import type { ElectronApi, IpcMainInvokeEventLike } from './electronApi.js';
import { isInvokeChannel, type InvokeChannel, type RequestOf, type ResponseOf } from '../shared/ipc.js';
import { RESUME_STEP } from './onboardingResume.js';
import type { OwnedWindows } from './windows.js';

export type InvokeHandlers = { [C in InvokeChannel]: (request: RequestOf<C>) => Promise<ResponseOf<C>> | ResponseOf<C> };

type Validator = (request: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const noRequest: Validator = (request) => request === undefined;
const MCP_CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode'];

/** Runtime shape of each channel's request (the renderer is the less trusted side). */
const VALIDATORS: Record<InvokeChannel, Validator> = {
  'app:get-state': noRequest,
  'app:set-paused': (r) => isObject(r) && typeof r.paused === 'boolean',
  'permissions:check': noRequest,
  'permissions:request': (r) => isObject(r) && typeof r.id === 'string' && r.id.length < 64,
  'permissions:copy-command': (r) => isObject(r) && typeof r.id === 'string' && r.id.length < 64,
  'onboarding:test-refresh': noRequest,
  'onboarding:finish': noRequest,
  'app:relaunch': (r) => isObject(r) && typeof r.resumeStep === 'string' && RESUME_STEP.test(r.resumeStep),
  'onboarding:resume-step': noRequest,
  'mcp-config:list': noRequest,
  'mcp-config:copy': (r) => isObject(r) && MCP_CLIENTS.includes(r.client as string),
  'feed:list': noRequest,
  'feed:screenshot': (r) => isObject(r) && Number.isInteger(r.callId),
  'feed:open-artifact': (r) => isObject(r) && Number.isInteger(r.callId) && ['file', 'screenshot', 'folder'].includes(r.target as string),
};

export function registerIpc(electron: ElectronApi, owned: OwnedWindows, handlers: InvokeHandlers, log: (message: string) => void): () => void {
  const channels = Object.keys(handlers).filter(isInvokeChannel);
  for (const channel of channels) {
    electron.ipcMain.handle(channel, async (event: IpcMainInvokeEventLike, request: unknown) => {
      if (!owned.isOwnMainFrame(event)) {
        log(`ipc: refused ${channel} from a frame that is not ours`);
        throw new Error('Refused: unknown sender.');
      }
      if (!VALIDATORS[channel](request)) throw new Error(`Refused: malformed request on ${channel}.`);
      const handler = handlers[channel] as (request: unknown) => unknown;
      return handler(request);
    });
  }
  return () => {
    for (const channel of channels) electron.ipcMain.removeHandler(channel);
  };
}
