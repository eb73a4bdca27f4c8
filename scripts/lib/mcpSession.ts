// A real MCP client session: the SDK's Client over StdioClientTransport, spawning
// `tandem mcp --direct` (the compiled CLI when running from dist/, the TypeScript under tsx) with
// a desktop's environment. Used by the end-to-end suite, the demo and the bench.
//
//   const session = await McpSession.start(desktop);            // anything with an `env`
//   const result = await session.callOk('open_application_and_traverse', { identifier: 'mousepad' });
//   result.fields.file, result.structured.screenshot, result.texts…
//   await session.close();
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The checkout root, whether this file runs from test/ (tsx) or dist/test/ (compiled). */
export const REPO_ROOT = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
export const FIXTURE_PATH = join(REPO_ROOT, 'test', 'fixtures', 'tandem_fixture.py');
/** Debian's python: the pyenv python on PATH cannot import gi. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

function findRepoRoot(start: string): string {
  for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'test', 'fixtures'))) return dir;
  }
  throw new Error(`No checkout root above ${start}`);
}

/** True when this file was compiled into dist/ (npm test, npm run demo); false under tsx. */
const COMPILED = fileURLToPath(import.meta.url).endsWith('.js');

/** How to start `tandem mcp --direct`: the compiled CLI under npm test, the TypeScript under tsx. */
export function serverCommand(): { command: string; args: string[] } {
  if (COMPILED) return { command: process.execPath, args: [join(REPO_ROOT, 'dist', 'src', 'launcher', 'cli.js'), 'mcp', '--direct'] };
  return { command: process.execPath, args: ['--import', 'tsx', join(REPO_ROOT, 'src', 'launcher', 'cli.ts'), 'mcp', '--direct'] };
}

// — tool results —

export interface ToolResult {
  isError: boolean;
  /** First text item: the `key: value` summary. */
  text: string;
  /** Every text item (a handoff adds the new app's tree as the second). */
  texts: string[];
  /** structuredContent, as sent. */
  structured: Record<string, unknown>;
  /** The summary's `key: value` lines (first occurrence of each key). */
  fields: Record<string, string>;
  /** The raw response, for secrets scans. */
  raw: unknown;
}

export function summaryFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+): (.*)$/.exec(line);
    if (match && !(match[1] in fields)) fields[match[1]] = match[2];
  }
  return fields;
}

// — the MCP server —

export interface McpSessionOptions {
  /** Added to the desktop's env (e.g. TANDEM_WATCHDOG_MS). */
  env?: NodeJS.ProcessEnv;
  /** Added after `tandem mcp --direct` (e.g. ['--tools', 'reference']); default ['--tools', 'all'], every tool, so a test may call any ([] leaves the profile to the `tools` setting). */
  args?: string[];
  /** Mirror the server's stderr here as it arrives (default: only when TANDEM_E2E_VERBOSE is set). */
  echoStderr?: boolean;
}

/** One `tandem mcp --direct` process and the SDK client talking to it over stdio. */
export class McpSession {
  /** Everything the server wrote on stderr (its log). */
  stderr = '';
  /** Every response received, for scans (e.g. no secret in any of them). */
  readonly responses: unknown[] = [];

  private constructor(
    readonly client: Client,
    private readonly transport: StdioClientTransport,
  ) {}

  static async start(on: { env: NodeJS.ProcessEnv }, options: McpSessionOptions = {}): Promise<McpSession> {
    const { command, args } = serverCommand();
    const env = Object.fromEntries(Object.entries({ ...on.env, ...options.env }).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const transport = new StdioClientTransport({ command, args: [...args, ...(options.args ?? ['--tools', 'all'])], env, cwd: REPO_ROOT, stderr: 'pipe' });
    const client = new Client({ name: 'tandem-e2e', version: '1.0.0' });
    const session = new McpSession(client, transport);
    transport.stderr?.on('data', (chunk: Buffer) => {
      session.stderr += chunk.toString();
      if (options.echoStderr ?? Boolean(process.env.TANDEM_E2E_VERBOSE)) process.stderr.write(chunk);
    });
    await client.connect(transport);
    return session;
  }

  /** The server's pid. */
  get pid(): number {
    const pid = this.transport.pid;
    if (pid === null) throw new Error('The server is not running');
    return pid;
  }

  /** Calls a tool; protocol errors (unknown tool, malformed request) come back as isError too. */
  async call(name: string, args: Record<string, unknown>, timeoutMs = 60_000): Promise<ToolResult> {
    let raw: unknown;
    try {
      raw = await this.client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.responses.push(message);
      return { isError: true, text: message, texts: [message], structured: {}, fields: {}, raw: message };
    }
    this.responses.push(raw);
    const result = raw as { isError?: boolean; content?: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };
    const texts = (result.content ?? []).flatMap((item) => (item.type === 'text' && item.text !== undefined ? [item.text] : []));
    const text = texts[0] ?? '';
    return { isError: result.isError === true, text, texts, structured: result.structuredContent ?? {}, fields: summaryFields(text), raw };
  }

  /** Like call(), but fails the test with the server's answer when the call is an error. */
  async callOk(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const result = await this.call(name, args);
    if (result.isError) throw new Error(`${name} ${JSON.stringify(args)} failed:\n${result.text}\n--- server stderr (tail) ---\n${this.stderr.slice(-2000)}`);
    return result;
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => {});
  }
}
