// Through a real MCP client, against real GTK apps on a virtual desktop: open writes the tree and
// screenshot files; a click, a chained click → type → Return and a click below the fold change
// exactly what the app itself reports (the fixture's stdout is the oracle).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, findElement, startDesktopSession, stopDesktopSession } from '../support/e2eHarness.js';

describe('MCP tools on real apps', { timeout: 120_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;

  before(async () => ({ desktop, server, fixture } = await startDesktopSession()));
  after(() => stopDesktopSession({ desktop, server }));

  test('should open mousepad and write its tree and screenshot to private files named in the summary', async () => {
    const result = await server.callOk('open_application_and_traverse', { identifier: 'mousepad' });
    const file = result.structured.file as string;
    const screenshot = result.structured.screenshot as string;
    assert.ok(file && existsSync(file), `tree file ${file} exists`);
    assert.ok(screenshot && existsSync(screenshot), `screenshot ${screenshot} exists`);
    assert.equal(result.fields.file, file, 'the summary names the tree file');
    assert.equal(result.fields.screenshot, screenshot, 'the summary names the screenshot');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(screenshot).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(file)).mode & 0o777, 0o700);

    const tree = readFileSync(file, 'utf8');
    assert.ok(/^#\d+ \[Frame\] ".*Mousepad.*" x:/m.test(tree), `the editor window is in the tree:\n${tree.slice(0, 500)}`);
    assert.ok(/^#\d+ \[Menu\] "File" x:\d+ y:\d+ .*visible/m.test(tree), 'its File menu is in the tree');
    assert.ok(/^#\d+ \[Text\] .* visible/m.test(tree), 'its text area is in the tree');
    const image = await sharp(screenshot).metadata();
    assert.equal(image.format, 'png');
    assert.ok((image.width ?? 0) > 200 && (image.height ?? 0) > 150, 'the screenshot is a window-sized image');
    assert.ok(Number(result.structured.pid) > 0);
  });

  test('should give a client without file access the same files: inline image and tree, and resources it can read', async () => {
    const result = await server.client.callTool({ name: 'refresh_traversal', arguments: { pid: fixture.pid, inline: true } });
    const content = result.content as Array<{ type: string; text?: string; data?: string; uri?: string; mimeType?: string }>;
    const structured = result.structuredContent as { file: string; screenshot: string };
    assert.deepEqual(content.map((item) => item.type), ['text', 'text', 'image', 'resource_link', 'resource_link']);
    assert.equal(content[1].text, `${structured.file.split('/').at(-1)}:\n${readFileSync(structured.file, 'utf8')}`, 'the tree as written');
    const inlined = await sharp(Buffer.from(content[2].data!, 'base64')).metadata();
    const written = await sharp(structured.screenshot).metadata();
    assert.ok(Math.max(inlined.width!, inlined.height!) <= 1280, `at most 1,280 px (${inlined.width}×${inlined.height})`);
    assert.equal(Math.round((inlined.width! / inlined.height!) * 100), Math.round((written.width! / written.height!) * 100), 'the window, not a crop');
    const png = (await server.client.readResource({ uri: content[4].uri! })).contents[0] as { blob: string; mimeType: string };
    assert.equal(png.mimeType, 'image/png');
    assert.deepEqual(Buffer.from(png.blob, 'base64'), readFileSync(structured.screenshot), 'resources/read serves the screenshot file byte for byte');
  });

  test('should report exactly the counter change a click caused', async () => {
    const before = await server.callOk('refresh_traversal', { pid: fixture.pid });
    assert.match(readFileSync(before.structured.file as string, 'utf8'), /^#\d+ \[PushButton\] "Count: 0" /m);

    const result = await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Count: 0', role: 'button' });
    await fixture.waitForEvent((event) => event.event === 'count');
    assert.deepEqual(fixture.eventsNamed('count').map((event) => event.value), [1], 'the app counted exactly one click');
    assert.deepEqual(result.structured.text_changes, [{ role: 'PushButton', before: 'Count: 0', after: 'Count: 1' }]);
    assert.match(result.text, /^changes:\n  PushButton text: 'Count: 0' -> 'Count: 1'$/m);
    const diff = readFileSync(result.structured.file as string, 'utf8');
    assert.match(diff, /^~ #\d+ \[PushButton\] "Count: 1".*\| text: 'Count: 0' -> 'Count: 1'/m);
    const changed = diff.split('\n').filter((line) => /^[-+~] /.test(line));
    assert.deepEqual(changed.filter((line) => !line.includes('Count')), [], 'nothing else changed');
  });

  test('should click, type non-ASCII text and press Return in one call, the text arriving intact', async () => {
    const text = 'héllo € ✓';
    const result = await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Name entry', role: 'text', text, pressKey: 'return' });
    const submitted = await fixture.waitForEvent((event) => event.event === 'submitted');
    assert.equal(submitted.text, text, 'the app received every character');
    assert.equal(result.structured.steps_total, 3);
    assert.equal((result.structured.steps as string[]).length, 3);
    const changes = result.structured.text_changes as Array<{ before: string; after: string }>;
    assert.ok(changes.some((change) => change.after === `You typed: ${text}`), `label change reported: ${JSON.stringify(changes)}`);
  });

  test('should scroll a list item below the fold into view and click it', async () => {
    const tree = (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
    assert.match(findElement(tree, 'Item 150').line, / hidden/, 'Item 150 starts below the fold');

    const result = await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Item 150' });
    const selected = await fixture.waitForEvent((event) => event.event === 'selected');
    assert.equal(selected.item, 'Item 150', 'the app selected the very item asked for');
    assert.match((result.structured.steps as string[]).join(' '), /scroll/i, 'the steps say it scrolled');
    const changes = result.structured.text_changes as Array<{ after: string }>;
    assert.ok(changes.some((change) => change.after === 'Selected: Item 150'));
  });
});
