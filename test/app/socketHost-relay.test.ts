// The app's MCP host on its Unix socket, reached the way MCP clients reach it: an SDK Client
// spawns the real launcher (`tandem mcp`), which relays stdio to the socket. The host runs in
// this process over the real Engine on a scripted desktop (the same host `tandem serve` and the
// Electron app run).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallFinishedEvent } from '../../src/core/engineApi.js';
import { startServeHost } from '../../src/launcher/commands/serve.js';
import type { SocketHost } from '../../src/launcher/socket/host.js';
import { COUNTER, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { launcherArgs, relayEnv } from './support/launcher.js';

interface Connected {
  client: Client;
  transport: StdioClientTransport;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

function text(result: CallToolResult): string {
  return result.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
}

describe('socket host and launcher relay', () => {
  let base: string;
  let socketDir: string;
  let fixture: EngineFixture;
  let host: SocketHost | undefined;
  const clients: Connected[] = [];

  const env = (extra: Record<string, string> = {}): Record<string, string> => relayEnv(socketDir, extra);

  async function connect(name: string): Promise<Connected> {
    const transport = new StdioClientTransport({ command: process.execPath, args: launcherArgs('mcp', '--tools', 'all'), env: env(), stderr: 'inherit' });
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(transport);
    const connected: Connected = {
      client,
      transport,
      call: async (tool, args) => (await client.callTool({ name: tool, arguments: args })) as CallToolResult,
    };
    clients.push(connected);
    return connected;
  }

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'tandem-sock-test-'));
    socketDir = join(base, 'run');
    fixture = await engineFixture();
    host = await startServeHost(fixture.engine, { TANDEM_SOCKET_DIR: socketDir });
  });

  afterEach(async () => {
    for (const { client } of clients.splice(0)) await client.close().catch(() => {});
    await host?.close();
    await fixture.cleanup();
    await rm(base, { recursive: true, force: true });
  });

  it('should let an MCP client reach the engine through the launcher', async () => {
    const { client, call } = await connect('relay-test');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes('click_and_traverse') && names.includes('refresh_traversal'), names.join(', '));
    const result = await call('click_and_traverse', { pid: COUNTER, element: 'Count: 0' });
    assert.notEqual(result.isError, true, text(result));
    assert.match(text(result), /Count: 1/);
    assert.equal(fixture.desktop.find(COUNTER, 'Count: 1').role, 'PushButton');
    assert.equal(fixture.desktop.guardEngaged, false);
  });

  it('should keep the socket folder 0700 and the socket 0600', async () => {
    const folder = await stat(socketDir);
    const socket = await stat(join(socketDir, 'tandem.sock'));
    assert.equal(folder.mode & 0o777, 0o700);
    assert.ok(socket.isSocket());
    assert.equal(socket.mode & 0o777, 0o600);
  });

  it('should serve two clients at once through the one action queue, naming each in the feed', async () => {
    const finished: CallFinishedEvent[] = [];
    fixture.engine.on('call-finished', (event) => finished.push(event));
    const [first, second] = await Promise.all([connect('client-a'), connect('client-b')]);
    const results = await Promise.all([
      first.call('click_and_traverse', { pid: COUNTER, element: 'Count' }),
      second.call('click_and_traverse', { pid: COUNTER, element: 'Count' }),
      first.call('refresh_traversal', { pid: COUNTER }),
    ]);
    for (const result of results) assert.notEqual(result.isError, true, text(result));
    assert.equal(fixture.desktop.find(COUNTER, 'Count: 2').role, 'PushButton', 'both clicks ran, one after the other');
    const engaged = fixture.desktop.actions().filter((action) => action.startsWith('guard:'));
    assert.deepEqual(engaged, ['guard:engage', 'guard:release', 'guard:engage', 'guard:release'], 'never two guards at once');
    const clientIds = new Set(finished.map((event) => event.clientId));
    assert.ok([...clientIds].some((id) => id?.startsWith('client-a')), [...clientIds].join(', '));
    assert.ok([...clientIds].some((id) => id?.startsWith('client-b')), [...clientIds].join(', '));
  });

  it('should leave other clients working when one connection sends garbage', async () => {
    const good = await connect('good-client');
    const garbage = createConnection(join(socketDir, 'tandem.sock'));
    await new Promise<void>((resolve) => garbage.once('connect', () => resolve()));
    garbage.write('this is not JSON-RPC\n{"jsonrpc":"2.0","method":\n\u0000\u0001binary\n');
    garbage.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"click_and_traverse"}}\n');
    const result = await good.call('refresh_traversal', { pid: COUNTER });
    assert.notEqual(result.isError, true, text(result));
    const clicked = await good.call('click_and_traverse', { pid: COUNTER, element: 'Count: 0' });
    assert.notEqual(clicked.isError, true, text(clicked));
    garbage.destroy();
  });

  it('should cancel the call of a client killed mid-action and release the guard', async () => {
    const doomed = await connect('doomed-client');
    fixture.desktop.behave('click', { hang: true });
    const finished = new Promise<CallFinishedEvent>((resolve) => fixture.engine.on('call-finished', resolve));
    const engaged = new Promise<void>((resolve) => fixture.engine.on('guard-engaged', () => resolve()));
    const call = doomed.call('click_and_traverse', { pid: COUNTER, element: 'Count: 0' }).catch((error: Error) => error);
    await engaged;
    assert.equal(fixture.desktop.guardEngaged, true);
    const launcherPid = doomed.transport.pid;
    assert.ok(launcherPid, 'the launcher process is running');
    process.kill(launcherPid, 'SIGKILL');

    const event = await finished;
    assert.equal(event.result.status, 'cancelled');
    assert.equal(fixture.desktop.guardEngaged, false, 'the guard was released');
    assert.ok(await call instanceof Error, 'the killed client got no answer');

    // The host still serves everyone else.
    fixture.desktop.behave('click', {});
    const other = await connect('survivor');
    const result = await other.call('refresh_traversal', { pid: COUNTER });
    assert.notEqual(result.isError, true, text(result));
  });

  it('should refuse to take over a live socket and keep serving', async () => {
    await assert.rejects(startServeHost(fixture.engine, { TANDEM_SOCKET_DIR: socketDir }), /already serving/);
    const { call } = await connect('still-there');
    assert.notEqual((await call('refresh_traversal', { pid: COUNTER })).isError, true);
  });

  it('should clean up a stale socket left by a crashed host', async () => {
    await host?.close();
    host = undefined;
    const stalePath = join(socketDir, 'tandem.sock');
    // A host that dies without cleaning up leaves its socket file behind.
    const crashed = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(stalePath)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => crashed.stdout.once('data', () => resolve()));
    crashed.kill('SIGKILL');
    await new Promise((resolve) => crashed.once('exit', resolve));
    assert.ok((await stat(stalePath)).isSocket(), 'the stale socket file is there');

    host = await startServeHost(fixture.engine, { TANDEM_SOCKET_DIR: socketDir });
    const { call } = await connect('after-crash');
    assert.notEqual((await call('refresh_traversal', { pid: COUNTER })).isError, true);
  });

  it('should exit non-zero with a clear message when no host can be reached', async () => {
    await host?.close();
    host = undefined;
    const child = spawn(process.execPath, launcherArgs('mcp'), { env: env({ TANDEM_CONNECT_TIMEOUT_MS: '1000' }), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 69);
    assert.match(stderr, /no Tandem host answered on .*tandem\.sock/);
    assert.match(stderr, /tandem mcp --direct/);
  });

  it('should exit 0 when the MCP client closes stdin', async () => {
    const child = spawn(process.execPath, launcherArgs('mcp'), { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    const firstLine = await new Promise<string>((resolve) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        if (buffer.includes('\n')) resolve(buffer.slice(0, buffer.indexOf('\n')));
      });
    });
    assert.equal(JSON.parse(firstLine).result.serverInfo.name, 'tandem');
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0);
  });
});
