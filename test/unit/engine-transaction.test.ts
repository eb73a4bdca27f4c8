import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { TandemError, isTandemError } from '../../src/core/errors.js';
import { ScriptedDesktop } from '../support/scriptedDesktop.js';
import { COUNTER, FINDER, START_CURSOR, act, clickAt, clickOn, engineFixture, eventNames, press, typeText, type EngineFixture } from '../support/engineFixtures.js';
import { modelText, stepsText } from '../support/modelText.js';

describe('engine transaction', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should engage the guard, bring the app forward, act, then give everything back in that order', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));

    assert.equal(result.status, 'ok');
    assert.deepEqual(desktop.actions(), ['guard:engage', 'activate 200', 'click 60,25', 'guard:release', 'move-cursor 5,5', 'activate 100']);
    assert.equal(desktop.find(COUNTER, 'Count: 1').role, 'PushButton');
    assert.equal(desktop.guardEngaged, false);
    assert.deepEqual(desktop.cursor, START_CURSOR);
    assert.equal(desktop.frontmostPid, FINDER);
    assert.deepEqual(result.restore, { cursor: true, frontmost: 'restored' });
  });

  it('should report what changed as a summary, text changes, a diff file and a screenshot', async () => {
    fixture = await engineFixture();
    const result = await fixture.engine.act(act(COUNTER, clickOn('Count: 0')));

    assert.equal(result.summary, '1 text change');
    assert.deepEqual(result.textChanges, [{ role: 'PushButton', before: 'Count: 0', after: 'Count: 1' }]);
    assert.deepEqual(stepsText(result), ['clicked [PushButton] "Count: 0" at 60,25']);
    assert.equal(result.stepsTotal, 1);
    assert.ok(result.file?.startsWith(fixture.artifactsDir) && result.file.endsWith('_act.txt'));
    assert.ok(result.screenshot?.endsWith('_act.png'));
    const text = await fixture.artifactText();
    assert.match(text, /~ #2 \[PushButton\] "Count: 1" \| text: 'Count: 0' -> 'Count: 1'/);
  });

  it('should run several steps in order inside one guard', async () => {
    fixture = await engineFixture();
    const { engine, desktop, events } = fixture;
    const result = await engine.act(act(COUNTER, clickOn('Name'), typeText(' Smith'), press('Enter', ['cmd'])));

    assert.equal(result.status, 'ok');
    assert.deepEqual(desktop.actions(), ['guard:engage', 'activate 200', 'click 110,105', 'type  Smith', 'key meta+return', 'guard:release', 'move-cursor 5,5', 'activate 100']);
    assert.deepEqual(stepsText(result), ['clicked [Text] "Name" at 110,105', 'typed " Smith"', 'pressed meta+return']);
    assert.deepEqual(eventNames(events, 'call-started', 'guard-engaged', 'step', 'guard-released', 'call-finished'), [
      'call-started', 'guard-engaged', 'step', 'step', 'step', 'guard-released', 'call-finished',
    ]);
    const engaged = events.find((e) => e.event === 'guard-engaged')!.payload as { label: string };
    assert.equal(engaged.label, 'Tandem is clicking in Counter — press Esc to take back control');
  });

  it('should not activate anything or move the cursor back when nothing needs it', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.frontmostPid = COUNTER;
    desktop.cursor = { x: 60, y: 25 };
    const result = await engine.act(act(COUNTER, clickAt(60, 25)));

    assert.deepEqual(desktop.actions(), ['guard:engage', 'click 60,25', 'guard:release']);
    assert.deepEqual(result.restore, { cursor: true, frontmost: 'not-needed' });
  });

  it('should throw before touching anything for an unknown pid, listing the running apps', async () => {
    fixture = await engineFixture();
    await assert.rejects(fixture.engine.act(act(999, clickAt(1, 1))), (error) => {
      assert.ok(isTandemError(error, 'unknown-app'));
      assert.match(error.message, /^100 Finder$/m);
      assert.match(error.message, /^200 Counter$/m);
      assert.match(modelText(error), /^hint: Use a pid from list_applications\. To start an app, call open_application_and_traverse/m);
      return true;
    });
    assert.deepEqual(fixture.desktop.actions(), []);
    assert.equal(fixture.events.length, 0);
  });

  it('should throw bad-input before engaging the guard for empty text, bad keys and empty queries', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    await assert.rejects(engine.act(act(COUNTER, typeText(''))), (e) => isTandemError(e, 'bad-input'));
    await assert.rejects(engine.act(act(COUNTER, press('Hyper+Q'))), (e) => isTandemError(e, 'bad-input') && /Unknown key/.test(e.message));
    await assert.rejects(engine.act(act(COUNTER, press('a', ['banana']))), (e) => isTandemError(e, 'bad-input'));
    await assert.rejects(engine.act(act(COUNTER, clickOn({}))), (e) => isTandemError(e, 'bad-input'));
    await assert.rejects(engine.act({ tool: 'act', pid: COUNTER, steps: [] }), (e) => isTandemError(e, 'bad-input'));
    assert.deepEqual(desktop.actions(), []);
  });

  it('should throw not-found with candidates before engaging the guard when the first target is not in the tree', async () => {
    fixture = await engineFixture();
    await assert.rejects(fixture.engine.act(act(COUNTER, clickOn('Cuont'))), (e) => isTandemError(e, 'not-found') && /Count: 0/.test(e.message));
    assert.equal(fixture.desktop.guardEngagements, 0);
  });

  it('should return an error result, with the restore done, when a later step fails', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const result = await engine.act(act(COUNTER, clickOn('Count: 0'), clickOn('No such button')));

    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'not-found');
    assert.deepEqual(stepsText(result), ['clicked [PushButton] "Count: 0" at 60,25']);
    assert.match(result.summary, /^failed after 1 of 2 steps; 1 text change$/);
    assert.equal(desktop.guardEngaged, false);
    assert.deepEqual(desktop.cursor, START_CURSOR);
    assert.equal(desktop.frontmostPid, FINDER);
    assert.deepEqual(result.restore, { cursor: true, frontmost: 'restored' });
    assert.ok(result.file, 'the diff file is still written');
  });

  it('should say honestly when the previous app could not be brought back', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.when('click', () => {
      desktop.activationAllowed = false;
    });
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));

    assert.equal(result.status, 'ok');
    assert.equal(result.restore.frontmost, 'failed');
    assert.equal(desktop.frontmostPid, COUNTER);
  });

  it('should report the app exiting on its last step as what happened, and still restore', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.when('click', () => desktop.quitApp(COUNTER), { once: true });
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));

    assert.equal(result.status, 'ok', 'the app quitting is an outcome, not a failure, when every step ran');
    assert.match(result.summary, /Counter \(pid 200\) exited after its last step/);
    assert.equal(result.exitedAfterStep, 1);
    assert.equal(result.diff, undefined, "no diff is claimed for an app that is gone");
    assert.equal(desktop.guardEngaged, false);
    assert.deepEqual(desktop.cursor, START_CURSOR);
  });

  it('should run no further step once the app exited, so no input lands in another app', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.when('click', () => desktop.quitApp(COUNTER), { once: true });
    const result = await engine.act(act(COUNTER, clickOn('Count: 0'), typeText('stray')));

    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'app-gone');
    assert.match(result.error!.message, /exited during the call, after 1 of 2 steps; the remaining 1 step was not run/);
    assert.ok(!desktop.calls.some((c) => c.startsWith('type')), 'nothing was typed after the app exited');
    assert.equal(desktop.guardEngaged, false);
    assert.deepEqual(desktop.cursor, START_CURSOR);
  });

  it('should return a failing primitive as an error result and run no later step', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.behave('typeText', { fail: new TandemError('app-gone', 'Counter (pid 200) exited while typing.') });
    const result = await engine.act(act(COUNTER, clickOn('Name'), typeText('abc'), press('Return')));

    assert.equal(result.status, 'error');
    assert.deepEqual(result.error, { code: 'app-gone', message: 'Counter (pid 200) exited while typing.' });
    assert.equal(result.stepsDone.length, 1);
    assert.ok(!desktop.calls.some((call) => call.startsWith('key')));
    assert.equal(desktop.guardEngaged, false);
    assert.deepEqual(desktop.cursor, START_CURSOR);
  });

  it('should find a later step\'s target in the tree as it is after the earlier steps', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const result = await engine.act(act(COUNTER, clickOn('Count: 0'), clickOn('Count: 1'), clickOn('Count: 2')));
    assert.equal(result.status, 'ok');
    assert.equal(desktop.find(COUNTER, 'Count: 3').role, 'PushButton');
    assert.deepEqual(result.textChanges, [{ role: 'PushButton', before: 'Count: 0', after: 'Count: 3' }]);
  });

  it('should use accessibility actions for element-action, set-value and set-selected steps', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const result = await engine.act(
      act(
        COUNTER,
        { kind: 'element-action', query: { text: 'Count: 0' }, action: 'press' },
        { kind: 'set-value', query: { text: 'Name' }, value: 'Ada' },
        { kind: 'set-selected', query: { text: 'Item 2' }, selected: true },
      ),
    );
    assert.equal(result.status, 'ok');
    assert.deepEqual(stepsText(result), ['performed "press" on [PushButton] "Count: 0"', 'set [Text] "Name" to "Ada"', 'selected [ListItem] "Item 2"']);
    assert.equal(desktop.find(COUNTER, 'Count: 1').role, 'PushButton');
    assert.equal(desktop.find(COUNTER, 'Ada').role, 'Text');
    assert.equal(desktop.find(COUNTER, 'Item 2').selected, true);
    assert.ok(!desktop.calls.some((c) => c.startsWith('click')), 'no synthetic click was needed');
  });

  it('should refuse waits longer than the watchdog allows before engaging the guard', async () => {
    fixture = await engineFixture(undefined, { watchdogMs: 1_000 });
    await assert.rejects(fixture.engine.act(act(COUNTER, { kind: 'wait', ms: 600 }, { kind: 'wait', ms: 600 })), (e) => isTandemError(e, 'bad-input') && /watchdog/.test(e.message));
    assert.equal(fixture.desktop.guardEngagements, 0);
  });

  it('should name the running call and its app in `current`', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    let seen: unknown = null;
    desktop.when('click', () => {
      seen = engine.current;
    });
    await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.deepEqual(seen, { callId: 1, tool: 'act', app: 'Counter' });
    assert.equal(engine.current, null);
  });

  it('should flag a truncated tree in the result', async () => {
    fixture = await engineFixture(undefined, { snapshotLimits: { maxElements: 5 } });
    const result = await fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.deepEqual(result.truncated, { pid: COUNTER, reason: 'count', detail: 'stopped at 5 elements' });
  });

  it('should type into the field that shares its name with a label, and return the facts of that choice', async () => {
    const NOTES = 500;
    const desktop = new ScriptedDesktop({
      apps: [
        { pid: FINDER, name: 'Finder', tree: { role: 'Application', text: 'Finder', children: [{ role: 'Window', text: 'Desktop', bounds: { x: 0, y: 0, width: 1280, height: 800 } }] } },
        {
          pid: NOTES,
          name: 'Notes',
          tree: {
            role: 'Application',
            text: 'Notes',
            children: [
              {
                role: 'Window',
                text: 'Delivery',
                bounds: { x: 0, y: 0, width: 400, height: 300 },
                children: [
                  { role: 'Label', text: 'Courier note', bounds: { x: 10, y: 10, width: 90, height: 24 } },
                  { role: 'Text', text: 'Courier note', identity: 'note-field', bounds: { x: 110, y: 10, width: 200, height: 24 } },
                ],
              },
            ],
          },
        },
      ],
      frontmostPid: FINDER,
      cursor: START_CURSOR,
    });
    fixture = await engineFixture(desktop);
    const result = await fixture.engine.act(act(NOTES, clickOn('Courier note'), typeText('Leave it at the door')));

    assert.equal(result.status, 'ok');
    assert.equal(desktop.find(NOTES, 'note-field').value, 'Leave it at the door', 'the text landed in the field');
    assert.deepEqual(result.textChanges, [{ role: 'Text', field: 'value', name: 'Courier note', before: '', after: 'Leave it at the door' }]);
    assert.deepEqual(result.choices, [{ step: 0, chosen: { index: 3, role: 'Text', name: 'Courier note' }, over: { index: 2, role: 'Label', name: 'Courier note' }, reason: 'editable', matched: 2 }]);
    assert.deepEqual(stepsText(result), ['clicked [Text] "Courier note" at 210,22', 'typed "Leave it at the door"'], 'the steps carry no sentence about it: the MCP layer writes that');

    const click = await fixture.engine.act(act(NOTES, clickOn('Courier note')));
    assert.equal(click.choices?.[0].reason, 'interactive', 'a click alone prefers the field too');
    const unique = await fixture.engine.act(act(NOTES, clickOn({ text: 'Courier note', role: 'label' })));
    assert.equal(unique.choices, undefined, 'nothing to explain when only one element matched');
  });
});
