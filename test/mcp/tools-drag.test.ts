// The drag tool through the SDK client over the real engine and the scripted desktop: ends by
// element_index or screen point, the defaults, a drag as a step of run_steps, and the
// refusals a model reads when an end is unclear or a number absurd.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, it } from 'node:test';
import { COUNTER, line, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';
import { indexOnLine } from '../support/treeIndex.js';

describe('mcp: drag', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  const drags = (): string[] => fixture.desktop.actions().filter((action) => action.startsWith('drag'));

  it('should drag between screen points (300 ms, left button by default) and give the pointer back', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('drag', { pid: COUNTER, from: { x: 20, y: 105 }, to: { x: 150, y: 105 } });
    assert.equal(line(result, 'status'), 'ok', textOf(result));
    assert.equal(line(result, 'steps'), '1/1 done: dragged from 20,105 to 150,105 in 300 ms');
    assert.deepEqual(drags(), ['drag 20,105 -> 150,105 300ms']);
    assert.equal(fixture.desktop.guardEngagements, 1);
    assert.deepEqual(fixture.desktop.cursor, { x: 5, y: 5 }, 'the pointer is put back');
  });

  it('should drag from an element by element_index to a screen point, with the button, modifiers and duration sent', async () => {
    fixture = await mcpFixture();
    const tree = await fixture.call('refresh_traversal', { pid: COUNTER });
    const index = indexOnLine(await readFile(line(tree, 'file')!, 'utf8'), '[PushButton] "Count: 0"');
    const result = await fixture.call('drag', { pid: COUNTER, from: { element_index: index }, to: { x: 300, y: 200 }, duration_ms: 1200, button: 'middle', modifiers: ['ctrl'] });
    assert.equal(line(result, 'status'), 'ok', textOf(result));
    assert.match(line(result, 'steps') ?? '', /^1\/1 done: dragged from \[PushButton\] "Count: 0" at 60,25 to 300,200 in 1200 ms with the middle button and control$/);
    assert.deepEqual(drags(), ['drag 60,25 -> 300,200 1200ms middle control']);
  });

  it('should run a drag as a step of run_steps, its ends in tree coordinates or by element', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('run_steps', { pid: COUNTER, steps: [{ action: 'click', x: 60, y: 25 }, { action: 'drag', from: { element: 'Name', role: 'text' }, to: { x: 250, y: 50 }, duration_ms: 0 }] });
    assert.equal(line(result, 'status'), 'ok', textOf(result));
    assert.deepEqual(drags(), ['drag 110,105 -> 250,50 0ms']);
    const unclear = await fixture.call('run_steps', { pid: COUNTER, steps: [{ action: 'drag', from: { x: 1, y: 1 }, to: {} }] });
    assert.equal(unclear.isError, true);
    assert.match(textOf(unclear), /steps\[0\] \(drag\): to: say where/);
    assert.deepEqual(drags(), ['drag 110,105 -> 250,50 0ms'], 'the refused chain dragged nothing');
  });

  it('should refuse unclear ends and absurd numbers, saying what to send, touching nothing', async () => {
    fixture = await mcpFixture();
    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ from: { x: 1, y: 2 } }, /to is required|"to" needs/],
      [{ from: {}, to: { x: 1, y: 1 } }, /from: Say what to drag from: element_index from the latest tree, or x and y in screen points as the tree prints them/],
      [{ from: { x: 1 }, to: { x: 1, y: 1 } }, /from: Send both x and y \(y is missing\)/],
      [{ from: { element_index: 3, x: 1, y: 1 }, to: { x: 1, y: 1 } }, /from: Send element_index, or x and y/],
      [{ from: { x: 1, y: 1 }, to: { x: 1, y: 1 }, duration_ms: 1e12 }, /duration_ms must be a whole number from 0 to 10000/],
      [{ from: { x: 1, y: 1 }, to: { x: 1e308, y: 1 } }, /x must be a number of screen points/],
      [{ from: { x: 1, y: 1 }, to: { x: 1, y: 1 }, button: 'thumb' }, /button must be one of "left", "right", "middle"/],
      [{ from: { x: 1, y: 1, z: 3 }, to: { x: 1, y: 1 } }, /Unknown parameter "z"\. "from" takes: element_index, x, y/],
      [{ from: { x: 1, y: 1 }, to: { x: 1, y: 1 }, window_id: 5 }, /Unknown parameter "window_id"/],
      [{ from: { x: 1, y: 1 }, to: { x: 1, y: 1 }, steps: [] }, /Unknown parameter "steps"/],
    ];
    for (const [args, pattern] of refusals) {
      const result = await fixture.call('drag', { pid: COUNTER, ...args });
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match(textOf(result), pattern, JSON.stringify(args));
    }
    assert.equal(fixture.desktop.guardEngagements, 0);
    assert.deepEqual(drags(), []);
  });
});
