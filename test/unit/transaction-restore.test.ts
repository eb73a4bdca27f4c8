import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { CallStatus } from '../../src/core/call/result.js';
import type { ScriptedDesktop } from '../support/scriptedDesktop.js';
import { COUNTER, FINDER, START_CURSOR, act, clickOn, engineFixture, typeText, type EngineFixture } from '../support/engineFixtures.js';

describe('transaction: the person\'s cursor and frontmost app come back on every path', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  const paths: Array<{ status: CallStatus; script: (desktop: ScriptedDesktop) => void }> = [
    { status: 'ok', script: () => {} },
    { status: 'error', script: (d) => d.behave('typeText', { fail: new Error('input method crashed') }) },
    { status: 'cancelled', script: (d) => d.when('type', () => d.human.pressEscape(), { once: true }) },
    { status: 'watchdog', script: (d) => d.behave('typeText', { hang: 'ignore-abort' }) },
  ];

  for (const path of paths) {
    it(`should restore the cursor and the previous app when the call ends ${path.status}`, async () => {
      fixture = await engineFixture(undefined, { watchdogMs: 80 });
      const { engine, desktop } = fixture;
      path.script(desktop);
      const result = await engine.act(act(COUNTER, clickOn('Name'), typeText('abc')));

      assert.equal(result.status, path.status);
      assert.equal(desktop.guardEngaged, false, 'the guard is never left engaged');
      assert.deepEqual(desktop.cursor, START_CURSOR);
      assert.equal(desktop.frontmostPid, FINDER);
      assert.deepEqual(result.restore, { cursor: true, frontmost: 'restored' });
      const actions = desktop.actions();
      assert.ok(actions.indexOf('guard:release') < actions.indexOf('move-cursor 5,5'), 'restore runs after the guard is down');
      assert.ok(result.file, 'the diff file is written on every path');
    });
  }

  it('should report a cursor it could not move back', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.behave('moveCursor', { fail: new Error('XWarpPointer failed') });
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(result.status, 'ok');
    assert.equal(result.restore.cursor, false);
    assert.equal(result.restore.frontmost, 'restored');
    assert.equal(desktop.guardEngaged, false);
  });
});
