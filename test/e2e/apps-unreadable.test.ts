// Apps that show a window but give Tandem nothing to read, through a real MCP client: a Chromium
// the person started before Tandem turned desktop accessibility on (not on the accessibility bus
// at all), and one started afterwards but without --force-renderer-accessibility (on the bus,
// its window empty). Both answer not-accessible with the reason and the way out — never an empty
// tree or a not-found — opening the first by name does not start a useless second one, and
// `tandem doctor` lists both.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { chromiumArgv, chromiumEntry, startFormServer, type FormServer } from '../../scripts/lib/appHarness.js';
import { McpSession, eventually } from '../support/e2eHarness.js';
import { cliNodeArgs, repoRoot } from '../mcp/cliProcess.js';

const run = promisify(execFile);

describe('apps with windows but nothing to read', { timeout: 180_000 }, () => {
  let desktop: VirtualDesktop;
  let web: FormServer;
  let server: McpSession;
  /** Started before accessibility was on: not on the bus. */
  let early: number;
  /** Started after, without Chromium's page flag: on the bus, window empty. */
  let bare: number;

  /** pid's top-level windows, per the X server (xprop), independent of Tandem. */
  const hasWindow = async (pid: number): Promise<boolean> => {
    const { stdout } = await run('xprop', ['-root', '_NET_CLIENT_LIST'], { env: desktop.env });
    for (const id of stdout.match(/0x[0-9a-f]+/gi) ?? []) {
      const owner = await run('xprop', ['-id', id, '_NET_WM_PID'], { env: desktop.env }).then((out) => Number(/= (\d+)/.exec(out.stdout)?.[1]), () => 0);
      if (owner === pid) return true;
    }
    return false;
  };
  const startChromium = async (): Promise<number> => {
    const [command, ...args] = chromiumArgv(desktop, `${web.origin}/form`);
    const pid = desktop.spawnApp(command, args).pid!;
    // The Debian wrapper execs the browser: the window belongs to this very pid.
    await eventually(async () => ((await hasWindow(pid)) ? true : undefined), 30_000, 'the Chromium window');
    return pid;
  };

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    web = await startFormServer();
    early = await startChromium();
    server = await McpSession.start(desktop);
    await server.callOk('list_applications', {});
  });

  after(async () => {
    await server?.close();
    await web?.close();
    await desktop?.stop();
  });

  test('should say an app started before accessibility was on is not on the bus, and that a restart is the way out', async () => {
    const apps = await server.callOk('list_applications', {});
    assert.ok(!apps.text.includes(`pid ${early} `), 'it is not among the apps Tandem can read');
    const result = await server.call('refresh_traversal', { pid: early });
    assert.equal(result.isError, true);
    assert.match(result.text, /^error: not-accessible: pid \d+ shows 1 window \("Courier booking - Chromium"\) but is not on the accessibility bus/m, result.text);
    assert.match(result.text, /started before desktop accessibility was on/);
    assert.match(result.text, /^reason: not-registered$/m);
    assert.match(result.text, /^hint: Restarting the app is the only fix: ask the person first/m);
  });

  test('should answer an action on it the same way, not with not-found', async () => {
    const result = await server.call('click_and_traverse', { pid: early, element: 'Book courier' });
    assert.match(result.text, /^error: not-accessible: .*not on the accessibility bus/m, result.text);
  });

  test('should not start a second, equally unreadable Chromium when asked to open it by name', async () => {
    const started = Date.now();
    const result = await server.call('open_application_and_traverse', { identifier: chromiumEntry(desktop, `${web.origin}/form`) });
    assert.match(result.text, new RegExp(`^error: not-accessible: pid ${early} shows`, 'm'), result.text);
    assert.ok(Date.now() - started < 10_000, `answered at once, not after the opening timeout (${Date.now() - started} ms)`);
  });

  test('should say a Chromium on the bus without its page flag shows an empty window, and why', async () => {
    bare = await startChromium();
    await eventually(async () => ((await server.callOk('list_applications', {})).text.includes(`pid ${bare} `) ? true : undefined), 20_000, 'the second Chromium on the bus');
    const result = await server.call('refresh_traversal', { pid: bare });
    assert.match(result.text, /^error: not-accessible: pid \d+ \(Chromium, Chromium [\d.]+\) is on the accessibility bus but exposes nothing inside its 1 window/m, result.text);
    assert.match(result.text, /--force-renderer-accessibility/);
    assert.match(result.text, /^reason: no-content$/m);
    const click = await server.call('click_and_traverse', { pid: bare, element: 'Book courier' });
    assert.match(click.text, /^error: not-accessible:/m, 'an element query on it answers the same');
  });

  test('should list both in tandem doctor', async () => {
    const { stdout } = await run(process.execPath, [...cliNodeArgs(), 'doctor'], { cwd: repoRoot, env: desktop.env }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const line = stdout.split('\n').find((entry) => entry.includes('Apps Tandem cannot read')) ?? '';
    assert.match(line, new RegExp(`pid ${early}\\): not on the accessibility bus`), stdout);
    assert.match(line, new RegExp(`Chromium \\(pid ${bare}\\): on the bus, but its windows expose nothing`), stdout);
    assert.match(stdout, /→ Restart these apps while Tandem runs/);
  });
});
