// What a CLI command is: data the registry lists (name, one-line summary, usage, options in
// node:util parseArgs form) plus a run function returning the exit code. New commands (the
// app's `serve`, the relaying `mcp`) are one file each and one line in commands/index.ts.

import type { ParseArgsConfig } from 'node:util';

export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

export interface CommandInput {
  /** Positional arguments after the command name. */
  positionals: string[];
  /** Parsed options (strings/booleans as declared). */
  values: Record<string, string | boolean | undefined>;
  env: NodeJS.ProcessEnv;
}

export interface Command {
  name: string;
  /** One line for `tandem --help`. */
  summary: string;
  /** e.g. "tandem call <tool> '<json>'". */
  usage: string;
  /** Extra paragraphs for `tandem <command> --help`. */
  details?: string;
  options: CommandOptions;
  /** Hidden commands work but are left out of `tandem --help`. */
  hidden?: boolean;
  run(input: CommandInput): Promise<number>;
}

/** Exit codes: 0 ok, 1 the operation failed, 2 the command line was wrong. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** A command-line mistake: cli.ts prints the message and the command's usage, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
