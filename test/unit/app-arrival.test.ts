// Reuse or start, then wait for the window (core/apps/appArrival.ts), over the scripted desktop's
// resolve / start / look primitives: what is reused, what is started, a window that comes late,
// one that never comes before the deadline, and a cancel while waiting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openApp, startApp, waitForArrival } from '../../src/core/apps/appArrival.js';
import type { LaunchRequest, StartedApp } from '../../src/core/desktop.js';
import { isTandemError, TandemError } from '../../src/core/errors.js';
import { createProgress } from '../../src/core/progress.js';
import { COUNTER, counterDesktop, counterTree } from '../support/engineFixtures.js';
import type { ScriptedAppSpec } from '../support/scriptedDesktop.js';

const VIEWER = 600;
const viewer = (extra: Partial<ScriptedAppSpec> = {}): ScriptedAppSpec => ({ pid: VIEWER, name: 'Viewer', id: 'org.example.Viewer', tree: counterTree(), ...extra });
const launch = (value: string, extra: Partial<LaunchRequest> = {}): LaunchRequest => ({ kind: 'name', value, args: [], urls: [], newInstance: false, background: false, ...extra });
const progress = (timeoutMs = 10_000, signal?: AbortSignal) => createProgress({ timeoutMs, signal });
const looks = (calls: readonly string[]) => calls.filter((call) => call.startsWith('look ')).length;

describe('app arrival: reuse or start, then wait for the window', () => {
  it('should answer a running app as it is, starting nothing, and start another only when asked', async () => {
    const desktop = counterDesktop({ installable: [viewer({ pid: 300, name: 'Counter' })] });
    const opened = await openApp(desktop, 'counter', progress());
    assert.deepEqual([opened.pid, opened.reused], [COUNTER, true]);
    const launched = await startApp(desktop, launch('Counter'), progress());
    assert.deepEqual([launched.pid, launched.alreadyRunning, launched.handedOver], [COUNTER, true, false]);
    assert.ok(!desktop.calls.some((call) => call.startsWith('start ')), `nothing started: ${desktop.calls.join(', ')}`);

    const second = await startApp(desktop, launch('Counter', { newInstance: true }), progress());
    assert.equal(second.alreadyRunning, false);
    assert.equal(second.pid, 301, 'a second process (the scripted installable pid + 1)');
    assert.ok(desktop.apps.has(COUNTER) && desktop.apps.has(301), 'both instances run');
    assert.equal(desktop.calls.filter((call) => call.startsWith('start ')).length, 1);
  });

  it('should start an app that is not running and answer it once it shows a window', async () => {
    const desktop = counterDesktop({ installable: [viewer()] });
    const opened = await openApp(desktop, 'org.example.viewer', progress());
    assert.deepEqual({ pid: opened.pid, name: opened.name, reused: opened.reused }, { pid: VIEWER, name: 'Viewer', reused: false });
    assert.ok(desktop.apps.has(VIEWER), 'it runs');
    assert.ok(desktop.actions().includes('start org.example.viewer'));
  });

  it('should keep looking until a window that comes late is there', async () => {
    const desktop = counterDesktop({ installable: [viewer({ arrivesAfterMs: 200 })] });
    const launched = await startApp(desktop, launch('Viewer'), progress());
    assert.deepEqual([launched.pid, launched.alreadyRunning], [VIEWER, false]);
    assert.ok(looks(desktop.calls) > 1, `looked again after the first miss: ${looks(desktop.calls)} look(s)`);
  });

  it("should give the backend's own answer when no window came before its wait or the call's deadline ran out", async () => {
    const never = counterDesktop({ installable: [viewer({ arrivesAfterMs: Infinity, windowWaitMs: 150 })] });
    await assert.rejects(openApp(never, 'Viewer', progress()), (error) => isTandemError(error, 'timeout') && /Started "Viewer" but no window/.test(error.message) && error.details?.pid === VIEWER);
    assert.ok(looks(never.calls) > 1);
    assert.ok(!never.apps.has(VIEWER));

    const noLimit = counterDesktop({ installable: [viewer({ arrivesAfterMs: Infinity })] });
    await assert.rejects(startApp(noLimit, launch('Viewer'), progress(150)), (error) => isTandemError(error, 'timeout') && /no window of it appeared/.test(error.message));
  });

  it('should stop looking at once when the call is cancelled while waiting', async () => {
    const desktop = counterDesktop({ installable: [viewer({ arrivesAfterMs: Infinity })] });
    const controller = new AbortController();
    desktop.when('look ', () => controller.abort(new TandemError('cancelled', 'Esc')), { once: true });
    await assert.rejects(openApp(desktop, 'Viewer', progress(10_000, controller.signal)), (error) => isTandemError(error, 'cancelled'));
    assert.equal(looks(desktop.calls), 1, 'no look after the cancel');
  });

  it("should pass on the backend's unknown-app when nothing goes by that name", async () => {
    const desktop = counterDesktop();
    await assert.rejects(startApp(desktop, launch('Nothing'), progress()), (error) => isTandemError(error, 'unknown-app'));
    assert.ok(!desktop.calls.some((call) => call.startsWith('start ')));
  });

  it("should answer a started process's failure as soon as the backend knows it, not after the window wait", async () => {
    let lookCount = 0;
    const exited = new TandemError('app-gone', 'exited (code 1) as it started', { reason: 'exited-at-launch', pid: 77, exitCode: 1, stderr: ['no display'] });
    const started: StartedApp = {
      arrived: async () => {
        lookCount++;
        return null;
      },
      // The process dies after the second look: the third look must not happen.
      failed: () => (lookCount >= 2 ? exited : null),
      notArrived: () => new TandemError('timeout', 'no window in time'),
    };
    await assert.rejects(waitForArrival(started, progress(60_000)), (error) => error === exited);
    assert.equal(lookCount, 2, 'no look after the failure');
  });

  it('should keep waiting while the backend sees no failure (a launcher that handed over and exited 0)', async () => {
    let lookCount = 0;
    const started: StartedApp = {
      arrived: async () => (++lookCount >= 3 ? { pid: 5, name: 'Viewer', handedOver: true } : null),
      failed: () => null,
      notArrived: () => new TandemError('timeout', 'no window in time'),
    };
    const arrived = await waitForArrival(started, progress());
    assert.deepEqual([arrived.pid, arrived.handedOver, lookCount], [5, true, 3]);
  });
});
