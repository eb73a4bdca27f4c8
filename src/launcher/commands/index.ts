// The CLI's commands, in the order `tandem --help` lists them. One file per command; adding one
// is one import and one entry here.

import type { Command } from '../command.js';
import { callCommand } from './call.js';
import { doctorCommand } from './doctor.js';
import { mcpCommand } from './mcp.js';
import { serveCommand } from './serve.js';
import { toolsCommand } from './tools.js';

export const commands: Command[] = [mcpCommand, callCommand, toolsCommand, doctorCommand, serveCommand];

export function findCommand(name: string): Command | undefined {
  return commands.find((command) => command.name === name);
}
