// A call whose own steps make the target app quit ("Don't Save", Ctrl+Q): the exit is the outcome,
// told as such (core/call/appExit.ts). On Linux a read of the gone app fails with unknown-app (not on
// the bus), not app-gone; the window the window manager focuses next is not a handoff; a later
// step is not run.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { TandemError } from '../../src/core/errors.js';
import { COUNTER, FINDER, START_CURSOR, act, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import type { ScriptedDesktop } from '../support/scriptedDesktop.js';

/** The app quits on the click, and then reads of it fail the way the Linux backend's do. */
function quitsOnClickLikeLinux(desktop: ScriptedDesktop, thenFront?: number): void {
  desktop.when(
    'click',
    () => {
      desktop.quitApp(COUNTER);
      if (thenFront !== undefined) desktop.frontmostPid = thenFront;
      desktop.behave('snapshot', { fail: new TandemError('unknown-app', `No app with pid ${COUNTER} on the accessibility bus.`) });
      desktop.behave('waitForQuiet', { fail: new TandemError('unknown-app', `No app with pid ${COUNTER} on the accessibility bus.`) });
    },
    { once: true },
  );
}

describe('transaction: the target app quits because of the call', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should answer ok with the exit (pid, step), no diff and a screenshot when reads of the gone app say unknown-app', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    quitsOnClickLikeLinux(desktop);
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));

    assert.equal(result.status, 'ok', `not an error: ${result.error?.message}`);
    assert.equal(result.appExited, true);
    assert.equal(result.exitedAfterStep, 1);
    assert.match(result.summary, /Counter \(pid 200\) exited after its last step/);
    assert.equal(result.diff, undefined);
    assert.deepEqual(result.textChanges, []);
    assert.ok(result.screenshot, 'the screen is still captured');
    assert.equal(result.appSwitch, undefined);
    assert.deepEqual(desktop.cursor, START_CURSOR, 'the restore still ran');
  });

  it('should not call the window that is on top once the target is gone an app switch', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    quitsOnClickLikeLinux(desktop, FINDER);
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));

    assert.equal(result.status, 'ok');
    assert.equal(result.appExited, true);
    assert.equal(result.appSwitch, undefined, 'Finder was there before the call and only came up because the target went away');
    assert.notEqual(result.restore.frontmost, 'skipped-handoff');
  });

  it('should run no step after the exit and say how many ran, when the next step needs the gone app', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    quitsOnClickLikeLinux(desktop);
    const result = await engine.act(act(COUNTER, clickOn('Count: 0'), clickOn('Name')));

    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'app-gone');
    assert.match(result.error!.message, /Counter \(pid 200\) exited during the call, after 1 of 2 steps; the remaining 1 step was not run/);
    assert.equal(result.stepsDone.length, 1);
    assert.equal(result.exitedAfterStep, 1);
    assert.equal(desktop.calls.filter((call) => call.startsWith('click ')).length, 1, 'the second click was not sent');
    assert.ok(result.screenshot, 'the screen is still captured after the failure');
    assert.deepEqual(desktop.cursor, START_CURSOR);
  });
});
