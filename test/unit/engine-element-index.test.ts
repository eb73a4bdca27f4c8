import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import { isTandemError } from '../../src/core/errors.js';
import { indexOfLineNumber } from '../../src/core/tree/treeFormat.js';
import { COUNTER, act, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { modelText } from '../support/modelText.js';

/** element_index of the first tree-file line starting with `prefix`, as a model would grep it. */
async function indexInTreeFile(file: string, prefix: string): Promise<number> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  const lineNumber = lines.findIndex((line) => line.startsWith(prefix)) + 1;
  assert.ok(lineNumber > 0, `${prefix} is in the tree file`);
  return indexOfLineNumber(lineNumber)!;
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

  it('should ask for a tree first when no tree of the pid was handed out', async () => {
    fixture = await engineFixture();
    await assert.rejects(fixture.engine.act(act(COUNTER, clickOn({ index: 3 }))), (e) => isTandemError(e, 'bad-input') && /^hint: Read the app first \(refresh_traversal/m.test(modelText(e)));
  });

  it('should resolve indexes against the last handed-out tree, not an action\'s after-tree', async () => {
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
});
