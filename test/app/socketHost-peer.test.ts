// The host's peer-uid check: the kernel's answer for a connection (SO_PEERCRED on Linux through
// koffi) and the verdict on it.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { peerCredentials } from '../../native/common/peerCredentials.js';
import { startSocketHost } from '../../src/launcher/socket/host.js';
import { peerVerdict, socketFd } from '../../src/launcher/socket/peerCheck.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { COUNTER, engineFixture } from '../support/engineFixtures.js';
import { connectionEngine } from '../../src/launcher/socket/connectionEngine.js';
import { isTandemError } from '../../src/core/errors.js';

describe('socket peer check', () => {
  it('should read the uid and pid of the process at the other end of a Unix socket', { skip: process.platform !== 'linux' && 'SO_PEERCRED is Linux' }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tandem-peer-'));
    const path = join(dir, 'peer.sock');
    let listening!: () => void;
    const ready = new Promise<void>((resolve) => (listening = resolve));
    const accepted = new Promise<Socket>((resolve) => {
      const server = createServer((socket) => {
        resolve(socket);
        server.close();
      });
      server.listen(path, listening);
    });
    await ready;
    const client = createConnection(path);
    const socket = await accepted;
    const fd = socketFd(socket);
    assert.ok(fd !== undefined, 'the accepted socket has a file descriptor');
    const peer = peerCredentials(fd);
    assert.deepEqual(peer, { pid: process.pid, uid: process.getuid!(), gid: process.getgid!() });
    client.destroy();
    socket.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('should close a connection the check refuses, before any MCP is spoken', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tandem-peer-host-'));
    const fixture = await engineFixture();
    const logs: string[] = [];
    const host = await startSocketHost({
      engine: fixture.engine,
      socketPath: join(dir, 'run', 'tandem.sock'),
      createSession: (engine) => createMcpServer(engine),
      checkPeer: () => ({ allowed: false, detail: 'peer uid 4242 is not uid 501' }),
      log: (message) => logs.push(message),
    });
    const client = createConnection(host.path);
    // The host may hang up before the write lands (EPIPE): that is the refusal itself.
    client.on('error', () => {});
    client.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n');
    let answered = '';
    client.on('data', (chunk: Buffer) => (answered += chunk.toString()));
    await new Promise((resolve) => client.once('close', resolve));
    assert.equal(answered, '', 'no answer to a refused peer');
    assert.ok(logs.some((line) => /refused: peer uid 4242 is not uid 501/.test(line)), logs.join('\n'));
    await host.close();
    await fixture.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it("should treat the peer's pid as the MCP client's side: kill_app refuses it", async () => {
    const fixture = await engineFixture();
    const engine = connectionEngine(fixture.engine, { signal: new AbortController().signal, clientId: () => 'peer-test', peerPid: COUNTER });
    await assert.rejects(engine.killApp(COUNTER, true), (error) => isTandemError(error, 'bad-input') && /MCP client connected to Tandem/.test((error as Error).message));
    assert.equal(fixture.desktop.signals.length, 0, 'no signal sent');
    await fixture.cleanup();
  });

  it('should allow the same user, refuse another and defer to the folder when unknown', () => {
    assert.deepEqual(peerVerdict({ uid: 501, pid: 77 }, 501), { allowed: true, detail: 'uid 501, pid 77', pid: 77 });
    assert.deepEqual(peerVerdict({ uid: 0, pid: 1 }, 501), { allowed: false, detail: 'peer uid 0 (pid 1) is not uid 501' });
    assert.equal(peerVerdict(null, 501), null);
  });
});
