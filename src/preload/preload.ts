// The renderer's whole view of main: named functions on `window.tandem`, built from the shared
// method/event tables. ipcRenderer itself never crosses the context bridge, and every
// subscription returns its disposer. Bundled to dist/preload/preload.cjs (sandboxed preloads
// cannot load ES modules or local files).

import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { API_EVENTS, API_METHODS, type TandemApi } from '../shared/ipc.js';

const api: Record<string, unknown> = {};
for (const [name, channel] of Object.entries(API_METHODS)) {
  api[name] = (request?: unknown) => ipcRenderer.invoke(channel, request);
}
for (const [name, channel] of Object.entries(API_EVENTS)) {
  api[name] = (listener: (payload: unknown) => void) => {
    const forward = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  };
}

contextBridge.exposeInMainWorld('tandem', Object.freeze(api as TandemApi));
