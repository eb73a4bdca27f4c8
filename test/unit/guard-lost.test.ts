import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { GuardReleasedEvent } from '../../src/core/engineApi.js';
import { COUNTER, FINDER, START_CURSOR, act, clickOn, engineFixture, press, typeText, type EngineFixture } from '../support/engineFixtures.js';
import { stepsText } from '../support/modelText.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('guard lost: the backend stops holding the input by itself', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  const threeSteps = () => act(COUNTER, clickOn('Name'), typeText('abc'), press('Return'));
  const releases = (f: EngineFixture): string[] => f.events.filter((e) => e.event === 'guard-released').map((e) => (e.payload as GuardReleasedEvent).reason);

  it('should stop between steps with guard-lost, send nothing more, and still restore', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.when('click', () => desktop.loseGuard('the guard thread exited'), { once: true });
    const result = await engine.act(threeSteps());

    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'guard-lost');
    assert.match(result.error?.message ?? '', /the guard thread exited/);
    assert.deepEqual(stepsText(result), ['clicked [Text] "Name" at 110,105']);
    assert.ok(!desktop.calls.some((c) => c.startsWith('type') || c.startsWith('key')), `no input after the loss: ${desktop.calls.join(', ')}`);
    assert.deepEqual(releases(fixture), ['lost']);
    assert.deepEqual(desktop.cursor, START_CURSOR, 'cursor restored');
    assert.equal(desktop.frontmostPid, FINDER, 'previous app in front again');
  });

  it('should end a step that is still sending at once, not when it would have finished', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    // Typing that only ends when its progress is aborted, like paced input waiting on the app.
    desktop.behave('typeText', { hang: true });
    desktop.when('type', () => setTimeout(() => desktop.loseGuard('heartbeat-lost'), 5), { once: true });
    const started = Date.now();
    const result = await engine.act(threeSteps());

    assert.equal(result.error?.code, 'guard-lost');
    assert.ok(Date.now() - started < 2_000, `answered at once (${Date.now() - started} ms), not at the watchdog`);
    assert.equal(result.watchdogFired, false);
    assert.equal(result.stepsDone.length, 1);
    assert.ok(!desktop.calls.some((c) => c.startsWith('key')), 'the step after the loss never ran');
    assert.deepEqual(releases(fixture), ['lost']);
  });

  it('should not count as an Esc: the hint does not tell the model the person cancelled', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.when('click', () => desktop.loseGuard('tap disabled'), { once: true });
    const result = await engine.act(threeSteps());
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'guard-lost');
    assert.equal(result.cancelledBy, undefined, 'a lost guard is not the person pressing Esc');
  });

  it('should give the input back quietly when lost in the grace period, and not refuse the next action', async () => {
    fixture = await engineFixture(undefined, { graceMs: 5_000 });
    const { engine, desktop } = fixture;
    const first = await engine.act(threeSteps());
    assert.equal(first.status, 'ok');
    assert.equal(desktop.guardEngaged, true, 'the grace period holds the guard');
    desktop.loseGuard('lifetime cap');
    await sleep(0);
    assert.deepEqual(releases(fixture), ['lost']);
    const next = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(next.status, 'ok', 'a loss is not a late Esc');
    assert.equal(desktop.guardEngagements, 2);
  });

  it('should ignore a loss reported after the call released the guard', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    let listener: { onLost(reason: string): void } | undefined;
    const engage = desktop.engageGuard.bind(desktop);
    desktop.engageGuard = async (l, progress) => {
      listener = l;
      return engage(l, progress);
    };
    const result = await engine.act(threeSteps());
    assert.equal(result.status, 'ok');
    listener!.onLost('late report');
    await sleep(0);
    assert.deepEqual(releases(fixture), ['done']);
  });
});
