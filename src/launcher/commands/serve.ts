// `tandem serve`: the app's socket host without Electron or UI — for Linux machines without a
// tray, for `tandem mcp` from a source checkout, and for tests. Runs until SIGINT/SIGTERM, then
// closes the socket and the engine (which releases any guard).

import type { TandemEngine } from '../../core/engineApi.js';
import { createMcpServer } from '../../mcp/server.js';
import { EXIT_FAILED, EXIT_OK, type Command } from '../command.js';
import { createEngineFromEnv } from '../engineFromEnv.js';
import { socketPath } from '../socket/paths.js';
import { startSocketHost, type SocketHost } from '../socket/host.js';
import { nativePeerCheck } from '../socket/peerCheck.js';
import { routeConsoleToStderr } from '../stdioHygiene.js';
import { tandemVersion } from '../version.js';

/** The host `tandem serve` and the Electron app run, over any engine (tests pass a scripted one). */
export async function startServeHost(engine: TandemEngine, env: NodeJS.ProcessEnv = process.env): Promise<SocketHost> {
  return startSocketHost({
    engine,
    socketPath: socketPath(env),
    checkPeer: await nativePeerCheck(),
    createSession: (scoped, options) => createMcpServer(scoped, { ...options, version: tandemVersion() }),
  });
}

async function serve(env: NodeJS.ProcessEnv): Promise<number> {
  routeConsoleToStderr();
  const engine = await createEngineFromEnv(env);
  let host: SocketHost;
  try {
    host = await startServeHost(engine, env);
  } catch (error) {
    await engine.close();
    console.error(`tandem serve: ${(error as Error).message}`);
    return EXIT_FAILED;
  }
  console.error(`tandem ${tandemVersion()}: MCP host on ${host.path} (pid ${process.pid}); Ctrl-C to stop`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  // Closing the engine releases any guard and restores the desktop before the process goes.
  await host.close();
  await engine.close();
  return EXIT_OK;
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the MCP host on the per-user Unix socket, without the app (headless)',
  usage: 'tandem serve',
  details:
    'What the Tandem app does, minus the menu-bar UI: `tandem mcp` (without --direct) relays to it.\n' +
    'The socket lives in a 0700 per-user folder ($XDG_RUNTIME_DIR/tandem on Linux; TANDEM_SOCKET_DIR overrides).',
  options: {},
  run: ({ env }) => serve(env),
};
