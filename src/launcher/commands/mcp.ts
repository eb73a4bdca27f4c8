// `tandem mcp`: what MCP clients spawn. `--direct` runs the engine in this process and serves
// MCP on stdio (Linux, CI, tests). Without it the launcher is meant to relay to the running
// Tandem app, which holds the OS permissions.

import { endProcess } from '../../backends/index.js';
import { serveStdio } from '../../mcp/server.js';
import { TOOL_PROFILES, type ToolProfile } from '../../core/settings.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';
import { createEngineFromEnv } from '../engineFromEnv.js';
import { routeConsoleToStderr } from '../stdioHygiene.js';
import { runMcpRelay } from './relay.js';
import { tandemVersion } from '../version.js';

/** --tools, checked before anything starts (a typo is a usage error, exit 2). */
function toolsFlag(value: string | boolean | undefined): ToolProfile | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (TOOL_PROFILES as readonly string[]).includes(value)) return value as ToolProfile;
  throw new UsageError(`--tools must be one of ${TOOL_PROFILES.join(', ')} (got ${JSON.stringify(value)}).`);
}

async function serveDirect(env: NodeJS.ProcessEnv, tools: ToolProfile | undefined): Promise<number> {
  // stdout belongs to the protocol from here on.
  routeConsoleToStderr();
  const engine = await createEngineFromEnv(env);
  // No flag: the person's `tools` setting (config file or TANDEM_TOOLS).
  const profile = tools ?? ((await engine.getConfig()).settings.tools.value as ToolProfile);
  let closing: Promise<void> | null = null;
  const shutdown = (): Promise<void> => (closing ??= engine.close().catch((error: unknown) => console.error('tandem mcp: closing the engine failed:', error)));
  const onSignal = (): void => {
    // Releases any guard and restores the desktop before the process goes.
    // endProcess: SIGKILL instead of an exit that would wait on a thread a backend left stuck.
    void shutdown().then(() => endProcess(EXIT_OK));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // A stray rejection deep in a backend must not take the client's server down mid-session;
  // the engine's watchdog still gives the person their input back.
  const onStrayRejection = (reason: unknown): void => console.error('tandem mcp: unhandled rejection (still serving):', reason);
  process.on('unhandledRejection', onStrayRejection);
  console.error(`tandem ${tandemVersion()}: MCP server on stdio (direct mode, tools ${profile}, pid ${process.pid})`);
  try {
    await serveStdio(engine, { version: tandemVersion(), profile });
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
  usage: 'tandem mcp [--direct] [--tools reference|driver|all]',
  details:
    '--direct runs the desktop engine inside this process: the process needs the display and OS permissions itself.\n' +
    'Without --direct the launcher relays to the running Tandem app.\n' +
    '--tools picks the tools this session offers: reference (the _and_traverse tools and list_applications), driver (window, click, key, run_steps and inspection tools; the default) or all. Without the flag the "tools" setting decides.',
  options: {
    direct: { type: 'boolean', default: false },
    tools: { type: 'string' },
  },
  run: async ({ values, env }) => {
    const tools = toolsFlag(values.tools);
    if (values.direct) return serveDirect(env, tools);
    return runMcpRelay({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env, ...(tools ? { tools } : {}) });
  },
};
