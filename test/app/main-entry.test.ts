// The real Electron entry point (dist/src/main/main.js) started in plain Node with 'electron'
// resolved to a stub module: it wires the real engine factory, the socket host, the built
// renderer and preload paths, and the tray. The Electron binary itself cannot run here; this is
// the closest check that main.ts starts, serves MCP and quits cleanly.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
    assert.ok(tools.includes('run_steps'), tools.join(', '));
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

  it('should still start and serve when sharp cannot load (a wrong-architecture native package)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tandem-main-nosharp-'));
    try {
      const register = await writeElectronStub(dir, { broken: ['sharp'] });
      const env = { ...process.env, TANDEM_SOCKET_DIR: join(dir, 'run'), TANDEM_ARTIFACTS_DIR: join(dir, 'artifacts'), TANDEM_STUB_STATE: join(dir, 'state.json'), TANDEM_STUB_USERDATA: join(dir, 'userdata'), TANDEM_APP_COMMAND: 'true' };
      const app = spawn(process.execPath, ['--import', register, MAIN], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      app.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => app.once('exit', resolve));
      const transport = new StdioClientTransport({ command: process.execPath, args: launcherArgs('mcp'), env: { ...env, TANDEM_CONNECT_TIMEOUT_MS: '30000' } as Record<string, string>, stderr: 'ignore' });
      const client = new Client({ name: 'main-entry-nosharp', version: '1' });
      await client.connect(transport);
      assert.ok((await client.listTools()).tools.length > 0, `the app serves without sharp:\n${stderr}`);
      await client.close();
      app.kill('SIGUSR2');
      assert.equal(await exited, 0, stderr);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should say in a dialog why it could not start, then exit', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tandem-main-fatal-'));
    try {
      const register = await writeElectronStub(dir);
      // The socket folder's place is taken by a file: the host cannot start.
      await writeFile(join(dir, 'run'), 'not a folder');
      const env = { ...process.env, TANDEM_SOCKET_DIR: join(dir, 'run'), TANDEM_ARTIFACTS_DIR: join(dir, 'artifacts'), TANDEM_STUB_STATE: join(dir, 'state.json'), TANDEM_STUB_USERDATA: join(dir, 'userdata') };
      const app = spawn(process.execPath, ['--import', register, MAIN], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      const exitCode = await new Promise<number | null>((resolve) => app.once('exit', resolve));
      assert.equal(exitCode, 1);
      const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { errorBoxes: Array<{ title: string; content: string }> };
      assert.equal(state.errorBoxes.length, 1, 'one dialog');
      assert.equal(state.errorBoxes[0].title, 'Tandem could not start');
      assert.match(state.errorBoxes[0].content, new RegExp(`${join(dir, 'run').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[\\s\\S]*tandem doctor`), 'with the reason and what to do');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should say in a dialog why it could not start when one of its own modules cannot load', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tandem-main-badmodule-'));
    try {
      // The MCP SDK stands for any module of the app that fails as it loads.
      const register = await writeElectronStub(dir, { broken: ['@modelcontextprotocol/sdk/server/mcp.js'] });
      const env = { ...process.env, TANDEM_SOCKET_DIR: join(dir, 'run'), TANDEM_ARTIFACTS_DIR: join(dir, 'artifacts'), TANDEM_STUB_STATE: join(dir, 'state.json'), TANDEM_STUB_USERDATA: join(dir, 'userdata') };
      const app = spawn(process.execPath, ['--import', register, MAIN], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      const exitCode = await new Promise<number | null>((resolve) => app.once('exit', resolve));
      assert.equal(exitCode, 1);
      const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { errorBoxes: Array<{ title: string; content: string }> };
      assert.deepEqual(state.errorBoxes.map((box) => box.title), ['Tandem could not start']);
      assert.match(state.errorBoxes[0].content, /@modelcontextprotocol\/sdk\/server\/mcp\.js|Could not load the module/, 'with the reason');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
