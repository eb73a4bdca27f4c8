import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import { COUNTER, FINDER, SAVE_PANEL, START_CURSOR, act, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { indexOnLine } from '../support/treeIndex.js';

describe('transaction: handoff to a window that took the front', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should return the new window\'s tree and leave it in front instead of restoring the old app', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const result = await engine.act(act(COUNTER, clickOn('Save…')));

    assert.equal(result.status, 'ok');
    assert.deepEqual(result.appSwitch && { pid: result.appSwitch.pid, app: result.appSwitch.app }, { pid: SAVE_PANEL, app: 'Save Panel' });
    assert.match(result.handoffTree ?? '', /\[Dialog\] "Save As"/);
    assert.match(result.handoffTree ?? '', /\[PushButton\] "Save"/);
    assert.equal(result.restore.frontmost, 'skipped-handoff');
    assert.equal(result.restore.cursor, true);
    assert.equal(desktop.frontmostPid, SAVE_PANEL, 'the save panel stays in front');
    assert.deepEqual(desktop.cursor, START_CURSOR);
    assert.ok(result.appSwitch?.file, 'the handoff tree is written to its own file');
    assert.match(await readFile(result.appSwitch!.file!, 'utf8'), /\[Dialog\] "Save As"/);
  });

  it('should detect the handoff before anything is restored', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    await engine.act(act(COUNTER, clickOn('Save…')));

    const calls = desktop.calls;
    const handoffRead = calls.indexOf(`snapshot ${SAVE_PANEL}`);
    assert.ok(handoffRead > calls.indexOf('click 60,65'));
    assert.ok(handoffRead < calls.indexOf('guard:release'), 'read while the guard still holds the input');
    assert.ok(handoffRead < calls.indexOf('move-cursor 5,5'));
    assert.ok(!calls.includes(`activate ${FINDER}`), 'the old app is not brought back over the new window');
  });

  it('should let the next call act on the handoff window by element_index from the returned tree', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const first = await engine.act(act(COUNTER, clickOn('Save…')));
    const index = indexOnLine(first.handoffTree ?? '', '[PushButton] "Save"');
    let saved = false;
    desktop.find(SAVE_PANEL, 'Save').spec.onClick = () => {
      saved = true;
    };
    const second = await engine.act(act(SAVE_PANEL, clickOn({ index })));
    assert.equal(second.status, 'ok');
    assert.equal(saved, true);
  });

  it('should not call it a handoff when the person\'s own app comes back to the front', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.find(COUNTER, 'Count: 0').spec.onClick = ({ desktop: d }) => {
      d.frontmostPid = FINDER;
    };
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(result.appSwitch, undefined);
    assert.equal(result.restore.frontmost, 'not-needed');
  });
});
