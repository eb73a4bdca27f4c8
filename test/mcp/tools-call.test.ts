import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, it } from 'node:test';
import { applicationsOutput, callResultOutput } from '../../src/mcp/outputSchemas.js';
import { COUNTER, FINDER, SAVE_PANEL, START_CURSOR, line, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';
import { indexOnLine } from '../support/treeIndex.js';

describe('mcp tools: successful calls over the real engine', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  it('should open an app and name its pid, tree file and screenshot', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('open_application_and_traverse', { identifier: 'Counter' });
    assert.equal(result.isError, undefined);
    assert.equal(line(result, 'status'), 'ok');
    assert.equal(line(result, 'pid'), String(COUNTER));
    assert.equal(line(result, 'app'), 'Counter');
    assert.match(line(result, 'file_size') ?? '', /^\d+ bytes, \d+ elements$/);
    const file = line(result, 'file')!;
    assert.match(await readFile(file, 'utf8'), /\[PushButton\] "Count: 0" x:10 y:10 w:100 h:30 visible/);
    assert.match(line(result, 'screenshot') ?? '', /\.png$/);
    const structured = callResultOutput.parse(result.structuredContent);
    assert.equal(structured.pid, COUNTER);
    assert.equal(structured.file, file);
  });

  it('should refresh without engaging the guard or moving anything', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('refresh_traversal', { pid: COUNTER });
    assert.equal(line(result, 'status'), 'ok');
    assert.match(line(result, 'summary') ?? '', /Counter read: \d+ elements/);
    assert.equal(line(result, 'restore'), undefined, 'nothing to put back after a read');
    assert.equal(fixture.desktop.guardEngagements, 0);
    assert.deepEqual(fixture.desktop.actions(), []);
  });

  it('should list running apps with their pids', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('list_applications');
    assert.equal(result.isError, undefined);
    assert.match(textOf(result), /app: pid 200 "Counter"/);
    assert.match(textOf(result), /app: pid 100 "Finder"/);
    const structured = applicationsOutput.parse(result.structuredContent);
    assert.deepEqual(structured.apps.map((app) => app.pid).sort(), [FINDER, COUNTER]);
    assert.equal(structured.count, 2);
  });

  it('should click by element text and report the text change', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Count: 0', role: 'button' });
    assert.equal(line(result, 'status'), 'ok');
    assert.match(textOf(result), /changes:\n {2}PushButton text: 'Count: 0' -> 'Count: 1'/);
    assert.match(line(result, 'steps') ?? '', /^1\/1 done: clicked/);
    assert.match(await readFile(line(result, 'file')!, 'utf8'), /Count: 1/);
    const structured = callResultOutput.parse(result.structuredContent);
    assert.deepEqual(structured.text_changes, [{ role: 'PushButton', before: 'Count: 0', after: 'Count: 1' }]);
    assert.deepEqual(fixture.desktop.cursor, START_CURSOR, 'the cursor is put back');
  });

  it('should click the centre of x/y/width/height taken from the tree', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('click_and_traverse', { pid: COUNTER, x: 10, y: 10, width: 100, height: 30 });
    assert.equal(line(result, 'status'), 'ok');
    assert.ok(fixture.desktop.calls.includes('click 60,25'), fixture.desktop.actions().join(' | '));
    assert.equal(fixture.desktop.find(COUNTER, 'Count: 1').role, 'PushButton');
  });

  it('should click, type and press in one guarded call', async () => {
    fixture = await mcpFixture();
    let returned = false;
    fixture.desktop.onKey = ({ key }) => {
      if (key === 'return') returned = true;
    };
    const result = await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Name', role: 'text', text: ' Ada', pressKey: 'Enter' });
    assert.equal(line(result, 'status'), 'ok');
    assert.match(line(result, 'steps') ?? '', /^3\/3 done: clicked .*; typed .*; pressed return$/);
    assert.equal(fixture.desktop.find(COUNTER, 'Name').value, ' Ada', 'the field labelled Name holds the typed text');
    assert.equal(returned, true);
    assert.equal(fixture.desktop.guardEngagements, 1, 'one transaction for all three steps');
  });

  it('should run chained steps in order inside one transaction', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('click_and_traverse', {
      pid: COUNTER,
      steps: [
        { action: 'click', element: 'Count: 0' },
        { action: 'click', x: 60, y: 25, doubleClick: true },
        { action: 'click', element: 'Name', role: 'text' },
        { action: 'type', text: '!' },
        { action: 'press', keyName: 'a', modifierFlags: ['ctrl'] },
        { action: 'wait', ms: 1 },
        { action: 'scroll', x: 250, y: 50, deltaY: 3 },
      ],
    });
    assert.equal(line(result, 'status'), 'ok');
    const structured = callResultOutput.parse(result.structuredContent);
    assert.equal(structured.steps_total, 7);
    assert.equal(structured.steps.length, 7);
    assert.equal(fixture.desktop.guardEngagements, 1);
    const actions = fixture.desktop.actions().filter((call) => /^(click|type|key|press|scroll)/.test(call));
    assert.equal(actions.length, 6, actions.join(' | '));
    assert.match(actions[0], /^click 60,25/);
    assert.match(actions[1], /^click 60,25/);
    assert.match(actions[3], /^type/);
    assert.match(actions[4], /control/);
    assert.match(actions[5], /^scroll/);
    assert.equal(fixture.desktop.find(COUNTER, 'Name').value, '!');
  });

  it('should show app_switch and the new app\'s tree when a dialog takes the front', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Save…' });
    assert.equal(line(result, 'status'), 'ok');
    assert.match(line(result, 'app_switch') ?? '', new RegExp(`^pid ${SAVE_PANEL} app "Save Panel" file .*act on pid ${SAVE_PANEL} next`));
    assert.deepEqual(result.content.filter((item) => item.type === 'text').length, 2, 'the handoff tree comes as a second text item');
    const second = result.content[1];
    assert.equal(second.type, 'text');
    assert.match(second.type === 'text' ? second.text : '', /^app_switch tree: pid 300 app "Save Panel"\n# app: Save Panel[\s\S]*\[PushButton\] "Save" x:60 y:200/);
    const structured = callResultOutput.parse(result.structuredContent);
    assert.equal(structured.app_switch?.pid, SAVE_PANEL);
    assert.equal(structured.restore.frontmost, 'skipped-handoff');

    // The next call acts on the new pid, as the response says.
    const next = await fixture.call('click_and_traverse', { pid: SAVE_PANEL, element: 'Save', role: 'button' });
    assert.equal(line(next, 'status'), 'ok');
  });

  it('should type text then press a key', async () => {
    fixture = await mcpFixture();
    await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Name', role: 'text' });
    const result = await fixture.call('type_and_traverse', { pid: COUNTER, text: 'xyz', pressKey: 'tab' });
    assert.equal(line(result, 'status'), 'ok');
    assert.match(textOf(result), /Text "Name" value: '' -> 'xyz'/);
    assert.match(line(result, 'steps') ?? '', /pressed tab/);
  });

  it('should press a key with modifiers', async () => {
    fixture = await mcpFixture();
    let pressed = '';
    fixture.desktop.onKey = ({ key, modifiers }) => {
      pressed = `${modifiers.join('+')}+${key}`;
    };
    const result = await fixture.call('press_key_and_traverse', { pid: COUNTER, keyName: 'S', modifierFlags: ['Command', 'shift'] });
    assert.equal(line(result, 'status'), 'ok');
    assert.equal(pressed, 'shift+meta+S');
  });

  it('should scroll and report what came into view', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('scroll_and_traverse', { pid: COUNTER, x: 250, y: 50, deltaY: 5 });
    assert.equal(line(result, 'status'), 'ok');
    assert.match(line(result, 'summary') ?? '', /added/);
    assert.match(line(result, 'steps') ?? '', /scrolled 5 lines/);
  });

  it('should set a value, press an element action and select an item through accessibility', async () => {
    fixture = await mcpFixture();
    const setValue = await fixture.call('set_value_and_traverse', { pid: COUNTER, element: 'Name', role: 'text', value: 'Grace' });
    assert.equal(line(setValue, 'status'), 'ok');
    assert.match(textOf(setValue), /Text "Name" value: '' -> 'Grace'/);
    assert.match(textOf(setValue), /^summary: 1 value change$/m);

    const pressAx = await fixture.call('press_ax_and_traverse', { pid: COUNTER, element: 'Count: 0' });
    assert.equal(line(pressAx, 'status'), 'ok');
    assert.match(textOf(pressAx), /'Count: 0' -> 'Count: 1'/);

    const select = await fixture.call('set_selected_and_traverse', { pid: COUNTER, element: 'Item 1' });
    assert.equal(line(select, 'status'), 'ok');
    assert.equal(fixture.desktop.find(COUNTER, 'Item 1').selected, true);
    const deselect = await fixture.call('set_selected_and_traverse', { pid: COUNTER, element: 'Item 1', selected: false });
    assert.equal(line(deselect, 'status'), 'ok');
    assert.equal(fixture.desktop.find(COUNTER, 'Item 1').selected, false);
  });

  it('should accept element_index from a tree file', async () => {
    fixture = await mcpFixture();
    const tree = await fixture.call('refresh_traversal', { pid: COUNTER });
    const index = indexOnLine(await readFile(line(tree, 'file')!, 'utf8'), '[PushButton] "Count: 0"');
    const result = await fixture.call('press_ax_and_traverse', { pid: COUNTER, element_index: index });
    assert.equal(line(result, 'status'), 'ok');
    assert.match(textOf(result), /'Count: 0' -> 'Count: 1'/);
  });

  it('should tell the engine which client is calling', async () => {
    fixture = await mcpFixture();
    const started: (string | undefined)[] = [];
    fixture.engine.on('call-started', (event) => started.push(event.clientId));
    await fixture.call('refresh_traversal', { pid: COUNTER });
    assert.deepEqual(started, ['mcp-test-client']);
  });
});
