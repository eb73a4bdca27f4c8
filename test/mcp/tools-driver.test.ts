// The driver-style acting tools over the real engine and the scripted desktop: clicks by
// element_index or by a screen point as the tree prints it, double and right clicks, and keys
// and shortcuts chained in run_steps — each one guarded transaction like the others.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, it } from 'node:test';
import { callResultOutput } from '../../src/mcp/outputSchemas.js';
import { counterTree } from '../support/engineFixtures.js';
import { ScriptedDesktop, type ScriptedNodeSpec } from '../support/scriptedDesktop.js';
import { COUNTER, FINDER, line, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';
import { indexOnLine } from '../support/treeIndex.js';

/** The same elements, `dx`,`dy` further right and down on the screen. */
function moved(spec: ScriptedNodeSpec, dx: number, dy: number): ScriptedNodeSpec {
  return {
    ...spec,
    ...(spec.bounds ? { bounds: { ...spec.bounds, x: spec.bounds.x + dx, y: spec.bounds.y + dy } } : {}),
    ...(spec.children ? { children: spec.children.map((child) => moved(child, dx, dy)) } : {}),
  };
}

/** The counter with its window at 200,100 on the screen, so a screen point and a window-local one differ. */
function movedCounterDesktop(): ScriptedDesktop {
  return new ScriptedDesktop({
    apps: [
      { pid: FINDER, name: 'Finder', tree: { role: 'Application', text: 'Finder', children: [{ role: 'Window', text: 'Desktop', bounds: { x: 0, y: 0, width: 1280, height: 800 } }] } },
      { pid: COUNTER, name: 'Counter', tree: moved(counterTree(), 200, 100) },
    ],
    frontmostPid: FINDER,
    cursor: { x: 5, y: 5 },
  });
}

describe('mcp: driver tools (click, double_click, right_click, hotkey)', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  it('should click a screen point as the tree prints it, not counted from the window, and report the change', async () => {
    fixture = await mcpFixture(movedCounterDesktop());
    const tree = await fixture.call('get_window_state', { pid: COUNTER, query: 'Count: 0' });
    assert.match(textOf(tree), /\[PushButton\] "Count: 0" .*x:210 y:110 w:100 h:30/, 'the tree prints screen points');
    const result = await fixture.call('click', { pid: COUNTER, x: 260, y: 125 });
    assert.equal(line(result, 'status'), 'ok', textOf(result));
    assert.deepEqual(fixture.desktop.actions().filter((action) => action.startsWith('click')), ['click 260,125'], 'pressed at the point sent, not shifted by the window');
    assert.deepEqual(callResultOutput.parse(result.structuredContent).text_changes, [{ role: 'PushButton', before: 'Count: 0', after: 'Count: 1' }]);
    assert.equal(fixture.desktop.guardEngagements, 1);
    assert.deepEqual(fixture.desktop.cursor, { x: 5, y: 5 }, 'the pointer is put back');
  });

  it('should click by element_index from the latest tree, double and right', async () => {
    fixture = await mcpFixture();
    const tree = await fixture.call('refresh_traversal', { pid: COUNTER });
    assert.equal(line(tree, 'status'), 'ok');
    const index = indexOnLine(await readFile(line(tree, 'file')!, 'utf8'), '[PushButton] "Count: 0"');
    assert.ok(index >= 0);
    const double = await fixture.call('double_click', { pid: COUNTER, element_index: index });
    assert.match(line(double, 'steps') ?? '', /^1\/1 done: double-clicked \[PushButton\] "Count: 0"/);
    const right = await fixture.call('right_click', { pid: COUNTER, element_index: index });
    assert.match(line(right, 'steps') ?? '', /^1\/1 done: right-clicked \[PushButton\]/);
    const clicks = fixture.desktop.actions().filter((action) => action.startsWith('click'));
    assert.deepEqual(clicks, ['click 60,25 double', 'click 60,25 right'], 'at the centre of the button, as a double then a right click');
  });

  it('should press a shortcut given as keys, modifiers first, and chain keys in run_steps with press_key\'s field names', async () => {
    fixture = await mcpFixture();
    const shortcut = await fixture.call('hotkey', { pid: COUNTER, keys: ['ctrl', 'shift', 't'] });
    assert.equal(line(shortcut, 'status'), 'ok', textOf(shortcut));
    assert.match(line(shortcut, 'steps') ?? '', /pressed shift\+control\+t/);
    const chain = await fixture.call('run_steps', { pid: COUNTER, steps: [{ action: 'hotkey', keys: ['alt', 'f4'] }, { action: 'press', key: 's', modifiers: ['ctrl'] }, { action: 'click', x: 60, y: 25, count: 2 }] });
    assert.equal(line(chain, 'status'), 'ok', textOf(chain));
    assert.match(line(chain, 'steps') ?? '', /^3\/3 done: pressed alt\+f4; pressed control\+s; double-clicked/);
    assert.equal(fixture.desktop.guardEngagements, 2, 'the chain is one guarded call');
    const seedNames = await fixture.call('run_steps', { pid: COUNTER, steps: [{ action: 'press', keyName: 's' }] });
    assert.equal(seedNames.isError, true);
    assert.match(textOf(seedNames), /Unknown parameter "keyName"\. A press step takes: action, key, modifiers/);
  });

  it('should say what to send when the target or the keys are not right', async () => {
    fixture = await mcpFixture();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['click', { pid: COUNTER }, /Say what to click: element_index from the latest tree, or x and y in screen points as the tree prints them/],
      ['click', { pid: COUNTER, x: 5 }, /Send both x and y \(y is missing\)/],
      ['click', { pid: COUNTER, element_index: 2, x: 5, y: 5 }, /Send element_index, or x and y, not both/],
      ['click', { pid: COUNTER, x: 5, y: 5, window_id: 1 }, /Unknown parameter "window_id"/],
      ['click', { pid: COUNTER, x: 5, y: 5, count: 3 }, /count must be a whole number from 1 to 2/],
      ['hotkey', { pid: COUNTER, keys: [] }, /keys is empty: send the modifiers then the key/],
      ['hotkey', { pid: COUNTER, keys: ['s', 'ctrl'] }, /Modifiers come first, the one key last/],
    ];
    for (const [tool, args, message] of cases) {
      const result = await fixture.call(tool, args);
      assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)}`);
      assert.match(textOf(result), message, `${tool} ${JSON.stringify(args)}: ${textOf(result)}`);
    }
  });

  it('should bring an app to the front and leave it there, without holding the person\'s input', async () => {
    fixture = await mcpFixture();
    assert.equal(fixture.desktop.frontmostPid, FINDER);
    const result = await fixture.call('bring_to_front', { pid: COUNTER });
    assert.equal(line(result, 'status'), 'ok', textOf(result));
    assert.match(line(result, 'summary') ?? '', /^Counter brought to the front: \d+ elements/);
    assert.equal(fixture.desktop.frontmostPid, COUNTER, 'still in front after the answer');
    assert.equal(fixture.desktop.guardEngagements, 0);
    const wrongWindow = await fixture.call('bring_to_front', { pid: COUNTER, window_id: 4242 });
    assert.equal(wrongWindow.isError, true);
    assert.match(textOf(wrongWindow), /pid 200 has no window 4242; its windows: \d+/);
    fixture.engine.setPaused(true);
    const paused = await fixture.call('bring_to_front', { pid: FINDER });
    assert.equal(paused.isError, true);
    assert.match(textOf(paused), /paused/);
    assert.equal(fixture.desktop.frontmostPid, COUNTER, 'nothing moved while paused');
  });

  it('should zoom into a region of the window, and click a pixel of that image where it shows on screen', async () => {
    fixture = await mcpFixture();
    // The "Count: 0" button spans screen 10..110 × 10..40 (its window at the origin); the capture is a quarter scale.
    const zoomed = await fixture.call('zoom', { pid: COUNTER, x: 10, y: 10, width: 100, height: 30 });
    assert.equal(zoomed.isError, undefined, textOf(zoomed));
    assert.deepEqual(zoomed.content.map((item) => item.type), ['text', 'image']);
    assert.match(line(zoomed, 'hint') ?? '', /from_zoom/);
    const view = zoomed.structuredContent as { width: number; height: number; points_per_pixel: number; region: { x: number; y: number } };
    assert.deepEqual(view.region, { x: 0, y: 4, width: 130, height: 42 });
    // The button's centre (60, 25) in the image's pixels.
    const pixel = { x: Math.round((60 - view.region.x) / view.points_per_pixel), y: Math.round((25 - view.region.y) / view.points_per_pixel) };
    const clicked = await fixture.call('click', { pid: COUNTER, from_zoom: true, ...pixel });
    assert.deepEqual(callResultOutput.parse(clicked.structuredContent).text_changes, [{ role: 'PushButton', before: 'Count: 0', after: 'Count: 1' }], textOf(clicked));
    const noZoom = await fixture.call('click', { pid: FINDER, from_zoom: true, x: 1, y: 1 });
    assert.equal(noZoom.isError, true);
    assert.match(textOf(noZoom), /no zoom image of pid 100/);
  });

  it('should scroll over an element by index or at a window point, in a direction by lines', async () => {
    fixture = await mcpFixture();
    const tree = await fixture.call('get_window_state', { pid: COUNTER, query: '[List] "Items"' });
    const index = /^#(\d+) \[List\] "Items"/m.exec(textOf(tree))?.[1];
    assert.ok(index, textOf(tree));
    const down = await fixture.call('scroll', { pid: COUNTER, element_index: Number(index), direction: 'down', amount: 5 });
    assert.equal(line(down, 'status'), 'ok', textOf(down));
    assert.match(line(down, 'steps') ?? '', /^1\/1 done: scrolled 5 lines down over \[List\] "Items" at 295,60$/);
    // The Items list spans screen 220..370 × 10..110, as the tree prints it.
    const left = await fixture.call('scroll', { pid: COUNTER, x: 300, y: 50, direction: 'up', amount: 2 });
    assert.match(line(left, 'steps') ?? '', /scrolled 2 lines up at 300,50$/);
    assert.deepEqual(fixture.desktop.actions().filter((action) => action.startsWith('scroll')), ['scroll 295,60 0,5', 'scroll 300,50 0,-2']);
    const wrong = await fixture.call('scroll', { pid: COUNTER, x: 300, y: 50, direction: 'sideways' });
    assert.equal(wrong.isError, true);
    assert.match(textOf(wrong), /direction must be one of up, down, left, right/);
  });
});
