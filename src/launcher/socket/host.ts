// The app's MCP endpoint: a Unix socket in the per-user folder, one MCP session per connection,
// every session over the same engine (so one desktop action at a time, whatever the number of
// clients). Importable without Electron: `tandem serve` and the tests run it in plain Node, the
// Electron app runs the very same host in its main process. There is no TCP listener.

import { chmod, lstat, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { TandemEngine } from '../../core/engineApi.js';
import { TandemError } from '../../core/errors.js';
import type { ToolProfile } from '../../core/settings.js';
import { connectionEngine } from './connectionEngine.js';
import { ensurePrivateDirectory } from './paths.js';
import { preambleAnswer, readFirstLine, readPreamble } from './preamble.js';
import { SocketTransport } from './transport.js';

/** What the host needs of an MCP server: src/mcp's McpServer fits. */
export interface McpSession {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** `profile`: the connection preamble's (`tandem mcp --tools`), else the host's `tools` setting. */
export type McpSessionFactory = (engine: TandemEngine, options: { clientId: string; profile: ToolProfile }) => McpSession;

/** Says whether the process at the other end may talk to us (same uid); null when unknown. */
export type PeerCheck = (socket: Socket) => { allowed: boolean; detail: string; pid?: number } | null;

export interface SocketHostOptions {
  engine: TandemEngine;
  socketPath: string;
  createSession: McpSessionFactory;
  /** Optional peer-uid check on top of the 0700 folder (see native/common/peerCredentials.ts). */
  checkPeer?: PeerCheck;
  log?: (message: string) => void;
}

export interface SocketHost {
  readonly path: string;
  readonly connectionCount: number;
  close(): Promise<void>;
}

export type SocketProbe = 'live' | 'stale' | 'absent';

/** Connects once to find out whether a host answers at `path` (never trust the file alone). */
export function probeSocket(path: string, timeoutMs = 1000): Promise<SocketProbe> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const done = (result: SocketProbe): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    // A host that accepts but is wedged still owns the socket: treat a timeout as live.
    const timer = setTimeout(() => done('live'), timeoutMs);
    socket.once('connect', () => done('live'));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ENOENT' ? 'absent' : 'stale'));
  });
}

/** Removes a socket file left by a crashed host; refuses to touch a live one or a non-socket. */
async function clearStaleSocket(path: string): Promise<void> {
  const state = await probeSocket(path);
  if (state === 'absent') return;
  if (state === 'live') {
    throw new TandemError('busy', `Another Tandem host is already serving ${path}. Quit it first (or set TANDEM_SOCKET_DIR).`);
  }
  const stats = await lstat(path);
  if (!stats.isSocket()) throw new TandemError('internal', `${path} exists and is not a socket: remove it by hand.`);
  await unlink(path);
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function clientName(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || message.method !== 'initialize') return undefined;
  const params = message.params as { clientInfo?: { name?: unknown } } | undefined;
  const name = params?.clientInfo?.name;
  return typeof name === 'string' && name.trim() ? name.trim().slice(0, 40) : undefined;
}

export async function startSocketHost(options: SocketHostOptions): Promise<SocketHost> {
  const log = options.log ?? ((message: string) => console.error(`[tandem host] ${message}`));
  await ensurePrivateDirectory(dirname(options.socketPath));
  await clearStaleSocket(options.socketPath);

  const sockets = new Set<Socket>();
  let connectionNumber = 0;

  const server = createServer((socket) => {
    const number = ++connectionNumber;
    socket.on('error', (error) => log(`connection ${number}: ${error.message}`));
    const verdict = options.checkPeer?.(socket) ?? null;
    if (verdict && !verdict.allowed) {
      log(`connection ${number} refused: ${verdict.detail}`);
      socket.destroy();
      return;
    }
    sockets.add(socket);

    let label = `client-${number}`;
    const disconnected = new AbortController();
    let session: McpSession | undefined;
    socket.once('close', () => {
      sockets.delete(socket);
      disconnected.abort(new TandemError('cancelled', 'The MCP client disconnected during the call.', { by: 'caller' }));
      session?.close().catch((error: Error) => log(`connection ${number} close: ${error.message}`));
    });

    const start = async (): Promise<void> => {
      // A launcher started with --tools says so in a first line before any MCP byte
      // (preamble.ts); any other first line is MCP and goes to the session.
      const first = await readFirstLine(socket);
      let pending = first.rest;
      let requested: ToolProfile | undefined;
      if (first.line !== null) {
        const reading = readPreamble(first.line);
        if (reading.kind === 'none') {
          pending = Buffer.concat([Buffer.from(`${first.line}\n`), first.rest]);
        } else {
          socket.write(preambleAnswer(reading));
          if (reading.kind === 'refused') {
            log(`connection ${number} refused: ${reading.message}`);
            socket.end();
            return;
          }
          requested = reading.tools;
        }
      }
      if (socket.destroyed) return;
      const profile = requested ?? ((await options.engine.getConfig()).settings.tools.value as ToolProfile);
      const engine = connectionEngine(options.engine, { signal: disconnected.signal, clientId: () => label, ...(verdict?.pid ? { peerPid: verdict.pid } : {}) });
      session = options.createSession(engine, { clientId: label, profile });
      const transport = new SocketTransport(
        socket,
        (message) => {
          const name = clientName(message);
          if (name) label = `${name} #${number}`;
        },
        pending,
      );
      transport.onerror = (error) => log(`connection ${number}: ${error.message}`);
      if (socket.destroyed) {
        await session.close();
        return;
      }
      await session.connect(transport);
    };
    start().catch((error: Error) => {
      log(`connection ${number} could not start: ${error.message}`);
      socket.destroy();
    });
  });
  server.on('error', (error) => log(`socket server: ${error.message}`));

  await listen(server, options.socketPath);
  // The 0700 folder already keeps other users out during the instant before this chmod.
  await chmod(options.socketPath, 0o600);
  log(`serving MCP on ${options.socketPath}`);

  let closing: Promise<void> | undefined;
  return {
    path: options.socketPath,
    get connectionCount() {
      return sockets.size;
    },
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await stopped;
        await unlink(options.socketPath).catch(() => {});
      })();
      return closing;
    },
  };
}
