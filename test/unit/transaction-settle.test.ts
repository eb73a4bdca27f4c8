import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProgress } from '../../src/core/progress.js';
import { DEFAULT_SETTLE, settle } from '../../src/core/settle.js';
import { COUNTER, counterDesktop } from '../support/engineFixtures.js';

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('settle after the steps', () => {
  it('should wait the fixed fallback when the backend cannot observe the app', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const desktop = counterDesktop({ settle: 'unsupported' });
    let settled = false;
    const outcome = settle(desktop, COUNTER, { ...DEFAULT_SETTLE, quietMs: 100, capMs: 1_000, fallbackMs: 300 }, createProgress({ timeoutMs: 5_000 })).then((o) => {
      settled = true;
      return o;
    });
    await flush();
    t.mock.timers.tick(299);
    await flush();
    assert.equal(settled, false);
    t.mock.timers.tick(1);
    assert.equal(await outcome, 'unsupported');
  });

  it('should not wait any longer when the backend saw the app go quiet, and log a cap', async () => {
    const desktop = counterDesktop({ settle: 'quiet' });
    assert.equal(await settle(desktop, COUNTER, { ...DEFAULT_SETTLE, quietMs: 100, capMs: 1_000, fallbackMs: 60_000 }, createProgress({ timeoutMs: 5_000 })), 'quiet');
    desktop.settleOutcome = 'cap';
    const logs: string[] = [];
    assert.equal(await settle(desktop, COUNTER, { ...DEFAULT_SETTLE, quietMs: 100, capMs: 1_000, fallbackMs: 60_000 }, createProgress({ timeoutMs: 5_000, log: (m) => logs.push(m) })), 'cap');
    assert.deepEqual(logs, ['the app was still changing after 1000 ms; reading its tree anyway']);
  });
});
