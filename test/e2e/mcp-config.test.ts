// Settings and tool profiles through real MCP clients spawning `tandem mcp --direct` on the
// virtual desktop: a set_config change is what the next real call does (the inline screenshot's
// size decoded from the PNG, the watchdog cutting a stuck app's call short), another server
// process of the same person reads the same file, and `--tools reference` lists only those tools.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, eventually, findElement, startDesktopSession, stopDesktopSession, type ToolResult } from '../support/e2eHarness.js';
import { TOOL_NAMES } from '../mcp/toolNames.js';
import { CpuLoad } from '../support/cpuLoad.js';

async function inlineImage(result: ToolResult): Promise<{ width: number; height: number }> {
  const content = (result.raw as { content: Array<{ type: string; data?: string }> }).content;
  const image = content.find((item) => item.type === 'image');
  assert.ok(image?.data, `an inline image in ${content.map((item) => item.type).join(', ')}`);
  const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
  assert.equal(meta.format, 'png');
  return { width: meta.width!, height: meta.height! };
}

describe('settings and tool profiles on a real desktop', { timeout: 180_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;
  let configDir: string;
  const sessions: McpSession[] = [];

  /** Another `tandem mcp --direct` of the same person (same config folder); every tool unless `args` say otherwise ([]: the tools setting decides). */
  const session = async (args: string[] = ['--tools', 'all']): Promise<McpSession> => {
    const started = await McpSession.start(desktop, { env: { TANDEM_CONFIG_DIR: configDir }, args });
    sessions.push(started);
    return started;
  };

  before(async () => {
    configDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'tandem-e2e-config-')), 'tandem');
    ({ desktop, server, fixture } = await startDesktopSession());
    await server.close();
    server = await session();
  });
  after(async () => {
    for (const started of sessions) await started.close();
    await stopDesktopSession({ desktop });
    await rm(path.dirname(configDir), { recursive: true, force: true });
  });

  test('should fit the next inline screenshot within the side set_config gave, in this server and in another', async () => {
    const before = await server.callOk('refresh_traversal', { pid: fixture.pid, inline: true });
    const original = await sharp(await readFile(before.fields.screenshot)).metadata();
    const side = 300;
    assert.ok(Math.max(original.width!, original.height!) > side, `the fixture window (${original.width}×${original.height}) is larger than ${side} px`);
    const first = await inlineImage(before);
    assert.deepEqual([first.width, first.height], [original.width, original.height], 'under the default 1,280 px it is sent whole');

    const set = await server.callOk('set_config', { settings: { inline_image_max_side: side } });
    assert.equal(set.fields.changed, 'inline_image_max_side');
    assert.deepEqual(JSON.parse(await readFile(path.join(configDir, 'config.json'), 'utf8')), { inline_image_max_side: side });
    assert.equal((await stat(path.join(configDir, 'config.json'))).mode & 0o777, 0o600);
    assert.equal((await stat(configDir)).mode & 0o777, 0o700);

    const after = await server.callOk('refresh_traversal', { pid: fixture.pid, inline: true });
    const scaled = await inlineImage(after);
    assert.equal(Math.max(scaled.width, scaled.height), side);
    const ratio = original.width! / original.height!;
    assert.ok(Math.abs(scaled.width / scaled.height - ratio) < 0.05, 'the shape is kept');

    // A second server of the same person (another MCP client) reads the same file.
    const other = await session();
    const config = await other.callOk('get_config', {});
    assert.match(config.fields.inline_image_max_side, /^300 \(file;/);
    const elsewhere = await inlineImage(await other.callOk('refresh_traversal', { pid: fixture.pid, inline: true }));
    assert.equal(Math.max(elsewhere.width, elsewhere.height), side);
  });

  /** Clicks the fixture's "Slow action" (the app then hangs 5 s) under a watchdog set by set_config. */
  const stuckCallUnderWatchdog = async (): Promise<void> => {
    const slow = await eventually(async () => {
      const tree = (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
      const found = findElement(tree, 'Slow action', 'button');
      return Number.isFinite(found.x) ? found : undefined;
    }, 20_000, 'the slow button with its position in the tree');
    const started = fixture.eventsNamed('slow-started').length;
    const done = fixture.eventsNamed('slow-done').length;
    await server.callOk('set_config', { settings: { watchdog_ms: 1_500 } });
    try {
      // The app hangs for 5 s after this click: the default 30 s watchdog would wait it out (the
      // call would end ok), the configured 1.5 s one fires while the app is stuck.
      const result = await server.call('click_and_traverse', { pid: fixture.pid, x: slow.x, y: slow.y, width: slow.width, height: slow.height, steps: [{ action: 'wait', ms: 1400 }] });
      assert.equal(result.structured.status, 'watchdog', result.text);
      assert.equal(result.structured.watchdog, true);
      assert.equal(fixture.eventsNamed('slow-started').length, started + 1, 'the click reached the app');
      await fixture.waitForEvent(() => fixture.eventsNamed('slow-done').length > done, 15_000);
    } finally {
      await server.callOk('set_config', { settings: { watchdog_ms: null } });
    }
    assert.match((await server.callOk('get_config', {})).fields.watchdog_ms, /^30000 \(default;/);
  };

  test('should cut a stuck app\'s call short at the watchdog set_config gave it', stuckCallUnderWatchdog);

  test('should cut it short at the configured watchdog with both cores loaded too', async () => {
    const load = CpuLoad.start();
    try {
      await stuckCallUnderWatchdog();
    } finally {
      load.stop();
    }
  });

  test('should list only the reference tools to a client of `tandem mcp --tools reference`, and refuse the others', async () => {
    const reference = await session(['--tools', 'reference']);
    const listed = (await reference.client.listTools()).tools.map((tool) => tool.name);
    assert.deepEqual(listed, [...TOOL_NAMES.slice(0, 10), 'get_config', 'set_config']);
    const refused = await reference.call('get_window_state', { pid: fixture.pid });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /get_window_state is not offered in this session: it runs with the tool profile "reference"/);
    const read = await reference.callOk('refresh_traversal', { pid: fixture.pid });
    assert.equal(read.structured.status, 'ok');
  });

  test('should offer the profile of the tools setting to a server started without --tools, and the driver tools by default', async () => {
    await server.callOk('set_config', { settings: { tools: 'reference' } });
    try {
      const reference = await session([]);
      const listed = (await reference.client.listTools()).tools.map((tool) => tool.name);
      assert.deepEqual(listed, [...TOOL_NAMES.slice(0, 10), 'get_config', 'set_config']);
      const overridden = await session(['--tools', 'all']);
      assert.equal((await overridden.client.listTools()).tools.length, TOOL_NAMES.length, 'the flag wins over the setting');
    } finally {
      await server.callOk('set_config', { settings: { tools: null } });
    }
    const byDefault = await session([]);
    const listed = (await byDefault.client.listTools()).tools.map((tool) => tool.name);
    assert.ok(listed.includes('get_window_state') && listed.includes('click') && listed.includes('run_steps'), listed.join(', '));
    assert.ok(!listed.includes('click_and_traverse') && !listed.includes('hotkey'), 'neither reference-only tools nor the all-only ones');
  });
});
