// Parses the command line (node:util parseArgs) and dispatches to the command registry.
// Help and version go to stdout; mistakes go to stderr with the usage and exit code 2.

import { parseArgs } from 'node:util';
import { isTandemError } from '../core/errors.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError, type Command } from './command.js';
import { commands, findCommand } from './commands/index.js';
import { tandemVersion } from './version.js';

function mainHelp(): string {
  const visible = commands.filter((command) => !command.hidden);
  const width = Math.max(...visible.map((command) => command.name.length));
  return [
    `tandem ${tandemVersion()} — lets an AI agent use the apps on your desktop, through MCP, while you are still at the keyboard.`,
    '',
    'Usage: tandem <command> [options]',
    '',
    'Commands:',
    ...visible.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Options: --help (-h) for a command\'s help, --version (-V).',
  ].join('\n');
}

function commandHelp(command: Command): string {
  const options = Object.entries(command.options).map(
    ([name, option]) => `  --${name}${option.short ? ` (-${option.short})` : ''}${option.type === 'string' ? ' <value>' : ''}`,
  );
  return [
    `Usage: ${command.usage}`,
    '',
    command.summary,
    ...(command.details ? ['', command.details] : []),
    ...(options.length ? ['', 'Options:', ...options] : []),
  ].join('\n');
}

function print(text: string): void {
  process.stdout.write(`${text}\n`); // stdout-ok: help and version are the CLI's output
}

/** Runs the CLI with argv (without node and script) and returns the exit code. */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    console.error(mainHelp());
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] ? findCommand(rest[0]) : undefined;
    print(topic ? commandHelp(topic) : mainHelp());
    return EXIT_OK;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    print(tandemVersion());
    return EXIT_OK;
  }
  const command = findCommand(name);
  if (!command) {
    console.error(`tandem: unknown command "${name}".\n\n${mainHelp()}`);
    return EXIT_USAGE;
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...rest],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      print(commandHelp(command));
      return EXIT_OK;
    }
    return await command.run({ positionals, values: values as Record<string, string | boolean | undefined>, env });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      console.error(`tandem ${command.name}: ${(error as Error).message}\nUsage: ${command.usage}`);
      return EXIT_USAGE;
    }
    if (isTandemError(error)) {
      console.error(`tandem ${command.name}: ${error.message}`);
      return EXIT_FAILED;
    }
    console.error(`tandem ${command.name}: unexpected error:`, error);
    return EXIT_FAILED;
  }
}
