// The bundled preload (dist/preload/preload.cjs as Vite builds it), run against a fake
// `electron`: it exposes named functions only — never ipcRenderer — each invoking its contract
// channel, and subscriptions hand back a disposer that really unsubscribes.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, it } from 'node:test';
import { API_EVENTS, API_METHODS } from '../../src/shared/ipc.js';
import { repoRoot } from './support/repoRoot.js';

async function buildPreload(): Promise<string> {
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'tandem-preload-'));
  await build({ configFile: join(repoRoot(), 'vite.preload.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true, sourcemap: false } });
  const source = readFileSync(join(outDir, 'preload.cjs'), 'utf8');
  rmSync(outDir, { recursive: true, force: true });
  return source;
}

describe('preload API', () => {
  it('should expose only the contract functions on window.tandem, wired to their channels', async () => {
    const source = await buildPreload();
    const exposed = new Map<string, Record<string, (...args: unknown[]) => unknown>>();
    const invoked: Array<[string, unknown]> = [];
    const listeners = new Map<string, Set<(event: unknown, payload: unknown) => void>>();
    const fakeElectron = {
      contextBridge: { exposeInMainWorld: (key: string, api: Record<string, (...args: unknown[]) => unknown>) => exposed.set(key, api) },
      ipcRenderer: {
        invoke: async (channel: string, request: unknown) => {
          invoked.push([channel, request]);
          return `answer from ${channel}`;
        },
        on: (channel: string, listener: (event: unknown, payload: unknown) => void) => {
          const set = listeners.get(channel) ?? new Set();
          set.add(listener);
          listeners.set(channel, set);
        },
        removeListener: (channel: string, listener: (event: unknown, payload: unknown) => void) => listeners.get(channel)?.delete(listener),
      },
    };
    const require = (name: string): unknown => {
      if (name === 'electron') return fakeElectron;
      throw new Error(`the preload may not require ${name}`);
    };
    runInNewContext(source, { require, module: { exports: {} }, exports: {} });

    assert.deepEqual([...exposed.keys()], ['tandem'], 'one world key');
    const api = exposed.get('tandem')!;
    assert.deepEqual(Object.keys(api).sort(), [...Object.keys(API_METHODS), ...Object.keys(API_EVENTS)].sort());
    assert.ok(Object.values(api).every((value) => typeof value === 'function'), 'functions only: no ipcRenderer object');
    assert.ok(Object.isFrozen(api));

    assert.equal(await api.getState(), 'answer from app:get-state');
    await api.setPaused({ paused: true });
    await api.getScreenshot({ callId: 3 });
    assert.deepEqual(invoked, [
      ['app:get-state', undefined],
      ['app:set-paused', { paused: true }],
      ['feed:screenshot', { callId: 3 }],
    ]);

    const received: unknown[] = [];
    const dispose = api.onOverlayState((payload: unknown) => received.push(payload)) as () => void;
    for (const listener of listeners.get('overlay:state') ?? []) listener({ sender: 'ipc event' }, { visible: true, label: 'x' });
    dispose();
    assert.equal(listeners.get('overlay:state')?.size, 0, 'the disposer unsubscribed');
    assert.deepEqual(received, [{ visible: true, label: 'x' }], 'the renderer gets the payload, never the IPC event');
  });
});
