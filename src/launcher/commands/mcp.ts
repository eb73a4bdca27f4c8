// `tandem mcp`: what MCP clients spawn. `--direct` runs the engine in this process and serves
// MCP on stdio (Linux, CI, tests). Without it the launcher is meant to relay to the running
// Tandem app, which holds the OS permissions.

import { serveStdio } from '../../mcp/server.js';
import { EXIT_OK, type Command } from '../command.js';
import { createEngineFromEnv, inlineFromEnv } from '../engineFromEnv.js';
import { routeConsoleToStderr } from '../stdioHygiene.js';
import { runMcpRelay } from './relay.js';
import { tandemVersion } from '../version.js';

async function serveDirect(env: NodeJS.ProcessEnv): Promise<number> {
  // stdout belongs to the protocol from here on.
  routeConsoleToStderr();
  const inlineByDefault = inlineFromEnv(env);
  const engine = await createEngineFromEnv(env);
  let closing: Promise<void> | null = null;
  const shutdown = (): Promise<void> => (closing ??= engine.close().catch((error: unknown) => console.error('tandem mcp: closing the engine failed:', error)));
  const onSignal = (): void => {
    // Releases any guard and restores the desktop before the process goes.
    void shutdown().then(() => process.exit(EXIT_OK));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // A stray rejection deep in a backend must not take the client's server down mid-session;
  // the engine's watchdog still gives the person their input back.
  const onStrayRejection = (reason: unknown): void => console.error('tandem mcp: unhandled rejection (still serving):', reason);
  process.on('unhandledRejection', onStrayRejection);
  console.error(`tandem ${tandemVersion()}: MCP server on stdio (direct mode, pid ${process.pid})`);
  try {
    await serveStdio(engine, { version: tandemVersion(), inlineByDefault });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('unhandledRejection', onStrayRejection);
    await shutdown();
  }
  return EXIT_OK;
}

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Serve MCP on stdio (what MCP clients run)',
  usage: 'tandem mcp [--direct]',
  details:
    '--direct runs the desktop engine inside this process: the process needs the display and OS permissions itself.\n' +
    'Without --direct the launcher relays to the running Tandem app.',
  options: {
    direct: { type: 'boolean', default: false },
  },
  run: async ({ values, env }) => {
    if (values.direct) return serveDirect(env);
    return runMcpRelay({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env });
  },
};
