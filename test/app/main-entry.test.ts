// The real Electron entry point (dist/src/main/main.js) started in plain Node with 'electron'
// resolved to a stub module: it wires the real engine factory, the socket host, the built
// renderer and preload paths, and the tray. The Electron binary itself cannot run here; this is
// the closest check that main.ts starts, serves MCP and quits cleanly.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { writeElectronStub } from './support/electronStub.js';
import { launcherArgs } from './support/launcher.js';
import { repoRoot } from './support/repoRoot.js';

const MAIN = join(repoRoot(), 'dist', 'src', 'main', 'main.js');

describe('Electron entry point (stubbed electron)', { skip: !existsSync(MAIN) && 'run `npm run build` first' }, () => {
  let base: string | undefined;
  let child: ChildProcess | undefined;
  after(async () => {
    child?.kill('SIGKILL');
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('should start the app over the real engine factory, serve MCP on the socket and release it on Quit', async () => {
    base = await mkdtemp(join(tmpdir(), 'tandem-main-entry-'));
    const register = await writeElectronStub(base);
    const socketDir = join(base, 'run');
    const statePath = join(base, 'state.json');
    const env = {
      ...process.env,
      TANDEM_SOCKET_DIR: socketDir,
      TANDEM_ARTIFACTS_DIR: join(base, 'artifacts'),
      TANDEM_STUB_STATE: statePath,
      TANDEM_STUB_USERDATA: join(base, 'userdata'),
      TANDEM_APP_COMMAND: 'true',
    };
    child = spawn(process.execPath, ['--import', register, MAIN], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));

    // An MCP client reaches the app's host through the launcher (which waits for the socket).
    const transport = new StdioClientTransport({ command: process.execPath, args: launcherArgs('mcp'), env: { ...env, TANDEM_CONNECT_TIMEOUT_MS: '30000' } as Record<string, string>, stderr: 'inherit' });
    const client = new Client({ name: 'main-entry-test', version: '1' });
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(tools.includes('click_and_traverse'), tools.join(', '));
    await client.close();

    const state = JSON.parse(await readFile(statePath, 'utf8')) as {
      tray: string[];
      trayIcon: string;
      windows: Array<{ view?: string; path?: string; preload?: string; transparent: boolean }>;
    };
    assert.deepEqual(state.tray, ['Tandem — idle', '—', 'Pause agent control', 'Show live feed', 'Permissions…', 'Copy MCP config', 'Open artifacts folder', '—', 'Quit Tandem']);
    assert.ok(existsSync(state.trayIcon), `tray icon ${state.trayIcon} exists`);
    const overlay = state.windows.find((window) => window.view === 'overlay');
    const wizard = state.windows.find((window) => window.view === 'onboarding');
    // On Linux the engine draws the overlay on the X server: no transparent Electron window.
    assert.equal(overlay, undefined, 'no renderer overlay on Linux');
    assert.ok(wizard, 'first run opens the wizard');
    for (const window of [wizard!]) {
      assert.ok(existsSync(window.path!), `renderer page ${window.path} was built`);
      assert.ok(existsSync(window.preload!), `preload ${window.preload} was built`);
    }

    child.kill('SIGUSR2');
    assert.equal(await exited, 0);
    assert.equal(existsSync(join(socketDir, 'tandem.sock')), false, 'Quit removed the socket');
    child = undefined;
  });
});
