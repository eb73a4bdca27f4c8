// The preload's API, typed by the shared contract. The renderer has no other way to main.

import type { TandemApi } from '../shared/ipc.js';

declare global {
  interface Window {
    tandem: TandemApi;
  }
}

export function tandem(): TandemApi {
  return window.tandem;
}
