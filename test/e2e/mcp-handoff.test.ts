// Handoff: a click that brings another process's window to the front returns that app in the
// same response — its pid, its tree (inline and in a file) and a screenshot showing it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, activeWindowPid, findElement, startDesktopSession, stopDesktopSession } from '../support/e2eHarness.js';

describe('MCP handoff to another process', { timeout: 120_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;

  before(async () => ({ desktop, server, fixture } = await startDesktopSession()));
  after(() => stopDesktopSession({ desktop, server }));

  test("should name the new window's process and return its tree and screenshot", async () => {
    const tree = (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
    const button = findElement(tree, 'Open helper window', 'button');

    const result = await server.callOk('click_and_traverse', { pid: fixture.pid, x: button.x, y: button.y, width: button.width, height: button.height });
    const started = await fixture.waitForEvent((event) => event.event === 'helper-started');
    const helperPid = started.helper as number;
    assert.notEqual(helperPid, fixture.pid, 'the helper is another process');

    const appSwitch = result.structured.app_switch as { pid: number; app: string; file?: string } | undefined;
    assert.ok(appSwitch, `app_switch reported:\n${result.text}`);
    assert.equal(appSwitch.pid, helperPid, 'app_switch names the helper process');
    assert.match(result.fields.app_switch, new RegExp(`pid ${helperPid}`));
    assert.equal(await activeWindowPid(desktop), helperPid, 'the helper is really in front');

    // Its tree is in the response…
    const inlineTree = result.texts.find((text) => text.startsWith('app_switch tree:'));
    assert.ok(inlineTree, 'the response carries the new app tree');
    assert.match(inlineTree, /"Hello from the helper"/);
    assert.match(inlineTree, /"Close helper"/);
    // …and in its own file.
    assert.ok(appSwitch.file && existsSync(appSwitch.file), 'the handoff tree file exists');
    assert.match(readFileSync(appSwitch.file, 'utf8'), /"Hello from the helper"/);

    // The screenshot shows the helper window: a capture of that window (frame included), not of
    // the fixture's — the two windows do not overlap and differ in size.
    const screenshot = result.structured.screenshot as string;
    assert.ok(screenshot && existsSync(screenshot));
    const helperFrame = findElement(appSwitch.file, 'Tandem Helper', 'frame');
    const fixtureFrame = findElement(tree, 'Tandem Fixture', 'frame');
    const { data, info } = await sharp(screenshot).raw().toBuffer({ resolveWithObject: true });
    const near = (a: number, b: number): boolean => Math.abs(a - b) <= 40;
    assert.ok(near(info.width, helperFrame.width) && near(info.height, helperFrame.height), `screenshot ${info.width}x${info.height} is the helper window (${helperFrame.width}x${helperFrame.height})`);
    assert.ok(!near(info.height, fixtureFrame.height), 'not the fixture window');
    const distinct = new Set<number>();
    for (let i = 0; i < data.length; i += info.channels * 97) distinct.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    assert.ok(distinct.size > 3, 'the screenshot is not blank');
    assert.equal(result.structured.restore && (result.structured.restore as { frontmost: string }).frontmost, 'skipped-handoff', 'the new window is left in front');
  });
});
