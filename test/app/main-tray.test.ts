// Electron main against a fake Electron API: the tray menu a person sees and what its items do.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isTandemError } from '../../src/core/errors.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { reportFatalStart } from '../../src/main/fatalStart.js';
import { startTandemApp } from '../../src/main/tandemApp.js';
import { COUNTER, act, clickOn } from '../support/engineFixtures.js';
import { LAUNCHER, startApp, type AppFixture } from './support/appFixture.js';
import { createFakeElectron } from './support/fakeElectron.js';

function labels(fixture: AppFixture): string[] {
  return fixture.tray.menu.filter((item) => item.type !== 'separator').map((item) => item.label ?? '');
}

describe('tray menu', () => {
  let app: AppFixture | undefined;
  afterEach(async () => {
    await app?.cleanup();
    app = undefined;
  });

  it('should quit at once, without an engine or a tray, when another instance holds the lock', async () => {
    const electron = createFakeElectron({ lockAvailable: false });
    let engines = 0;
    const started = await startTandemApp({
      electron,
      platform: 'linux',
      createEngine: async () => {
        engines++;
        throw new Error('must not be called');
      },
      startHost: async () => {
        throw new Error('must not be called');
      },
      paths: { preload: '/p', html: '/h', trayIcon: '/t' },
      launcher: LAUNCHER,
      artifactsDirectory: '/tmp',
      log: () => {},
    });
    assert.equal(started, null);
    assert.equal(electron.fake.quitCalls, 1);
    assert.equal(engines, 0);
    assert.equal(electron.fake.trays.length, 0);
  });

  it('should live in the menu bar with the idle state and every menu entry', async () => {
    app = await startApp();
    assert.equal(app.electron.fake.dockHidden, true, 'no Dock icon');
    assert.deepEqual(labels(app), [
      'Tandem — idle',
      'Pause agent control',
      'Show live feed',
      'Permissions…',
      'Copy MCP config',
      'Open artifacts folder',
      'Quit Tandem',
    ]);
    assert.deepEqual(
      app.tray.item('copy-config')?.submenu && (app.tray.item('copy-config')!.submenu as Array<{ label: string }>).map((item) => item.label),
      ['Claude Desktop', 'Claude Code', 'Cursor', 'VS Code'],
    );
    assert.equal(app.tray.toolTip, 'Tandem — idle');
  });

  it('should show what the agent is doing while a call runs, then idle again', async () => {
    app = await startApp();
    const seen: string[] = [];
    app.fixture.desktop.when('click', () => seen.push(app!.tray.menu[0].label ?? ''), { once: true });
    await app.fixture.engine.act({ tool: 'click_and_traverse', pid: COUNTER, steps: [clickOn('Count: 0')] });
    assert.deepEqual(seen, ['Tandem — acting: click_and_traverse in Counter']);
    assert.equal(app.tray.menu[0].label, 'Tandem — idle');
  });

  it('should pause agent control: disruptive tools answer "paused by the person", read-only tools still work', async () => {
    app = await startApp();
    app.tray.click('pause');
    assert.equal(app.fixture.engine.paused, true);
    assert.equal(app.tray.item('pause')?.checked, true, 'the menu shows the check mark');
    assert.equal(app.tray.menu[0].label, 'Tandem — paused');

    const server = createMcpServer(app.fixture.engine);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'pause-test', version: '1' });
    await client.connect(clientSide);
    const refused = (await client.callTool({ name: 'click', arguments: { pid: COUNTER, element_index: 0 } })) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(refused.content), /paused by the person/);
    assert.equal(app.fixture.desktop.guardEngagements, 0, 'nothing was touched');
    const read = (await client.callTool({ name: 'get_window_state', arguments: { pid: COUNTER } })) as CallToolResult;
    assert.notEqual(read.isError, true);
    await client.close();

    app.tray.click('pause');
    assert.equal(app.fixture.engine.paused, false);
    assert.equal((await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0')))).status, 'ok');
  });

  it('should copy a ready-to-use config for each MCP client', async () => {
    app = await startApp();
    app.tray.click('copy-config:claude-code');
    assert.equal(app.electron.fake.clipboard, 'claude mcp add --scope user tandem -- /opt/Tandem/resources/bin/tandem mcp');
    app.tray.click('copy-config:claude-desktop');
    assert.deepEqual(JSON.parse(app.electron.fake.clipboard), { mcpServers: { tandem: { command: LAUNCHER.command, args: ['mcp'] } } });
    app.tray.click('copy-config:vscode');
    assert.deepEqual(JSON.parse(app.electron.fake.clipboard), { servers: { tandem: { type: 'stdio', command: LAUNCHER.command, args: ['mcp'] } } });
    app.tray.click('copy-config:cursor');
    assert.deepEqual(JSON.parse(app.electron.fake.clipboard).mcpServers.tandem.args, ['mcp']);
  });

  it('should open the artifacts folder, the live feed and the permissions wizard', async () => {
    app = await startApp();
    app.tray.click('artifacts');
    assert.deepEqual(app.electron.fake.openedPaths, [app.fixture.artifactsDir]);

    app.tray.click('feed');
    app.tray.click('feed');
    assert.equal(app.windowsOf('feed').length, 1, 'the feed window is reused');
    assert.equal(app.windowsOf('feed')[0].loaded?.path, '/app/dist/renderer/index.html');
    const prefs = app.windowsOf('feed')[0].options.webPreferences;
    assert.equal(prefs?.contextIsolation, true);
    assert.equal(prefs?.sandbox, true);
    assert.equal(prefs?.nodeIntegration, false);

    app.tray.click('permissions');
    assert.equal(app.windowsOf('onboarding').length, 1, 'first run already opened the wizard; asking again reuses it');
  });

  it('should release everything on Quit: socket, engine, overlay windows and tray', async () => {
    app = await startApp({ platform: 'darwin' });
    const socket = join(app.socketDir, 'tandem.sock');
    assert.ok(existsSync(socket));
    assert.ok(app.windowsOf('overlay').length > 0, 'overlay windows are prepared at start');
    app.tray.click('quit');
    await app.app.shutdown();
    assert.equal(app.electron.fake.quitCalls, 1);
    assert.equal(existsSync(socket), false, 'the socket is gone');
    assert.equal(app.tray.destroyed, true);
    assert.equal(app.windowsOf('overlay').length, 0);
    await assert.rejects(app.fixture.engine.act(act(COUNTER, clickOn('Count: 0'))), (error) => isTandemError(error));
  });

  it('should end with SIGKILL, not Electron\'s quit, when a backend left a thread stuck (Node\'s exit would wait on it)', async () => {
    let ended: { socketGone: boolean } | undefined;
    app = await startApp({
      platform: 'darwin',
      stuckThread: () => "the macOS input guard's thread: no answer to release within 1000 ms",
      endWithoutJoining: () => (ended = { socketGone: !existsSync(join(app!.socketDir, 'tandem.sock')) }),
    });
    app.tray.click('quit');
    await app.app.shutdown();
    for (let i = 0; i < 100 && !ended; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(ended, { socketGone: true }, 'the socket and the engine were closed first, then the process ended without joining threads');
    assert.equal(app.electron.fake.quitCalls, 0, "no app.quit(): Electron's exit joins worker threads");
    assert.ok(app.logs.some((line) => /quitting with SIGKILL: the macOS input guard's thread/.test(line)), app.logs.join('\n'));
  });

  it('should not bring the feed up on a second launch while an action runs (it would take the focus)', async () => {
    app = await startApp();
    const secondInstance = (): void => {
      for (const listener of app!.electron.fake.appListeners.get('second-instance') ?? []) (listener as () => void)();
    };
    let feedsDuring = -1;
    app.fixture.desktop.when('click', () => {
      secondInstance();
      feedsDuring = app!.windowsOf('feed').length;
    }, { once: true });
    await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(feedsDuring, 0, 'no window shown mid-action');
    assert.ok(app.logs.some((line) => /second launch during an action/.test(line)));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(app.windowsOf('feed').length, 1, 'the feed comes up once the action is over');
  });

  it('should wait for a grace period that outlives the answer before bringing the feed up', async () => {
    app = await startApp({ engineOptions: { graceMs: 300 } });
    const secondInstance = (): void => {
      for (const listener of app!.electron.fake.appListeners.get('second-instance') ?? []) (listener as () => void)();
    };
    const result = await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(result.status, 'ok');
    assert.equal(app.fixture.desktop.guardEngaged, true, 'the guard outlives the answer');
    secondInstance();
    assert.equal(app.windowsOf('feed').length, 0, 'not while the guard still holds the input');
    await new Promise((resolve) => setTimeout(resolve, 450));
    assert.equal(app.fixture.desktop.guardEngaged, false);
    assert.equal(app.windowsOf('feed').length, 1, 'once it lets go');
  });

  it('should say in a dialog why the app could not start', async () => {
    const boxes: Array<{ title: string; content: string }> = [];
    const logs: string[] = [];
    await reportFatalStart({ dialog: { showErrorBox: (title, content) => void boxes.push({ title, content }) } }, new Error('sharp: wrong architecture'), (line) => logs.push(line));
    assert.equal(boxes.length, 1);
    assert.equal(boxes[0].title, 'Tandem could not start');
    assert.match(boxes[0].content, /sharp: wrong architecture[\s\S]*tandem doctor/);
    assert.ok(logs.some((line) => line.includes('sharp: wrong architecture')));
  });
});
