// The driver-style acting tools through a real MCP client on the GTK fixture, checked through
// what the app itself reports on stdout: a click at the screen point the tree prints, a right click opening the entry's own context menu (in the diff), and a
// shortcut as a list of keys selecting the field's text so typing replaces it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, activeWindowPid, centre, delay, eventually, findElement, parseTreeLines, startDesktopSession, stopDesktopSession } from '../support/e2eHarness.js';
import { indexOnLine, indexShown, withoutIndex } from '../support/treeIndex.js';

describe('driver tools on a real GTK app', { timeout: 120_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;

  before(async () => ({ desktop, server, fixture } = await startDesktopSession()));
  after(() => stopDesktopSession({ desktop, server }));

  const treeLines = async () => {
    const file = (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
    return { file, lines: readFileSync(file, 'utf8').split('\n') };
  };

  test('should click the screen point the model reads off the tree (x:N y:N), as every tool takes it', async () => {
    const button = centre(findElement((await treeLines()).file, 'Count: 0', 'PushButton'));
    const result = await server.callOk('click', { pid: fixture.pid, x: button.x, y: button.y });
    await fixture.waitForEvent((event) => event.event === 'count');
    assert.deepEqual(fixture.eventsNamed('count').map((event) => event.value), [1], 'the app counted one click');
    assert.deepEqual(result.structured.text_changes, [{ role: 'PushButton', before: 'Count: 0', after: 'Count: 1' }]);
  });

  test('should right-click the name field by element_index: its context menu is in the diff', async () => {
    const { lines } = await treeLines();
    const index = indexOnLine(lines.join('\n'), '[Text] "Name entry"');
    const menu = await server.callOk('right_click', { pid: fixture.pid, element_index: index });
    const diff = readFileSync(menu.structured.file as string, 'utf8');
    assert.match(diff, /^\+ #\d+ \[MenuItem\] "Select All"/m, diff);
    const closed = await server.callOk('press_key_and_traverse', { pid: fixture.pid, keyName: 'escape' });
    assert.match(readFileSync(closed.structured.file as string, 'utf8'), /^- \[MenuItem\] "Select All"/m);
  });

  test('should press a shortcut given as keys in a run_steps chain: select all, so the typing replaces the field', async () => {
    await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Name entry', role: 'Text', text: 'first words' });
    await fixture.waitForEvent((event) => event.event === 'name' && event.text === 'first words');
    const result = await server.callOk('run_steps', { pid: fixture.pid, steps: [{ action: 'hotkey', keys: ['ctrl', 'a'] }, { action: 'type', text: 'replaced' }] });
    await fixture.waitForEvent((event) => event.event === 'name' && event.text === 'replaced');
    assert.equal(fixture.lastName(), 'replaced');
    assert.match(readFileSync(result.structured.file as string, 'utf8'), /^~ #\d+ \[Text\] "Name entry" \| value: 'first words' -> 'replaced'$/m);
    const tree = parseTreeLines((await treeLines()).lines.join('\n'));
    assert.equal(tree.find((line) => line.role === 'Text' && line.text === 'Name entry')?.value, 'replaced');
  });

  test('should double-click a word of the field by element_index, selecting it, so the next typing replaces it', async () => {
    const { lines } = await treeLines();
    const index = indexOnLine(lines.join('\n'), '[Text] "Name entry"');
    await server.callOk('run_steps', { pid: fixture.pid, steps: [{ action: 'click', element_index: index, count: 2 }, { action: 'type', text: 'swapped' }] });
    await fixture.waitForEvent((event) => event.event === 'name' && event.text === 'swapped');
    assert.equal(fixture.lastName(), 'swapped', 'the double click selected the one word the field held');
  });

  test('should find an element by a query with its element_index, and click it by that index', async () => {
    const state = await server.client.callTool({ name: 'get_window_state', arguments: { pid: fixture.pid, query: 'Count:' } });
    const elements = (state.content as Array<{ type: string; text?: string }>)[1].text ?? '';
    const tagged = /^#(\d+) \[PushButton\] "Count: (\d+)"/m.exec(elements);
    assert.ok(tagged, elements);
    const before = fixture.eventsNamed('count').length;
    await server.callOk('click', { pid: fixture.pid, element_index: Number(tagged[1]) });
    await fixture.waitForEvent((event) => event.event === 'count' && event.value === Number(tagged[2]) + 1);
    assert.equal(fixture.eventsNamed('count').length, before + 1, 'one click reached the button');
  });

  test('should bring the app back to the front and leave it there, as the window manager says', async () => {
    const mousepad = (await server.callOk('open_application_and_traverse', { identifier: 'mousepad' })).structured.pid as number;
    await eventually(async () => ((await activeWindowPid(desktop)) === mousepad ? true : undefined), 5_000, 'mousepad in front');
    const result = await server.callOk('bring_to_front', { pid: fixture.pid });
    assert.match(result.structured.summary as string, /brought to the front/);
    assert.equal(await activeWindowPid(desktop), fixture.pid, 'the fixture is the active window');
    await delay(500);
    assert.equal(await activeWindowPid(desktop), fixture.pid, 'and stays so: nothing put the previous app back');
  });

  test('should zoom into the button at full resolution and click the pixel the model picks in that image', async () => {
    await server.callOk('bring_to_front', { pid: fixture.pid });
    const button = parseTreeLines((await treeLines()).lines.join('\n')).find((line) => line.role === 'PushButton' && line.text.startsWith('Count:'));
    assert.ok(button, 'the counter button');
    const zoomed = await server.client.callTool({ name: 'zoom', arguments: { pid: fixture.pid, x: button.x, y: button.y, width: button.width, height: button.height } });
    const content = zoomed.content as Array<{ type: string; data?: string }>;
    const view = zoomed.structuredContent as { width: number; height: number; points_per_pixel: number };
    const image = await sharp(Buffer.from(content[1].data!, 'base64')).metadata();
    assert.deepEqual([image.width, image.height], [view.width, view.height]);
    assert.equal(view.points_per_pixel, 1, 'full resolution on this 1× screen');
    assert.ok(view.width > button.width && view.width <= button.width * 1.4 + 2, `padded by a fifth each side: ${view.width} px for a ${button.width}-point button`);
    const before = fixture.eventsNamed('count').length;
    await server.callOk('click', { pid: fixture.pid, from_zoom: true, x: Math.round(view.width / 2), y: Math.round(view.height / 2) });
    await fixture.waitForEvent(() => fixture.eventsNamed('count').length === before + 1);
    assert.equal(fixture.eventsNamed('count').length, before + 1, 'the click in the zoom image reached the button');
  });

  test('should scroll the list over one of its rows by element_index: rows below the fold come into view', async () => {
    const lastVisibleRow = (lines: string[]): number => Math.max(...parseTreeLines(lines.join('\n')).filter((line) => line.role === 'ListItem' && / visible/.test(line.line)).map((line) => Number(/^Item (\d+)$/.exec(line.text)?.[1] ?? -1)));
    const { lines } = await treeLines();
    const before = lastVisibleRow(lines);
    const index = indexShown(lines.find((line) => /^\[\w+\] "Item 1" /.test(withoutIndex(line))) ?? '');
    assert.ok(index >= 0 && before >= 1, 'the rows are in the tree');
    const result = await server.callOk('scroll', { pid: fixture.pid, element_index: index, direction: 'down', amount: 10 });
    assert.match((result.structured.steps as string[])[0], /^scrolled 10 lines down over \[\w+\] "Item 1" at \d+,\d+$/);
    const after = lastVisibleRow((await treeLines()).lines);
    assert.ok(after > before + 3, `rows below the fold came into view: the last visible row was Item ${before}, now Item ${after}`);
  });

  test('should show calculator keys by the label a person reads, though the app names them "1 1" and "Pi [Ctrl+P]", and find them by it', async () => {
    // What the app itself tells AT-SPI, read independently of Tandem.
    const names = atspiButtonNames(desktop, fixture.pid);
    assert.ok(names.includes('1 1') && names.includes('Pi [Ctrl+P]'), `the app's own names: ${JSON.stringify(names)}`);
    const tree = readFileSync((await treeLines()).file, 'utf8');
    assert.match(tree, /^#\d+ \[PushButton\] "1" /m);
    assert.match(tree, /^#\d+ \[PushButton\] "Pi" /m);
    assert.doesNotMatch(tree, /"1 1"|Ctrl\+P/);
    await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Pi', role: 'button' });
    await fixture.waitForEvent((event) => event.event === 'calc' && event.key === 'π');
    await server.callOk('click_and_traverse', { pid: fixture.pid, element: '1', role: 'button' });
    await fixture.waitForEvent((event) => event.event === 'calc' && event.key === '1');
  });

  // Last: the banner moves every element of the window one index down for the tests after it.
  test('should press in the next call the button a diff line of the last answer names, though the tree moved since the refresh', async () => {
    const read = (await treeLines()).lines.join('\n');
    const indexRead = indexOnLine(read, '[PushButton] "Count: ');
    await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Show banner', role: 'button' });
    await fixture.waitForEvent((event) => event.event === 'banner');
    const counted = await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Count:', role: 'button' });
    const diff = readFileSync(counted.structured.file as string, 'utf8');
    const changed = /^~ #(\d+) \[PushButton\] "Count: (\d+)"/m.exec(diff);
    assert.ok(changed, diff);
    const [index, count] = [Number(changed[1]), Number(changed[2])];
    assert.notEqual(index, indexRead, 'the banner gave the button another index than the refresh showed');
    await fixture.waitForEvent((event) => event.event === 'count' && event.value === count);
    await server.callOk('click', { pid: fixture.pid, element_index: index });
    await fixture.waitForEvent((event) => event.event === 'count' && event.value === count + 1);
    assert.equal(fixture.eventsNamed('count').at(-1)?.value, count + 1, 'the button the diff line named was pressed, nothing else counted');
  });
});

/** Names of the push buttons of `pid` as AT-SPI reports them (python3-gi's Atspi, not Tandem). */
function atspiButtonNames(desktop: VirtualDesktop, pid: number): string[] {
  const script = [
    'import sys, json, gi',
    'gi.require_version("Atspi", "2.0")',
    'from gi.repository import Atspi',
    'names = []',
    'def walk(node, depth):',
    '    if depth > 40: return',
    '    if node.get_role_name() == "push button": names.append(node.get_name())',
    '    for i in range(node.get_child_count()):',
    '        child = node.get_child_at_index(i)',
    '        if child is not None: walk(child, depth + 1)',
    'desktop = Atspi.get_desktop(0)',
    'for i in range(desktop.get_child_count()):',
    '    app = desktop.get_child_at_index(i)',
    '    if app is not None and app.get_process_id() == int(sys.argv[1]): walk(app, 0)',
    'print(json.dumps(names))',
  ].join('\n');
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, String(pid)], { env: desktop.env, timeout: 20_000 }).toString()) as string[];
}
