// type_text, press_key and get_window_state's window_id through the SDK client, over the real
// engine and the scripted desktop: the way the text went in as a typed_by line and in
// structuredContent, the advice for text that could not go in, the bounds of count and mode,
// and a window the app does not have answered with the windows it has.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, it } from 'node:test';
import { callResultOutput } from '../../src/mcp/outputSchemas.js';
import { COUNTER, line, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';
import { indexOnLine } from '../support/treeIndex.js';

describe('mcp: type_text, press_key, get_window_state window_id', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  const indexOf = async (start: string): Promise<number> => {
    const tree = await fixture.call('refresh_traversal', { pid: COUNTER });
    return indexOnLine(await readFile(line(tree, 'file')!, 'utf8'), start);
  };

  it('should insert into the field by element_index and say so in a typed_by line and in structuredContent', async () => {
    fixture = await mcpFixture();
    const index = await indexOf('[Text] "Name"');
    const result = await fixture.call('type_text', { pid: COUNTER, element_index: index, text: 'Ada' });
    assert.equal(line(result, 'status'), 'ok', textOf(result));
    assert.equal(line(result, 'typed_by'), `step 1 inserted through accessibility into #${index} [Text] "Name" (one edit at the caret, replacing any selection)`);
    assert.deepEqual(callResultOutput.parse(result.structuredContent).typed_by, [{ step: 1, method: 'insertion', element_index: index, role: 'Text', name: 'Name' }]);
    assert.equal(fixture.desktop.find(COUNTER, 'Name').value, 'Ada');
  });

  it('should type keys in mode keys and give the reason', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('type_text', { pid: COUNTER, element_index: await indexOf('[Text] "Name"'), text: 'Bo', mode: 'keys' });
    assert.match(line(result, 'typed_by') ?? '', /^step 1 typed as keys at #\d+ \[Text\] "Name" \(mode "keys" asked for keys\)$/);
    assert.deepEqual(fixture.desktop.actions().filter((a) => a.startsWith('type') || a.startsWith('insert')), ['type Bo']);
  });

  it('should say what to do when an insertion cannot be made', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('type_text', { pid: COUNTER, element_index: await indexOf('[Label] "Status: idle"'), text: 'x', mode: 'insert' });
    assert.equal(result.isError, true);
    assert.equal(line(result, 'hint'), 'Nothing was typed: that element is not an editable field (or it is disabled). Pick a field from the tree (get_window_state {pid, query: "text"}).');
  });

  it('should press a key several times, and refuse counts and modes out of bounds with what to send', async () => {
    fixture = await mcpFixture();
    const pressed = await fixture.call('press_key', { pid: COUNTER, key: 'backspace', count: 3, modifiers: ['ctrl'] });
    assert.match(line(pressed, 'steps') ?? '', /^1\/1 done: pressed control\+backspace ×3$/);
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['press_key', { pid: COUNTER, key: 'a', count: 0 }, /count must be a whole number from 1 to 1000/],
      ['press_key', { pid: COUNTER, key: 'a', count: 1e9 }, /count must be a whole number from 1 to 1000/],
      ['press_key', { pid: COUNTER, key: 'notakey' }, /Unknown key|key/i],
      ['type_text', { pid: COUNTER, text: 'x', mode: 'paste' }, /mode must be one of "auto", "insert", "keys"/],
      ['type_text', { pid: COUNTER, text: '' }, /text must be a non-empty string/],
      ['type_text', { pid: COUNTER, text: 'x', element_index: -1 }, /element_index must be a whole number from 0/],
    ];
    for (const [tool, args, message] of cases) {
      const result = await fixture.call(tool, args);
      assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)}`);
      assert.match(textOf(result), message, `${tool} ${JSON.stringify(args)}: ${textOf(result)}`);
    }
  });

  it("should read one window by window_id, and answer an unknown one with the app's windows", async () => {
    fixture = await mcpFixture();
    const windows = callResultWindows(await fixture.call('list_windows', { pid: COUNTER }));
    const state = await fixture.call('get_window_state', { pid: COUNTER, window_id: windows[0].window_id });
    assert.equal(line(state, 'status'), 'ok', textOf(state));
    const unknown = await fixture.call('get_window_state', { pid: COUNTER, window_id: 7 });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /pid 200 has no window 7\./);
    assert.match(textOf(unknown), new RegExp(`^windows: window_id ${windows[0].window_id} "Counter"$`, 'm'));
  });
});

function callResultWindows(result: { structuredContent?: unknown }): Array<{ window_id: number }> {
  return (result.structuredContent as { windows: Array<{ window_id: number }> }).windows;
}
