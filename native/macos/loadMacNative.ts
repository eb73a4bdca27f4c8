// Lazy, darwin-only entry to the native layer. Nothing is imported or opened until the first
// call on a Mac: importing the macOS backend on Linux loads no library (tested in
// test/unit/mac-lazy-load.test.ts). The promise is cached so every caller shares one binding.

import type { MacNative } from './macNative.js';

let loading: Promise<MacNative> | null = null;

export class NotOnMacError extends Error {
  constructor(platform: string) {
    super(`The macOS bindings only load on darwin (this is ${platform}).`);
    this.name = 'NotOnMacError';
  }
}

export function loadMacNative(): Promise<MacNative> {
  if (process.platform !== 'darwin') return Promise.reject(new NotOnMacError(process.platform));
  loading ??= (async () => {
    const [{ default: koffi }, { createKoffiMacNative }] = await Promise.all([import('koffi'), import('./koffiMacNative.js')]);
    return createKoffiMacNative(koffi);
  })();
  return loading;
}
