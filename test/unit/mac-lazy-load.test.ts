import { test } from 'node:test';
import assert from 'node:assert/strict';
import koffi from 'koffi';

test('should load no native library when the macOS backend is imported off macOS', { skip: process.platform === 'darwin' ? 'this checks the non-darwin path' : false }, async () => {
  const loads: string[] = [];
  const original = koffi.load;
  (koffi as { load: typeof koffi.load }).load = ((path: string | null, options?: Parameters<typeof koffi.load>[1]) => {
    loads.push(String(path));
    return options === undefined ? original(path) : original(path, options);
  }) as typeof koffi.load;
  try {
    const backend = await import('../../src/backends/macos/index.js');
    await import('../../src/backends/macos/macDesktop.js');
    await assert.rejects(backend.createMacDesktop(), (error: Error & { code?: string }) => error.code === 'unsupported' && /macOS only/.test(error.message));
    const { loadMacNative, NotOnMacError } = await import('../../native/macos/loadMacNative.js');
    await assert.rejects(loadMacNative(), NotOnMacError);
    assert.deepEqual(loads, []);
    // The probe itself works: a load through the same module object is seen.
    (await import('koffi')).default.load('libc.so.6');
    assert.deepEqual(loads, ['libc.so.6']);
  } finally {
    (koffi as { load: typeof koffi.load }).load = original;
  }
});

test('should read the guard thread lifetime cap from TANDEM_MAC_GUARD_LIFETIME_MS only when it is sane', async () => {
  const { guardLifetimeFromEnv } = await import('../../src/backends/macos/index.js');
  assert.equal(guardLifetimeFromEnv('2500'), 2500);
  assert.equal(guardLifetimeFromEnv(undefined), null);
  assert.equal(guardLifetimeFromEnv('999'), null, 'below 1 s');
  assert.equal(guardLifetimeFromEnv('120001'), null, 'above the default cap');
  assert.equal(guardLifetimeFromEnv('2e3'), null);
  assert.equal(guardLifetimeFromEnv('-5'), null);
});
