import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { isTandemError } from '../../src/core/errors.js';
import { ActionQueue } from '../../src/core/queue.js';
import { COUNTER, act, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';

describe('queue: one desktop action at a time', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should run calls one after the other in arrival order', async () => {
    const queue = new ActionQueue();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([queue.run(task('a', 20)), queue.run(task('b', 1)), queue.run(task('c', 5))]);
    assert.deepEqual(results, ['a', 'b', 'c']);
    assert.deepEqual(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('should keep going after a call fails', async () => {
    const queue = new ActionQueue();
    const failing = queue.run(async () => {
      throw new Error('boom');
    });
    const next = queue.run(async () => 'next');
    await assert.rejects(failing, /boom/);
    assert.equal(await next, 'next');
  });

  it('should drop a waiting call whose client went away, without running it', async () => {
    const queue = new ActionQueue();
    let release!: () => void;
    const first = queue.run(() => new Promise<string>((resolve) => (release = () => resolve('first'))));
    const client = new AbortController();
    let ran = false;
    const second = queue.run(async () => {
      ran = true;
    }, client.signal);
    const third = queue.run(async () => 'third');
    client.abort();
    await assert.rejects(second, (e) => isTandemError(e, 'cancelled'));
    release();
    assert.equal(await first, 'first');
    assert.equal(await third, 'third');
    assert.equal(ran, false);
  });

  it('should never overlap two clients\' actions on the desktop', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.behave('click', { delayMs: 20 });
    const [a, b] = await Promise.all([
      engine.act(act(COUNTER, clickOn('Count: 0')), { clientId: 'claude' }),
      engine.act(act(COUNTER, clickOn('Name')), { clientId: 'cursor' }),
    ]);
    assert.equal(a.status, 'ok');
    assert.equal(b.status, 'ok');
    const guard = desktop.calls.filter((c) => c.startsWith('guard:') || c.startsWith('click'));
    assert.deepEqual(guard, ['guard:engage', 'click 60,25', 'guard:release', 'guard:engage', 'click 110,105', 'guard:release']);
    assert.equal(desktop.guardEngagements, 2);
  });

  it('should not run a queued action whose client disconnected while it waited', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.behave('click', { delayMs: 30, once: true });
    const client = new AbortController();
    const first = engine.act(act(COUNTER, clickOn('Count: 0')));
    const second = engine.act(act(COUNTER, clickOn('Name')), { signal: client.signal });
    client.abort();
    await assert.rejects(second, (e) => isTandemError(e, 'cancelled'));
    assert.equal((await first).status, 'ok');
    assert.equal(desktop.guardEngagements, 1);
    assert.ok(!desktop.calls.includes('click 110,105'));
  });

  it('should queue read-only refreshes behind a running action', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.behave('click', { delayMs: 20, once: true });
    const action = engine.act(act(COUNTER, clickOn('Count: 0')));
    const refresh = engine.refresh(COUNTER);
    const [, tree] = await Promise.all([action, refresh]);
    assert.ok(desktop.calls.indexOf('guard:release') < desktop.calls.lastIndexOf('snapshot 200'));
    assert.match(tree.summary, /Counter read/);
  });
});
