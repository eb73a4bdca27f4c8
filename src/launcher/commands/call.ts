// `tandem call <tool> '<json>'`: runs one tool from a shell through the very same MCP code path
// a client uses (an SDK client over an in-process transport), prints its text, exits 1 on isError.

import { callToolInProcess } from '../../mcp/inProcessClient.js';
import { tools } from '../../mcp/tools/index.js';
import { EXIT_FAILED, EXIT_OK, UsageError, type Command } from '../command.js';
import { createEngineFromEnv } from '../engineFromEnv.js';
import { tandemVersion } from '../version.js';

const toolNames = (): string => tools.map((tool) => tool.name).join(', ');

/** The tool name and its arguments object, or a UsageError saying what to type instead. */
export function parseCallArguments(positionals: readonly string[]): { tool: string; args: Record<string, unknown> } {
  const [tool, json, ...extra] = positionals;
  if (!tool) throw new UsageError(`Name the tool to call. Tools: ${toolNames()}.`);
  if (!tools.some((candidate) => candidate.name === tool)) {
    throw new UsageError(`Unknown tool "${tool}". Tools: ${toolNames()}.`);
  }
  if (extra.length) {
    throw new UsageError(`Pass the arguments as ONE JSON object in single quotes, e.g. tandem call ${tool} '{"pid":1234}'.`);
  }
  if (json === undefined) return { tool, args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`The arguments are not valid JSON (${(error as Error).message}). Example: tandem call ${tool} '{"pid":1234}'.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`The arguments must be a JSON object, e.g. '{"pid":1234}', not ${json}.`);
  }
  return { tool, args: parsed as Record<string, unknown> };
}

export const callCommand: Command = {
  name: 'call',
  summary: 'Run one tool from the shell and print its result',
  usage: "tandem call <tool> ['<json arguments>']",
  details: `Example: tandem call open_application_and_traverse '{"identifier":"gedit"}'\nTools: ${toolNames()}.`,
  options: {},
  run: async ({ positionals, env }) => {
    const { tool, args } = parseCallArguments(positionals);
    const engine = await createEngineFromEnv(env);
    try {
      // Every tool, whatever the profile: the shell names a tool from the full list above.
      const result = await callToolInProcess(engine, tool, args, { clientId: 'tandem-call', version: tandemVersion(), profile: 'all' });
      process.stdout.write(`${result.texts.join('\n\n')}\n`); // stdout-ok: the CLI's output
      return result.isError ? EXIT_FAILED : EXIT_OK;
    } finally {
      await engine.close();
    }
  },
};
