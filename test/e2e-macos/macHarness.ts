// Shared pieces of the macOS end-to-end suite: a real MCP client over stdio spawning the built
// launcher (`node dist/src/launcher/cli.js mcp --direct`), the Accessibility precondition (tests
// that need it are reported SKIPPED with the reason, never passed), and the simulated person
// (humanPoster.ts in a separate process posting untagged CGEvents).

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = dirname(fileURLToPath(import.meta.url));
/** dist/test/e2e-macos → dist/src/launcher/cli.js */
export const CLI = resolve(here, '../../src/launcher/cli.js');
export const HUMAN = join(here, 'humanPoster.js');

export interface ToolResult {
  isError: boolean;
  text: string;
  structured: Record<string, unknown>;
}

export class McpSession {
  private constructor(
    private readonly client: Client,
    private readonly transport: StdioClientTransport,
    readonly artifacts: string,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<McpSession> {
    const artifacts = mkdtempSync(join(tmpdir(), 'tandem-e2e-mac-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--direct'],
      env: { ...(process.env as Record<string, string>), TANDEM_ARTIFACTS_DIR: artifacts, ...env },
      stderr: 'inherit',
    });
    const client = new Client({ name: 'tandem-e2e-macos', version: '1.0.0' });
    await client.connect(transport);
    return new McpSession(client, transport, artifacts);
  }

  get pid(): number {
    const pid = this.transport.pid;
    if (pid === null) throw new Error('the server process has no pid');
    return pid;
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
    return {
      isError: result.isError === true,
      text: content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'),
      structured: (result.structuredContent ?? {}) as Record<string, unknown>,
    };
  }

  async callOk(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const result = await this.call(name, args);
    if (result.isError) throw new Error(`${name} failed: ${result.text}`);
    return result;
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}

/** Reads a tree/diff file named by a result. */
export function readArtifact(path: unknown): string {
  if (typeof path !== 'string') throw new Error(`no file in the result: ${String(path)}`);
  return readFileSync(path, 'utf8');
}

// The same tree-file parser as the Linux tests, demo and bench (it imports only node:fs).
export { parseTreeLines as treeLines, type TreeLine } from '../../scripts/lib/treeLines.js';

export const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await delay(200);
  }
}

/** Runs humanPoster.js in its own process: the "person" whose events carry no Tandem marker. */
export function human(...args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(process.execPath, [HUMAN, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`humanPoster ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolvePromise(stdout.trim());
    });
  });
}

/** Why Accessibility-dependent tests cannot run here, or null when they can. */
export async function accessibilityUnavailable(): Promise<string | null> {
  if (process.platform !== 'darwin') return 'the macOS end-to-end suite runs on macOS only';
  try {
    const trusted = await human('trusted');
    return trusted === 'true' ? null : 'Accessibility is not granted to this process (AXIsProcessTrusted() is false): grant it to the runner (see .github/workflows/macos.yml) to run this test';
  } catch (error) {
    return `could not check Accessibility: ${String(error)}`;
  }
}

/**
 * Ends an app this suite opened, by its pid (SIGTERM, then SIGKILL). Not AppleScript: that would
 * need the Automation permission, which a runner cannot answer.
 */
export async function stopApp(pid: number | undefined): Promise<void> {
  if (!pid) return;
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 20 && alive(); i++) await delay(100);
  if (alive()) process.kill(pid, 'SIGKILL');
}
