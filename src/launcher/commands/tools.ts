// `tandem tools`: the tool list with one-line descriptions (or every parameter with --verbose).

import { annotationsFor, type ToolDefinition } from '../../mcp/defineTool.js';
import { tools } from '../../mcp/tools/index.js';
import { EXIT_OK, type Command } from '../command.js';

function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end >= 0 ? text.slice(0, end + 1) : text;
}

function describeTool(tool: ToolDefinition, verbose: boolean): string {
  const line = `${tool.name.padEnd(30)} ${firstSentence(tool.description)}`;
  if (!verbose) return line;
  const hints = annotationsFor(tool.type);
  const kind = hints.readOnlyHint ? 'read-only' : hints.destructiveHint ? 'acts on the app' : 'changes the desktop, safe to repeat';
  const params = Object.entries(tool.inputSchema.shape).map(([name, schema]) => {
    const optional = schema.safeParse(undefined).success ? '?' : '';
    return `    ${name}${optional}: ${schema.description ?? ''}`;
  });
  return [line, `    (${kind})`, ...params, ''].join('\n');
}

export const toolsCommand: Command = {
  name: 'tools',
  summary: 'List the MCP tools',
  usage: 'tandem tools [--verbose]',
  options: { verbose: { type: 'boolean', short: 'v', default: false } },
  run: async ({ values }) => {
    const text = tools.map((tool) => describeTool(tool, values.verbose === true)).join('\n');
    process.stdout.write(`${text}\n`); // stdout-ok: the CLI's output
    return EXIT_OK;
  },
};
