// How MCP clients should start the launcher, for the configs the app offers to copy.
// Packaged: the wrapper script electron-builder puts in Resources/bin (it runs the launcher on
// the app's own binary with ELECTRON_RUN_AS_NODE=1). From a checkout: node + dist/src/launcher/cli.js.

import { existsSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { LauncherInvocation } from '../shared/mcpClientConfig.js';

/** What the launcher needs on Linux that MCP clients strip from its environment. */
const LINUX_SESSION_VARIABLES = ['DISPLAY', 'XAUTHORITY', 'DBUS_SESSION_BUS_ADDRESS'];

/** An absolute path to `node` from PATH: clients started from a desktop menu have no shell PATH. */
export function findNode(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, 'node');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function launcherInvocation(input: {
  packaged: boolean;
  resourcesPath: string;
  cliPath: string;
  /** An absolute node; default: found on PATH (see findNode). */
  nodePath?: string;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** The app's own binary, run as Node where no node is installed (ELECTRON_RUN_AS_NODE). */
  appBinary?: string;
}): LauncherInvocation {
  const sessionEnv: Record<string, string> = {};
  if (input.platform === 'linux') {
    for (const name of LINUX_SESSION_VARIABLES) {
      const value = input.env?.[name];
      if (value) sessionEnv[name] = value;
    }
  }
  const withEnv = (invocation: LauncherInvocation): LauncherInvocation => {
    const env = { ...invocation.env, ...sessionEnv };
    return Object.keys(env).length ? { ...invocation, env } : invocation;
  };
  if (input.packaged) return withEnv({ command: join(input.resourcesPath, 'bin', 'tandem'), args: ['mcp'] });
  const node = input.nodePath ?? (input.env ? findNode(input.env) : undefined);
  if (node) return withEnv({ command: node, args: [input.cliPath, 'mcp'] });
  if (input.appBinary) return withEnv({ command: input.appBinary, args: [input.cliPath, 'mcp'], env: { ELECTRON_RUN_AS_NODE: '1' } });
  return withEnv({ command: 'node', args: [input.cliPath, 'mcp'] });
}
