import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { GuardReleasedEvent } from '../../src/core/engineApi.js';
import { COUNTER, FINDER, START_CURSOR, act, clickOn, engineFixture, press, typeText, type EngineFixture } from '../support/engineFixtures.js';
import { stepsText } from '../support/modelText.js';

describe('guard: Esc cancels', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  const threeSteps = () => act(COUNTER, clickOn('Name'), typeText('abc'), press('Return'));

  function assertGaveEverythingBack(f: EngineFixture): void {
    assert.equal(f.desktop.guardEngaged, false, 'guard released');
    assert.deepEqual(f.desktop.cursor, START_CURSOR, 'cursor restored');
    assert.equal(f.desktop.frontmostPid, FINDER, 'previous app in front again');
    const released = f.events.filter((e) => e.event === 'guard-released').map((e) => (e.payload as GuardReleasedEvent).reason);
    assert.deepEqual(released, ['cancelled']);
  }

  const checkpoints: Array<{ when: string; at: string; done: string[]; notRun: string[] }> = [
    { when: 'before the first step', at: 'activate 200', done: [], notRun: ['click', 'type', 'key'] },
    { when: 'during the first step', at: 'click', done: ['clicked [Text] "Name" at 110,105'], notRun: ['type', 'key'] },
    { when: 'during the second step', at: 'type', done: ['clicked [Text] "Name" at 110,105', 'typed "abc"'], notRun: ['key'] },
    { when: 'while settling after the last step', at: 'settle', done: ['clicked [Text] "Name" at 110,105', 'typed "abc"', 'pressed return'], notRun: [] },
  ];

  for (const checkpoint of checkpoints) {
    it(`should stop ${checkpoint.when} and run no later step`, async () => {
      fixture = await engineFixture();
      const { engine, desktop } = fixture;
      desktop.when(checkpoint.at, () => desktop.human.pressEscape(), { once: true });
      const result = await engine.act(threeSteps());

      assert.equal(result.status, 'cancelled');
      assert.equal(result.error?.code, 'cancelled');
      assert.deepEqual(stepsText(result), checkpoint.done);
      for (const prefix of checkpoint.notRun) assert.ok(!desktop.calls.some((c) => c.startsWith(prefix)), `${prefix} must not run`);
      assert.equal(result.cancelledBy, 'person');
      assertGaveEverythingBack(fixture);
    });
  }

  it('should cancel a step that hangs as soon as Esc is pressed', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.behave('typeText', { hang: 'ignore-abort' });
    desktop.when('type', () => setTimeout(() => desktop.human.pressEscape(), 1), { once: true });
    const result = await engine.act(threeSteps());

    assert.equal(result.status, 'cancelled');
    assert.equal(result.stepsDone.length, 1);
    assertGaveEverythingBack(fixture);
  });

  it('should count other human keys and clicks without cancelling', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.when('click', () => {
      desktop.human.input('key');
      desktop.human.input('pointer');
      desktop.human.input('key');
    });
    const result = await engine.act(threeSteps());

    assert.equal(result.status, 'ok');
    assert.equal(result.humanInputBlocked, 3);
    assert.deepEqual(desktop.passedThrough, []);
  });

  it('should let Esc pass through to the apps when no action is running', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    assert.equal(desktop.human.pressEscape(), false);
    const result = await engine.act(threeSteps());
    assert.equal(result.status, 'ok');
    assert.deepEqual(desktop.passedThrough, ['escape']);
  });

  it('should cancel, and still restore, when the client goes away mid-call', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const client = new AbortController();
    desktop.when('type', () => client.abort(), { once: true });
    const result = await engine.act(threeSteps(), { signal: client.signal });

    assert.equal(result.status, 'cancelled');
    assert.match(result.error?.message ?? '', /client went away/);
    assert.ok(!desktop.calls.some((c) => c.startsWith('key')));
    assert.equal(desktop.guardEngaged, false);
    assert.deepEqual(desktop.cursor, START_CURSOR);
    assert.equal(desktop.frontmostPid, FINDER);
  });
});
