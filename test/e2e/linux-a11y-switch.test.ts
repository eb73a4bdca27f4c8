// The desktop's accessibility switch (org.a11y.Status IsEnabled and GSettings'
// toolkit-accessibility) on a virtual desktop whose settings live in a key file shared by every
// process, as dconf is in a real session: a Tandem server turns it on, says so once, and puts it
// back as found when it exits — on end of input, SIGTERM and SIGINT; two servers share it; one
// killed with -9 leaves it on, which doctor reports and the next server repairs; a switch that
// was on already is left alone. And the point of it all: a browser the person starts while
// Tandem runs is readable.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { switchRecordPath } from '../../src/backends/linux/desktopA11ySwitch.js';
import { firefoxArgv, startFormServer, type FormServer } from '../../scripts/lib/appHarness.js';
import { McpSession, eventually, parseTreeLines } from '../support/e2eHarness.js';
import { cliNodeArgs, repoRoot } from '../mcp/cliProcess.js';

const run = promisify(execFile);
const ANNOUNCEMENT = /desktop accessibility turned on/g;

describe('the desktop accessibility switch', { timeout: 240_000 }, () => {
  let desktop: VirtualDesktop;

  const busEnabled = async (): Promise<boolean> => {
    const { stdout } = await run('dbus-send', ['--session', '--print-reply', '--dest=org.a11y.Bus', '/org/a11y/bus', 'org.freedesktop.DBus.Properties.Get', 'string:org.a11y.Status', 'string:IsEnabled'], { env: desktop.env });
    return /boolean true/.test(stdout);
  };
  const gsettingsKey = async (): Promise<string> => (await run('gsettings', ['get', 'org.gnome.desktop.interface', 'toolkit-accessibility'], { env: desktop.env })).stdout.trim();
  const setBus = (value: boolean): Promise<unknown> =>
    run('dbus-send', ['--session', '--print-reply', '--dest=org.a11y.Bus', '/org/a11y/bus', 'org.freedesktop.DBus.Properties.Set', 'string:org.a11y.Status', 'string:IsEnabled', `variant:boolean:${value}`], { env: desktop.env });
  const becomes = (value: boolean, what: string): Promise<true> => eventually(async () => ((await busEnabled()) === value ? true : undefined), 10_000, what);
  /** A server that has connected to the desktop (it does so at start, not at the first call). */
  const startServer = async (env: NodeJS.ProcessEnv = {}): Promise<McpSession> => {
    const server = await McpSession.start(desktop, { env });
    // Any call that needs the desktop waits for the backend the server began creating at start.
    await server.callOk('list_applications', {});
    return server;
  };
  const doctor = async (): Promise<string> => {
    const { stdout } = await run(process.execPath, [...cliNodeArgs(), 'doctor'], { cwd: repoRoot, env: desktop.env }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return stdout;
  };

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop({ gsettingsBackend: 'keyfile' });
  });

  after(() => desktop?.stop());

  test('should turn it on at start, say so once, and put it back as found when its input ends', async () => {
    assert.equal(await busEnabled(), false, 'a fresh session starts with accessibility off');
    assert.equal(await gsettingsKey(), 'false');
    const server = await startServer();
    await becomes(true, 'IsEnabled on while Tandem runs');
    assert.equal(await gsettingsKey(), 'true', 'the GSettings key too (persisted, as dconf would)');
    await server.callOk('list_applications', {});
    assert.equal(server.stderr.match(ANNOUNCEMENT)?.length, 1, `said once on stderr:\n${server.stderr}`);
    assert.match(await doctor(), /✓ Desktop accessibility: On .*Turned on by Tandem \(pid \d+\)/);
    await server.close();
    await becomes(false, 'IsEnabled back off after the server ended');
    assert.equal(await gsettingsKey(), 'false', 'the key back as found');
    assert.match(server.stderr, /put back as it was found/);
    assert.ok(!existsSync(switchRecordPath(desktop.env)), 'no record left behind');
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`should put it back when the server gets ${signal}`, async () => {
      const server = await startServer();
      await becomes(true, 'on');
      process.kill(server.pid, signal);
      await becomes(false, `off after ${signal}`);
      assert.equal(await gsettingsKey(), 'false');
      await server.close();
    });
  }

  test('should keep it on while another Tandem still runs, and restore it when the last one ends', async () => {
    const first = await startServer();
    await becomes(true, 'on');
    const second = await startServer();
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(await busEnabled(), true, 'still on: the second server holds it');
    await second.close();
    await becomes(false, 'off once both ended');
  });

  test('should leave it on after kill -9, say so in doctor, and let the next Tandem put it back', async () => {
    const killed = await startServer();
    await becomes(true, 'on');
    const pid = killed.pid;
    process.kill(pid, 'SIGKILL');
    await eventually(() => (existsSync(`/proc/${pid}`) ? undefined : true), 5_000, 'the server gone');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await busEnabled(), true, 'nobody could restore it: it stays on');
    assert.match(await doctor(), new RegExp(`Left on by Tandem pid ${pid}, which ended without putting it back`));
    const next = await startServer();
    assert.match(next.stderr, new RegExp(`left on by Tandem pid ${pid}`), next.stderr);
    await next.close();
    await becomes(false, 'the next server restored what the killed one found');
    assert.equal(await gsettingsKey(), 'false');
  });

  test('should leave a switch that was already on alone', async () => {
    await setBus(true);
    try {
      const server = await startServer();
      assert.doesNotMatch(server.stderr, ANNOUNCEMENT, 'nothing to announce: it was on');
      await server.close();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.equal(await busEnabled(), true, 'still on: not Tandem’s to turn off');
    } finally {
      await setBus(false);
    }
  });

  test('should not touch it with TANDEM_A11Y_SWITCH=off', async () => {
    const server = await startServer({ TANDEM_A11Y_SWITCH: 'off' });
    assert.equal(await busEnabled(), false);
    await server.close();
  });

  test('should make a browser the person starts while Tandem runs readable (Firefox, no flags of its own)', async () => {
    let web: FormServer | undefined;
    const server = await startServer();
    try {
      web = await startFormServer();
      await becomes(true, 'on');
      const [command, ...args] = firefoxArgv(desktop, `${web.origin}/form`);
      const firefox = desktop.spawnApp(command, args);
      const pid = firefox.pid!;
      const lines = await eventually(async () => {
        const result = await server.call('refresh_traversal', { pid });
        if (result.isError) return undefined;
        const found = parseTreeLines(readFileSync(result.structured.file as string, 'utf8'));
        return found.some((line) => line.role === 'Entry' && line.text === 'Recipient name') ? found : undefined;
      }, 30_000, 'the page of a Firefox started by the person');
      assert.ok(lines.some((line) => line.role === 'PushButton' && line.text === 'Book courier'));
      assert.ok(!readFileSync(`/proc/${pid}/environ`, 'utf8').includes('GNOME_ACCESSIBILITY'), 'Firefox got nothing from Tandem but the desktop switch');
    } finally {
      await server.close();
      await web?.close();
    }
  });
});
