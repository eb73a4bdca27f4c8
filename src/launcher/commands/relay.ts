// `tandem mcp` (without --direct): what MCP clients spawn. Relays stdio ⇄ the app's Unix socket
// byte for byte (both ends speak newline-delimited JSON-RPC), starting the app when nothing
// listens and waiting a bounded time for it. Exits 0 when stdin closes; exits non-zero with a
// clear stderr message when the host cannot be reached or goes away.

import { createConnection, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolProfile } from '../../core/settings.js';
import { ensurePrivateDirectory, socketPath } from '../socket/paths.js';
import { planAppStart, runAppStart } from '../socket/appStart.js';
import { PREAMBLE_VERSION, preambleLine, readFirstLine, readPreambleAnswer } from '../socket/preamble.js';

const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
const RETRY_EVERY_MS = 200;
/** sysexits EX_UNAVAILABLE: the service is not there. */
export const EXIT_HOST_UNREACHABLE = 69;
/** sysexits EX_PROTOCOL: the host did not accept the connection preamble (--tools). */
export const EXIT_PREAMBLE_REFUSED = 76;

export interface RelayOptions {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Absolute path of cli.js, for starting `tandem serve`. */
  cliPath?: string;
  /** --tools: the profile to ask the host for (a preamble line); without it the host's `tools` setting applies. */
  tools?: ToolProfile;
}

function connectOnce(path: string): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(null);
    });
  });
}

async function connectWithin(path: string, timeoutMs: number): Promise<Socket | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const socket = await connectOnce(path);
    if (socket || Date.now() >= deadline) return socket;
    await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
  }
}

async function startApp(options: RelayOptions, path: string): Promise<string[]> {
  const tried: string[] = [];
  const directory = dirname(path);
  await ensurePrivateDirectory(directory);
  const attempts = planAppStart({
    platform: process.platform,
    env: options.env,
    execPath: process.execPath,
    cliPath: options.cliPath ?? fileURLToPath(new URL('../cli.js', import.meta.url)),
    electronVersion: process.versions.electron,
  });
  for (const attempt of attempts) {
    tried.push(attempt.description);
    if (await runAppStart(attempt, directory)) break;
  }
  return tried;
}

export async function runMcpRelay(options: RelayOptions): Promise<number> {
  const path = socketPath(options.env);
  const timeoutMs = Number(options.env.TANDEM_CONNECT_TIMEOUT_MS) || DEFAULT_CONNECT_TIMEOUT_MS;
  let socket = await connectOnce(path);
  if (!socket) {
    const tried = await startApp(options, path);
    socket = await connectWithin(path, timeoutMs);
    if (!socket) {
      options.stderr.write(
        `tandem: no Tandem host answered on ${path} within ${Math.round(timeoutMs / 1000)} s ` +
          `(started: ${tried.join(', ') || 'nothing'}). Start the Tandem app (or \`tandem serve\`), ` +
          `or use \`tandem mcp --direct\` to run the engine in this process.\n`,
      );
      return EXIT_HOST_UNREACHABLE;
    }
  }
  if (options.tools) {
    socket.write(preambleLine({ version: PREAMBLE_VERSION, tools: options.tools }));
    const first = await readFirstLine(socket);
    const verdict = first.line === null ? { ok: false as const, message: 'the Tandem host closed the connection before confirming the tool profile.' } : readPreambleAnswer(first.line, options.tools);
    if (!verdict.ok) {
      options.stderr.write(`tandem: ${verdict.message}\n`);
      socket.destroy();
      return EXIT_PREAMBLE_REFUSED;
    }
    if (first.rest.length) options.stdout.write(first.rest);
  }
  return relay(options, socket);
}

function relay(options: RelayOptions, socket: Socket): Promise<number> {
  return new Promise((resolve) => {
    let stdinEnded = false;
    options.stdin.pipe(socket);
    socket.pipe(options.stdout, { end: false });
    options.stdin.once('end', () => {
      stdinEnded = true;
      socket.end();
    });
    socket.on('error', (error) => {
      if (!stdinEnded) options.stderr.write(`tandem: connection to the Tandem host failed: ${error.message}\n`);
    });
    socket.once('close', () => {
      options.stdin.unpipe(socket);
      if (stdinEnded) return resolve(0);
      options.stderr.write('tandem: the Tandem host closed the connection (was the app quit?).\n');
      resolve(1);
    });
  });
}
