// The read-only inspection tools over the real engine and the scripted desktop: windows
// (frontmost first, filtered by pid), the pointer, and the permission checks — answered without
// engaging the guard or moving anything.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { callResultOutput, cursorOutput, permissionsOutput, windowsOutput } from '../../src/mcp/outputSchemas.js';
import { COUNTER, FINDER, START_CURSOR, line, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';

describe('mcp: inspection tools (read-only)', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  it('should list windows frontmost first with their pid, app, title and bounds, and one app\'s alone', async () => {
    fixture = await mcpFixture();
    const all = await fixture.call('list_windows');
    assert.equal(all.isError, undefined);
    const listed = windowsOutput.parse(all.structuredContent);
    assert.deepEqual(listed.windows.map((window) => [window.pid, window.app, window.title, window.z_order]), [
      [FINDER, 'Finder', 'Desktop', 0],
      [COUNTER, 'Counter', 'Counter', 1],
    ]);
    assert.deepEqual(listed.windows[1].bounds, { x: 0, y: 0, width: 400, height: 300 });
    assert.match(textOf(all), new RegExp(`^window: \\d+ pid ${COUNTER} app "Counter" title "Counter" x:0 y:0 w:400 h:300 z:1 on_screen$`, 'm'));

    const one = windowsOutput.parse((await fixture.call('list_windows', { pid: COUNTER, on_screen_only: true })).structuredContent);
    assert.deepEqual(one.windows.map((window) => window.pid), [COUNTER]);
    const none = await fixture.call('list_windows', { pid: 4242 });
    assert.equal(line(none, 'count'), '0');
    assert.match(line(none, 'hint') ?? '', /pid 4242 has no top-level window: list_applications/);
    assert.equal(fixture.desktop.guardEngagements, 0);
    assert.deepEqual(fixture.desktop.actions(), []);
  });

  it('should say where the pointer is, in screen points', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('get_cursor_position');
    assert.deepEqual(cursorOutput.parse(result.structuredContent), START_CURSOR);
    assert.equal(line(result, 'x'), String(START_CURSOR.x));
    assert.deepEqual(fixture.desktop.cursor, START_CURSOR, 'nothing moved');
  });

  it('should report each check with its state, and the remedy of one that is not granted', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('check_permissions');
    const checks = permissionsOutput.parse(result.structuredContent);
    assert.ok(checks.checks.length > 0);
    for (const check of checks.checks) assert.match(textOf(result), new RegExp(`^check: ${check.id} ${check.state}: `, 'm'));
    const notGranted = checks.checks.filter((check) => check.state === 'denied' || check.state === 'unknown');
    assert.equal(checks.all_granted, notGranted.length === 0);
    assert.match(line(result, 'hint') ?? '', notGranted.length ? /not granted: tell the person the remedy/ : /Everything Tandem needs is in place/);
  });

  it('should refuse a pid that is not a process id, naming the parameter', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('list_windows', { pid: -3 });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /pid must be a whole number from 1/);
  });

  it('should tag each element line of the app with its element_index, filter them by a query, and let a click use the index', async () => {
    fixture = await mcpFixture();
    const state = await fixture.call('get_window_state', { pid: COUNTER, query: 'count:' });
    assert.equal(line(state, 'status'), 'ok', textOf(state));
    const elements = state.content[1].type === 'text' ? state.content[1].text : '';
    assert.match(elements, /^elements: 1 of \d+ elements match "count:"$/m);
    const tagged = /^#(\d+) \[PushButton\] "Count: 0" x:10 y:10 w:100 h:30 visible$/m.exec(elements);
    assert.ok(tagged, elements);
    assert.equal(fixture.desktop.guardEngagements, 0, 'a read');
    const clicked = await fixture.call('click', { pid: COUNTER, element_index: Number(tagged[1]) });
    assert.deepEqual(callResultOutput.parse(clicked.structuredContent).text_changes, [{ role: 'PushButton', before: 'Count: 0', after: 'Count: 1' }]);
    const none = await fixture.call('get_window_state', { pid: COUNTER, query: 'no such thing' });
    assert.match(textOf(none), /0 of \d+ elements match "no such thing"\nNo element line contains that text/);
  });

  it('should list the displays with their size in points and pixels', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('get_screen_size');
    assert.equal(result.isError, undefined, textOf(result));
    assert.deepEqual(result.structuredContent, { displays: [{ id: 1, bounds: { x: 0, y: 0, width: 1280, height: 800 }, scale: 2, primary: true, pixel_width: 2560, pixel_height: 1600 }], count: 1 });
    assert.match(textOf(result), /^display: 1 x:0 y:0 w:1280 h:800 scale:2 \(2560×1600 pixels\) primary$/m);
  });
});
