// get_config / set_config and the tool profiles, through the SDK client: what a model sees in
// tools/list and the instructions, and what a change of a setting does to the next call.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import sharp from 'sharp';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SettingsStore } from '../../src/core/settings.js';
import { tools } from '../../src/mcp/tools/index.js';
import { COUNTER, line, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';
import { TOOL_NAMES } from './toolNames.js';

/** The first ten tools are the reference server's: its nine `_and_traverse`/refresh tools and list_applications. */
const REFERENCE = [...TOOL_NAMES.slice(0, 10), 'get_config', 'set_config'];
/** Tools only `all` offers: the default (driver) profile does the same with click's button and count and press_key's modifiers. */
const ALL_ONLY = ['double_click', 'right_click', 'hotkey'];
const DRIVER = ['list_applications', ...TOOL_NAMES.slice(10).filter((name) => !ALL_ONLY.includes(name))];

async function imageSide(result: CallToolResult): Promise<number> {
  const image = result.content.find((item) => item.type === 'image');
  assert.ok(image && image.type === 'image', 'an inline image');
  const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
  assert.equal(meta.format, 'png');
  return Math.max(meta.width ?? 0, meta.height ?? 0);
}

describe('tool profiles', () => {
  let fixture: McpFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  for (const [profile, expected] of [
    ['reference', REFERENCE],
    ['driver', DRIVER],
    ['all', TOOL_NAMES],
  ] as const) {
    it(`should list exactly the ${profile} tools, with instructions that name no other tool`, async () => {
      fixture = await mcpFixture(undefined, { server: { profile } });
      const listed = (await fixture.client.listTools()).tools.map((tool) => tool.name);
      assert.deepEqual(listed, expected);
      const instructions = fixture.client.getInstructions() ?? '';
      // Names with an underscore are unambiguous; click, scroll, zoom and hotkey are also English
      // ("chain click → type"), so the driver workflow is checked by its own tool names.
      const named = tools.map((tool) => tool.name).filter((name) => name.includes('_') && new RegExp(`\\b${name}\\b`).test(instructions));
      assert.deepEqual(named.filter((name) => !listed.includes(name)), [], 'no tool the session lacks is taught');
      assert.ok(named.includes('get_config'), 'the settings are taught in every profile');
      if (profile !== 'driver') assert.match(instructions, /open_application_and_traverse/);
      if (profile !== 'reference') assert.match(instructions, /get_window_state/);
      if (profile === 'reference') assert.doesNotMatch(instructions, /from_zoom|hotkey|double_click/);
    });
  }

  it('should answer a call of a tool outside the profile with an error naming the profile and the flag', async () => {
    fixture = await mcpFixture(undefined, { server: { profile: 'reference' } });
    const result = await fixture.call('click', { pid: COUNTER, element_index: 0 });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /click is not offered in this session: it runs with the tool profile "reference" \(tandem mcp --tools reference/);
    assert.match(textOf(result), /--tools driver or --tools all to get click/);
    assert.equal(fixture.desktop.guardEngaged, false);
    assert.ok(!fixture.desktop.calls.some((call) => call.startsWith('click')), 'nothing was clicked');
    const other = await fixture.call('no_such_tool', {});
    assert.equal(other.isError, true);
    assert.match(textOf(other), /Tool no_such_tool not found/, 'an unknown name is still the SDK\'s answer');
    const allowed = await fixture.call('refresh_traversal', { pid: COUNTER });
    assert.notEqual(allowed.isError, true, textOf(allowed));
  });

  it("should word every hint with the session's own tools: a driver session is sent to launch_app and get_window_state", async () => {
    fixture = await mcpFixture(undefined, { server: { profile: 'driver' } });
    const refused = textOf(await fixture.call('get_window_state', { pid: 4242 }));
    assert.match(refused, /^hint: .*launch_app/m, refused);
    const acted = await fixture.call('click', { pid: COUNTER, x: 5, y: 5 });
    const hint = /^hint: (.*)$/m.exec(textOf(acted))?.[1] ?? '';
    assert.match(hint, /get_window_state/);
    assert.equal((acted.structuredContent as { hint?: string }).hint, hint, 'the structured hint says the same');
    const names = tools.map((tool) => tool.name).filter((name) => name.includes('_'));
    const offered = new Set(DRIVER);
    for (const text of [refused, textOf(acted)]) {
      const hints = text.split('\n').filter((line) => line.startsWith('hint: ')).join('\n');
      assert.deepEqual(names.filter((name) => !offered.has(name) && new RegExp(`\\b${name}\\b`).test(hints)), [], hints);
    }
  });

  it('should declare every tool\'s profiles on the tool itself: new tools are driver tools', () => {
    for (const tool of tools) {
      const reference = REFERENCE.includes(tool.name);
      const driver = DRIVER.includes(tool.name);
      assert.ok(reference || driver || ALL_ONLY.includes(tool.name), `${tool.name} is in a profile besides all`);
    }
    assert.equal(tools.find((tool) => tool.name === 'click')?.profiles, undefined, 'click declares nothing and is a driver tool');
  });
});

describe('get_config / set_config', () => {
  let fixture: McpFixture | undefined;
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-config-mcp-'));
    file = path.join(dir, 'tandem', 'config.json');
  });
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  const withStore = async (env: NodeJS.ProcessEnv = {}): Promise<McpFixture> => mcpFixture(undefined, { engine: { settings: new SettingsStore({ file, env }) } });

  it('should show every setting with its value, source, default and allowed range', async () => {
    fixture = await withStore({ TANDEM_GRACE_MS: '300' });
    const result = await fixture.call('get_config');
    assert.notEqual(result.isError, true, textOf(result));
    assert.equal(line(result, 'config_file'), file);
    assert.equal(line(result, 'watchdog_ms'), '30000 (default; default 30000; a whole number from 1,000 to 30,000 (ms); env TANDEM_WATCHDOG_MS) — longest time one call may hold the person\'s keyboard and mouse');
    assert.match(line(result, 'grace_ms') ?? '', /^300 \(environment;/);
    assert.match(line(result, 'tools') ?? '', /^"driver" \(default; default "driver"; "reference", "driver", "all"/);
    const structured = result.structuredContent as { settings: Record<string, { value: unknown; source: string }> };
    assert.deepEqual(Object.keys(structured.settings), ['watchdog_ms', 'grace_ms', 'artifact_max_calls', 'artifact_max_bytes', 'settle_max_ms', 'settle_quiet_ms', 'inline', 'inline_image_max_side', 'background_default', 'tools', 'confirm_before']);
    assert.deepEqual(structured.settings.grace_ms, { ...structured.settings.grace_ms, value: 300, source: 'environment' });
  });

  it('should save a change that get_config then shows as coming from the file', async () => {
    fixture = await withStore();
    const set = await fixture.call('set_config', { settings: { watchdog_ms: 15_000, inline: true } });
    assert.notEqual(set.isError, true, textOf(set));
    assert.equal(line(set, 'changed'), 'watchdog_ms, inline');
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { watchdog_ms: 15_000, inline: true });
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const got = await fixture.call('get_config');
    assert.match(line(got, 'watchdog_ms') ?? '', /^15000 \(file;/);
    assert.match(line(got, 'inline') ?? '', /^true \(file;/);
  });

  it('should refuse out-of-range and unknown settings with the allowed range, changing nothing', async () => {
    fixture = await withStore();
    for (const [settings, pattern] of [
      [{ watchdog_ms: 600_000 }, /watchdog_ms must be a whole number from 1,000 to 30,000 \(ms\), not 600000/],
      [{ inline_image_max_side: 10 }, /inline_image_max_side must be a whole number from 256 to 4,096 \(px\), not 10/],
      [{ tools: 'some' }, /tools must be "reference", "driver", "all", not "some"/],
      [{ watchdog_seconds: 5 }, /Unknown setting "watchdog_seconds": the settings are watchdog_ms/],
    ] as const) {
      const result = await fixture.call('set_config', { settings });
      assert.equal(result.isError, true, JSON.stringify(settings));
      assert.match(textOf(result), pattern);
    }
    await assert.rejects(stat(file), /ENOENT/);
    assert.match(line(await fixture.call('get_config'), 'watchdog_ms') ?? '', /^30000 \(default;/);
  });

  it('should say when the environment still overrides a saved setting, and that a new profile is for new sessions', async () => {
    fixture = await withStore({ TANDEM_WATCHDOG_MS: '5000' });
    const result = await fixture.call('set_config', { settings: { watchdog_ms: 20_000, tools: 'driver' } });
    assert.notEqual(result.isError, true, textOf(result));
    assert.match(textOf(result), /note: watchdog_ms is saved in the config file, but TANDEM_WATCHDOG_MS in this server's environment still overrides it here/);
    assert.match(textOf(result), /note: tools applies to MCP sessions started from now on without --tools/);
    assert.equal((await fixture.client.listTools()).tools.length, TOOL_NAMES.length, 'this session keeps its tools');
  });

  it('should fit the next inline screenshot within the configured side, and make inline the default when set', async () => {
    fixture = await withStore();
    const before = await fixture.call('refresh_traversal', { pid: COUNTER, inline: true });
    const defaultSide = await imageSide(before);
    assert.ok(defaultSide > 256, `the scripted screenshot (${defaultSide} px) is larger than the smallest setting`);
    await fixture.call('set_config', { settings: { inline_image_max_side: 256 } });
    const after = await fixture.call('refresh_traversal', { pid: COUNTER, inline: true });
    assert.equal(await imageSide(after), 256);
    const plain = await fixture.call('refresh_traversal', { pid: COUNTER });
    assert.ok(!plain.content.some((item) => item.type === 'image'), 'inline is off by default');
    await fixture.call('set_config', { settings: { inline: true } });
    const inlined = await fixture.call('refresh_traversal', { pid: COUNTER });
    assert.equal(await imageSide(inlined), 256, 'inline is now the default');
    const optedOut = await fixture.call('refresh_traversal', { pid: COUNTER, inline: false });
    assert.ok(!optedOut.content.some((item) => item.type === 'image'), 'a call\'s own inline still wins');
  });

  it('should report a corrupt config file by name without failing other calls', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, 'watchdog_ms = 5000\n', { mode: 0o600 });
    fixture = await withStore();
    const got = await fixture.call('get_config');
    assert.notEqual(got.isError, true);
    assert.match(line(got, 'config_file_error') ?? '', new RegExp(`^The config file ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid JSON`));
    const set = await fixture.call('set_config', { settings: { inline: true } });
    assert.equal(set.isError, true);
    assert.match(textOf(set), /^hint: Ask the person to fix or delete that file/m);
    const refreshed = await fixture.call('refresh_traversal', { pid: COUNTER });
    assert.notEqual(refreshed.isError, true, textOf(refreshed));
  });
});
