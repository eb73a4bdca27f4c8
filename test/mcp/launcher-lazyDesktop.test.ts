import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { TandemError } from '../../src/core/errors.js';
import { createProgress } from '../../src/core/progress.js';
import { createEngine } from '../../src/launcher/engineFromEnv.js';
import { settingsFromEnv } from '../../src/core/settings.js';
import { LazyDesktop } from '../../src/launcher/lazyDesktop.js';
import { COUNTER, counterDesktop } from '../support/engineFixtures.js';

const progress = () => createProgress({ timeoutMs: 5_000 });

describe('launcher: lazy desktop and engine from the environment', () => {
  it('should not create the backend until a call needs it, and never just to close it', async () => {
    let created = 0;
    const lazy = new LazyDesktop(async () => {
      created++;
      return counterDesktop();
    });
    assert.equal(created, 0);
    await lazy.close();
    assert.equal(created, 0);
  });

  it('should retry a failed backend creation on the next call', async () => {
    const desktop = counterDesktop();
    let attempts = 0;
    const lazy = new LazyDesktop(async () => {
      attempts++;
      if (attempts === 1) throw new TandemError('permission', 'DISPLAY is not set.');
      return desktop;
    });
    await assert.rejects(lazy.listApps(progress()), /DISPLAY is not set/);
    const apps = await lazy.listApps(progress());
    assert.ok(apps.some((app) => app.pid === COUNTER));
    await lazy.appForPid(COUNTER, progress());
    assert.equal(attempts, 2, 'created once after the failure, then reused');
    await lazy.close();
    assert.equal(desktop.closed, true, 'closing closes the real backend');
  });

  it('should build a working engine whose artifacts folder comes from the environment', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-engine-env-'));
    const artifacts = path.join(dir, 'artifacts');
    const engine = await createEngine(counterDesktop(), { TANDEM_ARTIFACTS_DIR: artifacts, TANDEM_CONFIG_DIR: path.join(dir, 'config'), TANDEM_WATCHDOG_MS: '5000' });
    try {
      const result = await engine.refresh(COUNTER);
      assert.equal(result.status, 'ok');
      assert.ok(result.file?.startsWith(artifacts + path.sep), result.file);
    } finally {
      await engine.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should read milliseconds from the environment and refuse nonsense with the variable and its range named', () => {
    assert.deepEqual(settingsFromEnv({}), {});
    assert.deepEqual(settingsFromEnv({ TANDEM_WATCHDOG_MS: '7500' }), { watchdog_ms: 7500 });
    for (const raw of ['0', '-5', '1.5', 'soon', '120000']) {
      assert.throws(() => settingsFromEnv({ TANDEM_WATCHDOG_MS: raw }), /TANDEM_WATCHDOG_MS=.* is not valid: set it to a whole number from 1000 to 30000, or unset it/);
    }
  });
});
