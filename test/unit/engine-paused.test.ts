import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { isTandemError } from '../../src/core/errors.js';
import { COUNTER, act, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { modelText } from '../support/modelText.js';

describe('engine: paused by the person', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should refuse actions while paused, keep read-only tools working, and act again once resumed', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    engine.setPaused(true);
    assert.equal(engine.paused, true);
    await assert.rejects(engine.act(act(COUNTER, clickOn('Count: 0'))), (error) => {
      assert.ok(isTandemError(error, 'paused'));
      assert.equal(error.message, 'Agent control is paused by the person in the Tandem menu.');
      assert.match(modelText(error), /^hint: The person has paused agent control .*Read-only tools .* still work/m);
      return true;
    });
    assert.equal(desktop.guardEngagements, 0);
    assert.equal((await engine.refresh(COUNTER)).status, 'ok');
    assert.ok((await engine.listApps()).some((app) => app.pid === COUNTER));

    engine.setPaused(false);
    assert.equal((await engine.act(act(COUNTER, clickOn('Count: 0')))).status, 'ok');
  });

  it('should refuse a queued action when the person pauses before its turn comes', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.behave('click', { delayMs: 20, once: true });
    const first = engine.act(act(COUNTER, clickOn('Count: 0')));
    const second = engine.act(act(COUNTER, clickOn('Name')));
    desktop.when('guard:engage', () => engine.setPaused(true), { once: true });
    assert.equal((await first).status, 'ok', 'the running action finishes');
    await assert.rejects(second, (e) => isTandemError(e, 'paused'));
    assert.equal(desktop.guardEngagements, 1);
  });
});
