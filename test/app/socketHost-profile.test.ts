// The tool profile over the socket: `tandem mcp --tools <profile>` says it in a preamble line
// before any MCP byte, and the host builds that connection's server with it. Without the flag
// the host's `tools` setting applies. Old pairings work or fail with a clear message: an old
// launcher (no preamble) is served as before; an old host (no preamble support) is detected and
// named by the new launcher; a preamble of another version is refused by the host.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SettingsStore } from '../../src/core/settings.js';
import { startServeHost } from '../../src/launcher/commands/serve.js';
import type { SocketHost } from '../../src/launcher/socket/host.js';
import { readFirstLine } from '../../src/launcher/socket/preamble.js';
import { SocketTransport } from '../../src/launcher/socket/transport.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { COUNTER, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { TOOL_NAMES } from '../mcp/toolNames.js';
import { launcherArgs, relayEnv } from './support/launcher.js';

const REFERENCE = [...TOOL_NAMES.slice(0, 10), 'get_config', 'set_config'];

describe('socket host: the tool profile handshake', () => {
  let base: string;
  let socketDir: string;
  let fixture: EngineFixture;
  let host: SocketHost | undefined;
  let oldHost: Server | undefined;
  const clients: Client[] = [];

  const env = (extra: Record<string, string> = {}): Record<string, string> => relayEnv(socketDir, extra);

  async function connect(...flags: string[]): Promise<Client> {
    const transport = new StdioClientTransport({ command: process.execPath, args: launcherArgs('mcp', ...flags), env: env(), stderr: 'inherit' });
    const client = new Client({ name: 'profile-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  /** Runs the launcher to its exit, stdin left open (as an MCP client would). */
  async function runLauncher(...flags: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
    const child = spawn(process.execPath, launcherArgs('mcp', ...flags), { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, stderr, stdout };
  }

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'tandem-profile-test-'));
    socketDir = join(base, 'run');
    // The host's settings say driver: what a connection without --tools gets.
    fixture = await engineFixture(undefined, { settings: new SettingsStore({ env: { TANDEM_TOOLS: 'driver' } }) });
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    await host?.close();
    host = undefined;
    await new Promise<void>((resolve) => (oldHost ? oldHost.close(() => resolve()) : resolve()));
    oldHost = undefined;
    await fixture.cleanup();
    await rm(base, { recursive: true, force: true });
  });

  it('should offer only the reference tools to `tandem mcp --tools reference`, and refuse the others naming the flag', async () => {
    host = await startServeHost(fixture.engine, { TANDEM_SOCKET_DIR: socketDir });
    const client = await connect('--tools', 'reference');
    assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), REFERENCE);
    assert.doesNotMatch(client.getInstructions() ?? '', /get_window_state/);
    const refused = (await client.callTool({ name: 'click', arguments: { pid: COUNTER, element_index: 0 } })) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].type === 'text' ? refused.content[0].text : '', /tool profile "reference" \(tandem mcp --tools reference/);
    const ok = (await client.callTool({ name: 'click_and_traverse', arguments: { pid: COUNTER, element: 'Count: 0' } })) as CallToolResult;
    assert.notEqual(ok.isError, true);
    assert.equal(fixture.desktop.find(COUNTER, 'Count: 1').role, 'PushButton', 'the relay carries MCP after the preamble');
  });

  it('should give each connection its own profile on the same host, the setting\'s when no flag is sent', async () => {
    host = await startServeHost(fixture.engine, { TANDEM_SOCKET_DIR: socketDir });
    const [all, plain] = await Promise.all([connect('--tools', 'all'), connect()]);
    assert.deepEqual((await all.listTools()).tools.map((tool) => tool.name), TOOL_NAMES);
    const driver = (await plain.listTools()).tools.map((tool) => tool.name);
    assert.ok(driver.includes('click') && !driver.includes('click_and_traverse'), driver.join(', '));
  });

  it('should serve a client that sends MCP straight away (an old launcher) with the setting\'s profile', async () => {
    host = await startServeHost(fixture.engine, { TANDEM_SOCKET_DIR: socketDir });
    const socket = createConnection(join(socketDir, 'tandem.sock'));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } } };
    // Split mid-line and with the next message in the same chunk, as a pipe may deliver them.
    const bytes = `${JSON.stringify(initialize)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`;
    socket.write(bytes.slice(0, 20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write(bytes.slice(20));
    let buffer = '';
    const lines = await new Promise<string[]>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const complete = buffer.split('\n').filter(Boolean);
        if (complete.length >= 2 && buffer.endsWith('\n')) resolve(complete);
      });
    });
    socket.destroy();
    assert.equal(JSON.parse(lines[0]).result.serverInfo.name, 'tandem');
    const names = (JSON.parse(lines[1]).result.tools as { name: string }[]).map((tool) => tool.name);
    assert.ok(names.includes('get_window_state') && !names.includes('open_application_and_traverse'), names.join(', '));
  });

  it('should refuse a preamble of another version with a message, before any MCP', async () => {
    host = await startServeHost(fixture.engine, { TANDEM_SOCKET_DIR: socketDir });
    const socket = createConnection(join(socketDir, 'tandem.sock'));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'tandem-connect', method: 'tandem/connect', params: { version: 2, tools: 'reference' } })}\n`);
    const { line } = await readFirstLine(socket);
    socket.destroy();
    const answer = JSON.parse(line ?? '{}') as { error?: { message?: string } };
    assert.match(answer.error?.message ?? '', /speaks connection preamble version 1, not 2/);
  });

  it('should tell the person when the running host is too old for --tools, and still relay without it', async () => {
    // A host as it was before the preamble: MCP from the first byte.
    oldHost = createServer((socket) => {
      const server = createMcpServer(fixture.engine, { version: 'old' });
      void server.connect(new SocketTransport(socket));
      socket.once('close', () => void server.close());
    });
    await mkdir(socketDir, { recursive: true, mode: 0o700 });
    await new Promise<void>((resolve) => oldHost!.listen(join(socketDir, 'tandem.sock'), () => resolve()));
    const run = await runLauncher('--tools', 'reference');
    assert.equal(run.code, 76);
    assert.match(run.stderr, /the running Tandem host is older than this launcher and cannot offer a tool profile \(--tools reference\)/);
    assert.equal(run.stdout, '', 'nothing reached the MCP client\'s stdout');
    const client = await connect();
    assert.ok((await client.listTools()).tools.length > 0, 'without --tools the old host still serves');
  });

  it('should refuse a --tools value that is not a profile before connecting (usage, exit 2)', async () => {
    const run = await runLauncher('--tools', 'drivers');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--tools must be one of reference, driver, all \(got "drivers"\)/);
  });
});
