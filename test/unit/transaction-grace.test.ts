import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { isTandemError } from '../../src/core/errors.js';
import type { GuardReleasedEvent } from '../../src/core/engineApi.js';
import { COUNTER, act, clickOn, engineFixture, eventNames, press, typeText, type EngineFixture } from '../support/engineFixtures.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the late-Esc grace period after the last step', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  const threeSteps = () => act(COUNTER, clickOn('Name'), typeText('abc'), press('Return'));
  const releases = (f: EngineFixture): string[] => f.events.filter((e) => e.event === 'guard-released').map((e) => (e.payload as GuardReleasedEvent).reason);

  it('should answer without waiting for it, and keep the guard up until it has passed', async () => {
    // The answer arriving while the guard still holds the input is the proof it did not wait
    // (no wall-clock bound: a loaded machine stretches the call itself).
    fixture = await engineFixture(undefined, { graceMs: 1_000 });
    const { engine, desktop } = fixture;
    const result = await engine.act(threeSteps());

    assert.equal(result.status, 'ok');
    assert.equal(desktop.guardEngaged, true, 'the answer came while the guard still holds the input');
    assert.deepEqual(eventNames(fixture.events, 'guard-engaged', 'call-finished', 'guard-released'), ['guard-engaged', 'call-finished']);
    await sleep(1_100);
    assert.equal(desktop.guardEngaged, false);
    assert.deepEqual(releases(fixture), ['done']);
  });

  it('should give the input back at once on a late Esc and refuse the next action, saying why', async () => {
    fixture = await engineFixture(undefined, { graceMs: 5_000 });
    const { engine, desktop } = fixture;
    const first = await engine.act(threeSteps());
    assert.equal(first.status, 'ok');
    assert.equal(desktop.human.pressEscape(), true, 'the guard saw the Esc');
    await sleep(0);
    assert.equal(desktop.guardEngaged, false, 'released at once, not after 5 s');
    assert.deepEqual(releases(fixture), ['cancelled']);

    const clicksBefore = desktop.actions().filter((call) => call.startsWith('click')).length;
    const refused = await engine.act(act(COUNTER, clickOn('Count: 0'))).catch((error: unknown) => error);
    assert.ok(isTandemError(refused, 'cancelled'), `refused as cancelled: ${String(refused)}`);
    assert.match((refused as Error).message, /pressed Esc just after the previous action had finished \(act: clicked .*typed "abc"; pressed return\)/);
    assert.equal(desktop.actions().filter((call) => call.startsWith('click')).length, clicksBefore, 'nothing was clicked');
    assert.equal(desktop.guardEngagements, 1, 'the guard was not engaged again');

    const after = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(after.status, 'ok', 'the Esc stops one action, not every later one');
  });

  it('should let the next action wait for the grace period rather than fail as nested', async () => {
    fixture = await engineFixture(undefined, { graceMs: 150 });
    const { engine, desktop } = fixture;
    const [first, second] = await Promise.all([engine.act(act(COUNTER, clickOn('Count: 0'))), engine.act(act(COUNTER, clickOn('Count: 1')))]);
    assert.equal(first.status, 'ok');
    assert.equal(second.status, 'ok');
    assert.equal(desktop.guardEngagements, 2);
    const calls = desktop.calls;
    assert.ok(calls.indexOf('guard:release') < calls.lastIndexOf('guard:engage'), 'the first guard was down before the second went up');
  });

  it('should give the input back when the engine closes during the grace period', async () => {
    fixture = await engineFixture(undefined, { graceMs: 60_000 });
    const { engine, desktop } = fixture;
    await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(desktop.guardEngaged, true);
    await engine.close();
    assert.equal(desktop.guardEngaged, false);
  });
});
