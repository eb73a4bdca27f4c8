import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import { isTandemError } from '../../src/core/errors.js';
import { COUNTER, act, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { modelText } from '../support/modelText.js';

/** element_index of the first tree-file line starting with `prefix`, as a model would grep it. */
async function indexInTreeFile(file: string, prefix: string): Promise<number> {
  const line = (await readFile(file, 'utf8')).split('\n').find((candidate) => candidate.replace(/^#\d+ /, '').startsWith(prefix));
  assert.ok(line, `${prefix} is in the tree file`);
  return Number(/^#(\d+) /.exec(line)![1]);
}

describe('engine: element_index from the latest tree', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should click the element an index from the refreshed tree names', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const tree = await engine.refresh(COUNTER);
    const index = await indexInTreeFile(tree.file!, '[PushButton] "Count: 0"');
    const result = await engine.act(act(COUNTER, clickOn({ index })));
    assert.equal(result.status, 'ok');
    assert.equal(desktop.find(COUNTER, 'Count: 1').role, 'PushButton');
  });

  it('should still find the element when other elements moved it to another position in the tree', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const tree = await engine.refresh(COUNTER);
    const index = await indexInTreeFile(tree.file!, '[PushButton] "Count: 0"');
    const window = desktop.find(COUNTER, 'Counter').children[0];
    // A banner appears above the button: every later index shifts by one.
    const banner = window.append({ role: 'Label', text: 'Update available', bounds: { x: 0, y: 280, width: 400, height: 20 } });
    window.children.unshift(window.children.pop()!);
    assert.equal(banner.parent, window);
    const result = await engine.act(act(COUNTER, clickOn({ index })));
    assert.equal(result.status, 'ok');
    assert.equal(desktop.find(COUNTER, 'Count: 1').role, 'PushButton', 'the same button was clicked, not what now has its index');
  });

  it('should refuse a stale index, touching nothing, when its element is gone', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const tree = await engine.refresh(COUNTER);
    const index = await indexInTreeFile(tree.file!, '[PushButton] "Count: 0"');
    desktop.find(COUNTER, 'Count: 0').remove();
    await assert.rejects(engine.act(act(COUNTER, clickOn({ index }))), (error) => {
      assert.ok(isTandemError(error, 'stale-element'));
      assert.equal(error.message, `element_index ${index} is stale: the element it named is no longer in the tree.`);
      assert.match(modelText(error), /^hint: That element_index is from an older tree\. Call refresh_traversal/m);
      return true;
    });
    assert.equal(desktop.guardEngagements, 0);
    assert.ok(!desktop.calls.some((c) => c.startsWith('click')));
  });

  it('should refuse, pressing nothing, an index whose element is gone after an action gave it to an element the answer did not show, and keep a moved element\'s index naming it', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const window = desktop.find(COUNTER, 'Counter').children[0];
    const status = desktop.find(COUNTER, 'Status: idle');
    const linkSpec = { role: 'Link', text: 'Early link', bounds: { x: 10, y: 200, width: 100, height: 20 }, onClick: () => status.setText('Status: link') };
    // A page: its link, a wrapper paragraph after it, and Reload, which builds the link anew below the others.
    const link = window.append(linkSpec);
    window.append({ role: 'Paragraph', text: 'Wrapper', bounds: { x: 10, y: 220, width: 300, height: 20 }, onClick: () => status.setText('Status: paragraph') });
    let reloads = 0;
    window.append({ role: 'PushButton', text: 'Reload', bounds: { x: 10, y: 240, width: 100, height: 20 }, onClick: () => { reloads++; link.remove(); window.append({ ...linkSpec, bounds: { x: 10, y: 260, width: 100, height: 20 } }); } });
    const tree = await engine.refresh(COUNTER);
    const index = await indexInTreeFile(tree.file!, '[Link] "Early link"');
    const wrapperIndex = await indexInTreeFile(tree.file!, '[Paragraph] "Wrapper"');
    // The answer matches the rebuilt link to the old one by its looks: no diff line prints either index.
    assert.equal((await engine.act(act(COUNTER, clickOn('Reload')))).status, 'ok');
    const clicksBefore = desktop.calls.filter((c) => c.startsWith('click')).length;
    let instead = -1;
    await assert.rejects(engine.act(act(COUNTER, clickOn({ index }))), (error) => {
      assert.ok(isTandemError(error, 'stale-element'));
      instead = Number(error.details?.instead);
      assert.equal(error.message, `element_index ${index} named [Link] "Early link" when it was last shown; that element is gone and ${index} now names [Paragraph] "Wrapper". The one that looks like it now is element_index ${instead}.`);
      assert.match(modelText(error), /^hint: Nothing was pressed: the element you saw under that element_index is gone/m);
      return true;
    });
    assert.equal(desktop.calls.filter((c) => c.startsWith('click')).length, clicksBefore, 'nothing was clicked');
    assert.equal(status.text, 'Status: idle');
    assert.equal((await engine.act(act(COUNTER, clickOn({ index: instead })))).status, 'ok');
    assert.equal(status.text, 'Status: link', 'the index the refusal named is the link');
    // The wrapper moved up one place when the link went below it; its index from the read still names it, not Reload.
    assert.equal((await engine.act(act(COUNTER, clickOn({ index: wrapperIndex })))).status, 'ok');
    assert.equal(status.text, 'Status: paragraph');
    assert.equal(reloads, 1, 'Reload, which holds that index in the tree now, was not pressed');
  });

  it('should ask for a tree first when no tree of the pid was handed out', async () => {
    fixture = await engineFixture();
    await assert.rejects(fixture.engine.act(act(COUNTER, clickOn({ index: 3 }))), (e) => isTandemError(e, 'bad-input') && /^hint: Read the app first \(refresh_traversal/m.test(modelText(e)));
  });

  it('should still take an index from the refreshed tree after an action that moved nothing', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const tree = await engine.refresh(COUNTER);
    const index = await indexInTreeFile(tree.file!, '[PushButton] "Count: 0"');
    await engine.act(act(COUNTER, clickOn({ index })));
    // The button's text changed ("Count: 1"), but the index still names the same element by identity.
    const again = await engine.act(act(COUNTER, clickOn({ index })));
    assert.equal(again.status, 'ok');
    assert.equal(desktop.find(COUNTER, 'Count: 2').role, 'PushButton');
  });

  it('should take in the next call the index a diff line of the last answer shows, when the tree changed since the refresh', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    await engine.refresh(COUNTER);
    const window = desktop.find(COUNTER, 'Counter').children[0];
    // A banner appears above the button after the refresh: the button's index is one more now.
    window.append({ role: 'Label', text: 'Update available', bounds: { x: 0, y: 280, width: 400, height: 20 } });
    window.children.unshift(window.children.pop()!);
    const clicked = await engine.act(act(COUNTER, clickOn('Count: 0')));
    const index = Number(/^~ #(\d+) \[PushButton\] "Count: 1"/m.exec(clicked.diff ?? '')?.[1]);
    assert.ok(Number.isInteger(index), clicked.diff);
    const again = await engine.act(act(COUNTER, clickOn({ index })));
    assert.equal(again.status, 'ok');
    assert.equal(desktop.find(COUNTER, 'Count: 2').role, 'PushButton', 'the button the diff line named was pressed');
  });

  it('should take in the next call the index a chosen line names, for the chosen element and the other one', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    await engine.refresh(COUNTER);
    const window = desktop.find(COUNTER, 'Counter').children[0];
    const status = desktop.find(COUNTER, 'Status: idle');
    // Two alike "Go" buttons arrive above everything after the refresh: every index shifts.
    for (const which of ['second', 'first']) {
      window.append({ role: 'PushButton', text: 'Go', bounds: { x: 250, y: which === 'first' ? 200 : 240, width: 60, height: 30 }, onClick: () => status.setText(`Status: ${which}`) });
      window.children.unshift(window.children.pop()!);
    }
    const clicked = await engine.act(act(COUNTER, clickOn('Go')));
    assert.equal(status.text, 'Status: first');
    const [choice] = clicked.choices ?? [];
    assert.ok(choice?.over.index !== undefined && choice.chosen.index !== undefined, JSON.stringify(clicked.choices));
    assert.equal((await engine.act(act(COUNTER, clickOn({ index: choice.over.index })))).status, 'ok');
    assert.equal(status.text, 'Status: second', 'the other "Go" the chosen line named was pressed');
    assert.equal((await engine.act(act(COUNTER, clickOn({ index: choice.chosen.index })))).status, 'ok');
    assert.equal(status.text, 'Status: first');
  });

  it('should not give the chosen element the index of the other one when the chosen one is gone after the click', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    await engine.refresh(COUNTER);
    const window = desktop.find(COUNTER, 'Counter').children[0];
    // A dialog's "Go" closes with its click; a "Go" like it stays behind (Writer's Save dialog over its toolbar's Save).
    window.append({ role: 'PushButton', text: 'Go', bounds: { x: 250, y: 240, width: 60, height: 30 } });
    const closes = window.append({ role: 'PushButton', text: 'Go', bounds: { x: 250, y: 200, width: 60, height: 30 }, onClick: () => closes.remove() });
    window.children.unshift(window.children.pop()!);
    const clicked = await engine.act(act(COUNTER, clickOn('Go')));
    const [choice] = clicked.choices ?? [];
    assert.ok(choice, 'two "Go" matched');
    assert.equal(choice.chosen.index, undefined, 'the pressed "Go" is gone: it has no index in the after-tree');
    assert.notEqual(choice.over.index, undefined);
    const text = modelText(clicked);
    assert.doesNotMatch(text, new RegExp(`used #${choice.over.index} .*not #${choice.over.index} `), text);
  });
});

