// The official MCP Inspector's CLI (@modelcontextprotocol/inspector-cli, the CLI half of the
// Inspector; it runs on Node 20) against `tandem mcp --direct` on the virtual desktop: a client
// we did not write lists the default profile's tools and calls a read-only one and an acting one,
// and the app itself shows the action happened.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { serverCommand } from '../../scripts/lib/mcpSession.js';
import { FixtureApp, McpSession, startDesktopSession, stopDesktopSession } from '../support/e2eHarness.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** The Inspector CLI's entry point (its package's `bin` is a launcher for the whole Inspector). */
const INSPECTOR_CLI = join(dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'index.js');

describe('the official MCP Inspector CLI against Tandem', { timeout: 120_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;

  before(async () => ({ desktop, server, fixture } = await startDesktopSession()));
  after(() => stopDesktopSession({ desktop, server }));

  /** One Inspector CLI run: it spawns its own `tandem mcp --direct` over stdio and prints the JSON result. */
  const inspect = async (...args: string[]): Promise<Record<string, unknown>> => {
    const { command, args: serverArgs } = serverCommand();
    const env = Object.fromEntries(Object.entries(desktop.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    // Run from its build folder: it finds its own package.json (for its client name) by a path
    // it checks against the working directory but imports relative to itself.
    const { stdout } = await run(process.execPath, [INSPECTOR_CLI, command, ...serverArgs, ...args], { env, cwd: dirname(INSPECTOR_CLI), timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    return JSON.parse(stdout) as Record<string, unknown>;
  };

  test('should list the default profile\'s tools with their schemas', async () => {
    const listed = (await inspect('--method', 'tools/list')) as { tools: Array<{ name: string; inputSchema: unknown; outputSchema?: unknown }> };
    const names = listed.tools.map((tool) => tool.name);
    for (const name of ['list_windows', 'get_window_state', 'zoom', 'click', 'press_key', 'run_steps', 'launch_app', 'bring_to_front']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    assert.ok(!names.includes('click_and_traverse'), 'one family: the reference tools are another profile');
    assert.ok(listed.tools.every((tool) => tool.inputSchema && tool.outputSchema), 'every tool declares input and output schemas');
  });

  test('should call a read-only tool and an acting one; the app counts the click', async () => {
    const read = (await inspect('--method', 'tools/call', '--tool-name', 'get_window_state', '--tool-arg', `pid=${fixture.pid}`, 'query=Count:')) as { content: Array<{ type: string; text?: string }>; isError?: boolean };
    assert.notEqual(read.isError, true, JSON.stringify(read).slice(0, 500));
    const tagged = /#(\d+) \[PushButton\] "Count: 0" x:(-?\d+) y:(-?\d+) w:(\d+) h:(\d+)/.exec(read.content.map((item) => item.text ?? '').join('\n'));
    assert.ok(tagged, JSON.stringify(read.content).slice(0, 800));
    // Each Inspector run is a new server, which has handed out no element_index yet: act at the
    // screen point the tree printed (the button's centre).
    const [x, y, width, height] = tagged.slice(2).map(Number);
    const point = [`x=${x + Math.round(width / 2)}`, `y=${y + Math.round(height / 2)}`];
    const acted = (await inspect('--method', 'tools/call', '--tool-name', 'click', '--tool-arg', `pid=${fixture.pid}`, ...point)) as { structuredContent?: { status: string; text_changes: unknown[] } };
    assert.equal(acted.structuredContent?.status, 'ok', JSON.stringify(acted).slice(0, 800));
    await fixture.waitForEvent((event) => event.event === 'count' && event.value === 1);
    assert.deepEqual(acted.structuredContent?.text_changes, [{ role: 'PushButton', before: 'Count: 0', after: 'Count: 1' }]);
  });
});
