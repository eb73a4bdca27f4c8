// How tests start the real `tandem` executable: the compiled dist/src/launcher/cli.js when the
// tests run compiled, or src/launcher/cli.ts through tsx while iterating on the TypeScript.

import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const fromTypeScript = import.meta.url.endsWith('.ts');

/** The repository root (cwd for the child, so tsx resolves from node_modules). */
export const repoRoot = fromTypeScript ? path.resolve(here, '../..') : path.resolve(here, '../../..');

/** node arguments that run the CLI, before the CLI's own arguments. */
export function cliNodeArgs(): string[] {
  return fromTypeScript ? ['--import', 'tsx', path.join(repoRoot, 'src/launcher/cli.ts')] : [path.join(repoRoot, 'dist/src/launcher/cli.js')];
}

/** A minimal environment without DISPLAY (no desktop reachable) and a private artifacts folder. */
export function headlessEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? os.tmpdir(),
    TANDEM_ARTIFACTS_DIR: mkdtempSync(path.join(os.tmpdir(), 'tandem-cli-test-')),
    // Never the machine user's own settings file.
    TANDEM_CONFIG_DIR: path.join(mkdtempSync(path.join(os.tmpdir(), 'tandem-cli-config-')), 'tandem'),
    ...extra,
  };
  return env;
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>): CliRun {
  const result = spawnSync(process.execPath, [...cliNodeArgs(), ...args], { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
