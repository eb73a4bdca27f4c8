import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { GuardReleasedEvent } from '../../src/core/engineApi.js';
import { isTandemError } from '../../src/core/errors.js';
import { DEFAULT_WATCHDOG_MS, GuardPolicy } from '../../src/core/guard.js';
import { createProgress } from '../../src/core/progress.js';
import { COUNTER, FINDER, START_CURSOR, act, clickOn, counterDesktop, engineFixture, eventNames, press, typeText, type EngineFixture } from '../support/engineFixtures.js';
import { stepsText } from '../support/modelText.js';

describe('guard: watchdog and engage/release policy', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should give the input back and report the watchdog when a primitive hangs for good', async () => {
    fixture = await engineFixture(undefined, { watchdogMs: 50 });
    const { engine, desktop, events } = fixture;
    desktop.behave('typeText', { hang: 'ignore-abort' });
    const result = await engine.act(act(COUNTER, clickOn('Name'), typeText('abc'), press('Return')));

    assert.equal(result.status, 'watchdog');
    assert.equal(result.watchdogFired, true);
    assert.equal(result.error?.code, 'watchdog');
    assert.match(result.error?.message ?? '', /watchdog fired/);
    assert.deepEqual(stepsText(result), ['clicked [Text] "Name" at 110,105']);
    assert.ok(!desktop.calls.some((c) => c.startsWith('key')), 'the step after the hung one never runs');
    assert.equal(desktop.guardEngaged, false);
    assert.deepEqual(desktop.cursor, START_CURSOR);
    assert.equal(desktop.frontmostPid, FINDER);
    const released = events.filter((e) => e.event === 'guard-released').map((e) => (e.payload as GuardReleasedEvent).reason);
    assert.deepEqual(released, ['watchdog']);
  });

  it('should release the guard when the watchdog fires, before the hung step unwinds', async () => {
    const desktop = counterDesktop();
    const policy = new GuardPolicy(desktop, 30);
    const released: string[] = [];
    const session = await policy.engage(createProgress({ timeoutMs: 1_000 }), { onEngaged: () => {}, onReleased: (r) => released.push(r), log: () => {} });
    await new Promise<void>((resolve) => session.signal.addEventListener('abort', () => resolve(), { once: true }));
    assert.ok(isTandemError(session.signal.reason, 'watchdog'));
    await session.release('error'); // the transaction's own release later is a no-op
    assert.equal(desktop.guardEngaged, false);
    assert.deepEqual(released, ['watchdog']);
    assert.equal(policy.engaged, false);
  });

  it('should report the watchdog when the last read returns past its time, before its timer could run', async () => {
    fixture = await engineFixture(undefined, { watchdogMs: 80 });
    const { engine, desktop } = fixture;
    let clicked = false;
    desktop.when('click', () => (clicked = true));
    desktop.when('snapshot', () => {
      // The read after the click keeps this thread busy past the deadline (as a long read cut
      // short at the deadline does): the watchdog's timer cannot fire first.
      if (!clicked) return;
      const until = Date.now() + 120;
      while (Date.now() < until) {
        // busy
      }
    });
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(result.status, 'watchdog', 'not reported as a success');
    assert.equal(result.watchdogFired, true);
    assert.equal(desktop.guardEngaged, false);
  });

  it('should fire at once when asked after its time has passed', async () => {
    const desktop = counterDesktop();
    const policy = new GuardPolicy(desktop, 30);
    const released: string[] = [];
    const session = await policy.engage(createProgress({ timeoutMs: 1_000 }), { onEngaged: () => {}, onReleased: (r) => released.push(r), log: () => {} });
    const until = Date.now() + 40;
    while (Date.now() < until) {
      // the timer cannot run
    }
    session.fireWatchdogIfDue();
    assert.ok(isTandemError(session.signal.reason, 'watchdog'));
    assert.equal(session.watchdogFired, true);
    await session.whenReleased;
    assert.deepEqual(released, ['watchdog']);
  });

  it("should end a grace period at the watchdog's time at the latest, quietly", async () => {
    const desktop = counterDesktop();
    const policy = new GuardPolicy(desktop, 60);
    const released: string[] = [];
    const session = await policy.engage(createProgress({ timeoutMs: 1_000 }), { onEngaged: () => {}, onReleased: (r) => released.push(r), log: () => {} });
    const started = Date.now();
    policy.linger(session, 10_000, 'act: clicked');
    await session.whenReleased;
    assert.ok(Date.now() - started < 1_000, 'not the 10 s grace period');
    assert.deepEqual(released, ['done'], 'a finished call is not turned into a watchdog');
    assert.equal(session.watchdogFired, false);
    assert.equal(desktop.guardEngaged, false);
  });

  it('should default to a 30 s watchdog', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const desktop = counterDesktop();
    const policy = new GuardPolicy(desktop);
    const session = await policy.engage(createProgress({ timeoutMs: 60_000 }), { onEngaged: () => {}, onReleased: () => {}, log: () => {} });
    t.mock.timers.tick(DEFAULT_WATCHDOG_MS - 1);
    assert.equal(session.signal.aborted, false);
    t.mock.timers.tick(1);
    assert.equal(session.signal.aborted, true);
    assert.equal(session.watchdogFired, true);
    await session.release('watchdog');
    assert.equal(desktop.guardEngaged, false);
  });

  it('should never nest: engaging while engaged throws and leaves the first guard alone', async () => {
    const desktop = counterDesktop();
    const policy = new GuardPolicy(desktop, 10_000);
    const hooks = { onEngaged: () => {}, onReleased: () => {}, log: () => {} };
    const first = await policy.engage(createProgress({ timeoutMs: 1_000 }), hooks);
    await assert.rejects(policy.engage(createProgress({ timeoutMs: 1_000 }), hooks), (e) => isTandemError(e, 'internal') && /never nest/.test(e.message));
    assert.equal(desktop.guardEngagements, 1);
    assert.equal(desktop.guardEngaged, true);
    await first.release('done');
    assert.equal(desktop.guardEngaged, false);
  });

  it('should show no overlay and leave no guard when engaging fails, and report the failure', async () => {
    fixture = await engineFixture();
    const { engine, desktop, events } = fixture;
    desktop.behave('engageGuard', { fail: new Error('XGrabKeyboard: AlreadyGrabbed') });
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));

    assert.equal(result.status, 'error');
    assert.match(result.error?.message ?? '', /AlreadyGrabbed/);
    assert.deepEqual(eventNames(events, 'guard-engaged', 'guard-released'), []);
    assert.equal(desktop.guardEngaged, false);
    assert.ok(!desktop.calls.some((c) => c.startsWith('click')), 'nothing is clicked without the guard');
    assert.equal(desktop.frontmostPid, FINDER);

    desktop.behave('engageGuard', undefined);
    const retry = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(retry.status, 'ok', 'the next call engages normally');
  });

  it('should release a guard that engages late, after the watchdog gave up on it', async () => {
    const desktop = counterDesktop();
    desktop.behave('engageGuard', { delayMs: 60 });
    const policy = new GuardPolicy(desktop, 20);
    const shown: string[] = [];
    // The scripted engage honours the abort; a real one might not: both paths end released.
    await assert.rejects(
      policy.engage(createProgress({ timeoutMs: 1_000 }), { onEngaged: () => shown.push('engaged'), onReleased: () => shown.push('released'), log: () => {} }),
      (e) => isTandemError(e, 'watchdog'),
    );
    assert.deepEqual(shown, []);
    assert.equal(desktop.guardEngaged, false);
    assert.equal(policy.engaged, false);
  });

  it('should take down a backend guard that comes up after the watchdog gave up waiting for it', async () => {
    const desktop = counterDesktop();
    desktop.behave('engageGuard', { delayMs: 60, ignoreAbort: true });
    const policy = new GuardPolicy(desktop, 20);
    const shown: string[] = [];
    const releasedLate = new Promise<void>((resolve) => desktop.when('guard:release', () => resolve(), { once: true }));
    await assert.rejects(
      policy.engage(createProgress({ timeoutMs: 1_000 }), { onEngaged: () => shown.push('engaged'), onReleased: () => shown.push('released'), log: () => {} }),
      (e) => isTandemError(e, 'watchdog'),
    );
    await releasedLate;
    assert.equal(desktop.guardEngaged, false);
    assert.deepEqual(shown, [], 'no overlay was ever shown for it');
  });

  it('should emit guard-engaged and guard-released exactly once per call on every path', async () => {
    fixture = await engineFixture(undefined, { watchdogMs: 50 });
    const { engine, desktop, events } = fixture;
    await engine.act(act(COUNTER, clickOn('Count: 0'))); // ok
    desktop.when('click', () => desktop.human.pressEscape(), { once: true });
    await engine.act(act(COUNTER, clickOn('Count: 1'))); // cancelled
    await engine.act(act(COUNTER, clickOn('Nope'), typeText('x'))).catch(() => undefined); // thrown before the guard
    desktop.behave('click', { hang: true, once: true });
    await engine.act(act(COUNTER, clickOn('Count: 2'))); // watchdog

    assert.deepEqual(eventNames(events, 'guard-engaged', 'guard-released'), [
      'guard-engaged', 'guard-released', 'guard-engaged', 'guard-released', 'guard-engaged', 'guard-released',
    ]);
    assert.equal(desktop.guardEngaged, false);
  });
});
