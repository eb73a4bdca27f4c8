// How MCP clients should start the launcher, for the configs the app offers to copy.
// Packaged: the wrapper script electron-builder puts in Resources/bin (it runs the launcher on
// the app's own binary with ELECTRON_RUN_AS_NODE=1). From a checkout: node + dist/src/launcher/cli.js.

import { join } from 'node:path';
import type { LauncherInvocation } from '../shared/mcpClientConfig.js';

export function launcherInvocation(input: {
  packaged: boolean;
  resourcesPath: string;
  cliPath: string;
  /** process.execPath when it is plain Node (tandem serve); undefined inside Electron. */
  nodePath?: string;
}): LauncherInvocation {
  if (input.packaged) return { command: join(input.resourcesPath, 'bin', 'tandem'), args: ['mcp'] };
  return { command: input.nodePath ?? 'node', args: [input.cliPath, 'mcp'] };
}
