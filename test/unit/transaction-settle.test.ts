import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProgress } from '../../src/core/progress.js';
import { DEFAULT_SETTLE, quietBeforeRead, settle } from '../../src/core/call/settle.js';
import type { TreeSnapshot } from '../../src/core/model.js';
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

describe('quiet before a read', () => {
  const tree = (elapsedMs: number, changedWhileReading?: boolean): TreeSnapshot => ({ pid: COUNTER, app: 'Counter', elements: [], elapsedMs, ...(changedWhileReading === undefined ? {} : { changedWhileReading }) });

  it('should count a verified read as quiet time, but never wait less than the floor', () => {
    const options = { ...DEFAULT_SETTLE, quietMs: 45, minQuietMs: 10 };
    assert.equal(quietBeforeRead(options, tree(30, false)), 15, 'a 30 ms read leaves 15 ms to wait');
    assert.equal(quietBeforeRead(options, tree(8, false)), 37, 'a quick read leaves most of it');
    assert.equal(quietBeforeRead(options, tree(200, false)), 10, 'a slow read: the floor');
  });

  it('should wait all of it before a first read, and the longer wait where reads cannot be verified', () => {
    const options = { ...DEFAULT_SETTLE, quietMs: 45, minQuietMs: 10, unverifiedQuietMs: 150 };
    assert.equal(quietBeforeRead(options, undefined), 45);
    assert.equal(quietBeforeRead(options, tree(30)), 150, 'the backend does not report changes during a read');
  });
});
