// Shared pieces of the macOS end-to-end suite: a real MCP client over stdio spawning the built
// launcher (`node dist/src/launcher/cli.js mcp --direct`), the precondition probe (tests that
// need the grants are reported SKIPPED with the reason, never passed — and the workflow fails a
// run where they all were), the simulated person (humanPoster.ts in a separate process posting
// untagged CGEvents), the suite's own AX reads (humanPoster.js value/elements: whole values,
// which Tandem's tree lines cut at 160 characters, and AX identifiers), and the guard-engaged
// signal (an MCP progress notification of the call: the engine sends step notices only once the
// guard holds the input, so the person acts while it really is up).

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseTreeLines, type TreeLine } from '../../scripts/lib/treeLines.js';
import { indexOfLineNumber } from '../../src/core/tree/treeFormat.js';
import type { OnScreenWindow } from '../../scripts/lib/macosOverlayWindows.js';
import type { AxNode } from './axReader.js';

const here = dirname(fileURLToPath(import.meta.url));
/** dist/test/e2e-macos → dist/src/launcher/cli.js */
export const CLI = resolve(here, '../../src/launcher/cli.js');
export const HUMAN = join(here, 'humanPoster.js');

import { NEEDS_ENV, NEEDS_GRANT } from '../../scripts/lib/macosCiSummary.js';

/** Skip reasons of tests that need the grants start with this: the workflow counts them (scripts/macosCiSummary.ts). */
export { NEEDS_GRANT };
/** Longest wait for the guard-engaged signal: generous, a cold first call on a runner is slow. */
export const ENGAGE_CAP_MS = 30_000;

export interface ToolResult {
  isError: boolean;
  text: string;
  structured: Record<string, unknown>;
}

export interface RunningCall {
  result: Promise<ToolResult>;
  /** Resolves at the call's first progress notification that `until` accepts (the guard holds the input then); rejects after ENGAGE_CAP_MS or when the call answers first. */
  engaged: Promise<void>;
  /** Every progress message of the call so far, in order. */
  messages: string[];
}

/** Accepts the progress notice of step `n` (1-based): "step 3 of 4: …" (src/mcp/progressNotifications.ts). */
export const stepStarted = (n: number) => (message: string): boolean => message.startsWith(`step ${n} of `);

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
      // Every profile's tools: the suite drives both families (the default profile has only one).
      args: [CLI, 'mcp', '--direct', '--tools', 'all'],
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

  async call(name: string, args: Record<string, unknown>, onProgress?: (message: string) => void): Promise<ToolResult> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, {
      timeout: 120_000,
      ...(onProgress ? { onprogress: (progress: { message?: string }) => onProgress(progress.message ?? '') } : {}),
    });
    const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
    return {
      isError: result.isError === true,
      text: content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'),
      structured: (result.structuredContent ?? {}) as Record<string, unknown>,
    };
  }

  /**
   * Starts a call and hands back its result and the guard-engaged signal: by default its first
   * progress notification, or the first one `until` accepts (e.g. the step of a wait, so the
   * person acts during it).
   */
  start(name: string, args: Record<string, unknown>, until: (message: string) => boolean = () => true): RunningCall {
    const messages: string[] = [];
    let engagedNow!: () => void;
    let failEngaged!: (error: Error) => void;
    const engaged = new Promise<void>((resolvePromise, reject) => {
      engagedNow = resolvePromise;
      failEngaged = reject;
    });
    const timer = setTimeout(() => failEngaged(new Error(`no awaited progress notification within ${ENGAGE_CAP_MS} ms (seen: ${JSON.stringify(messages)}): the guard never engaged`)), ENGAGE_CAP_MS);
    const result = this.call(name, args, (message) => {
      messages.push(message);
      if (!until(message)) return;
      clearTimeout(timer);
      engagedNow();
    });
    result.then(
      (r) => {
        clearTimeout(timer);
        failEngaged(new Error(`the call answered before the awaited progress notification (seen: ${JSON.stringify(messages)}): ${r.text}`));
      },
      (error: unknown) => {
        clearTimeout(timer);
        failEngaged(error instanceof Error ? error : new Error(String(error)));
      },
    );
    engaged.catch(() => undefined);
    return { result, engaged, messages };
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

export { parseTreeLines as treeLines, type TreeLine };

/** What a line holds: its value (fields, text areas) or else its name. */
export const contentOf = (line: TreeLine): string => line.value ?? line.text;

/** Whether `inner`'s bounds lie within `outer`'s. */
export const inside = (inner: TreeLine, outer: TreeLine): boolean =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

/**
 * What the title of `document`'s TextEdit window surely contains: its file name without the
 * extension (which Finder's settings may hide in the title).
 */
export const windowTitleOf = (document: string): string => basename(document, extname(document));

/**
 * TextEdit's text area in the window of `document` (its title is the file name), never one of
 * another window (a document a previous test or run left open).
 */
export function textAreaOf(tree: string, document: string): TreeLine {
  const lines = parseTreeLines(tree);
  const name = windowTitleOf(document);
  const window = lines.find((l) => l.role === 'Window' && l.text.includes(name) && Number.isFinite(l.x));
  if (!window) throw new Error(`no window titled "${name}" in the tree:\n${tree.slice(0, 3000)}`);
  const area = lines.find((l) => l.role === 'TextArea' && Number.isFinite(l.x) && inside(l, window));
  if (!area) throw new Error(`no TextArea inside the "${name}" window:\n${tree.slice(0, 3000)}`);
  return area;
}

/**
 * Opens `document` in TextEdit and finds its window's text area: in the open's own tree, else
 * (the window of a second document may come up after the app answered) in a later refresh.
 */
export async function openDocument(session: McpSession, document: string): Promise<{ pid: number; area: TreeLine; result: ToolResult }> {
  const result = await session.callOk('open_application_and_traverse', { identifier: document });
  const pid = Number(result.structured.pid);
  if (!(pid > 0)) throw new Error(`open gave no pid: ${result.text}`);
  let tree = readArtifact(result.structured.file);
  const area = await eventually(
    async () => {
      try {
        return textAreaOf(tree, document);
      } catch (error) {
        tree = readArtifact((await session.callOk('refresh_traversal', { pid })).structured.file);
        throw error;
      }
    },
    10_000,
    `the window of ${basename(document)}`,
  );
  return { pid, area, result };
}

/** Tree lines with their element_index (the line number in the file, less the header). */
export function indexedTreeLines(tree: string): Array<TreeLine & { index: number }> {
  return tree.split('\n').flatMap((text, i) => {
    const index = indexOfLineNumber(i + 1);
    const [line] = parseTreeLines(text);
    return index === null || !line ? [] : [{ ...line, index }];
  });
}

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
    execFile(process.execPath, [HUMAN, ...args], { timeout: 30_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`humanPoster ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolvePromise(stdout.trim());
    });
  });
}

/**
 * The whole text of the text area in `document`'s TextEdit window, read by the suite's own AX
 * reader: never cut, unlike the values in Tandem's tree lines.
 */
export async function documentText(pid: number, document: string): Promise<string> {
  const { value } = JSON.parse(await human('value', String(pid), windowTitleOf(document))) as { value: string | null };
  if (value === null) throw new Error(`no text area in a window titled "${windowTitleOf(document)}" of pid ${pid}`);
  return value;
}

/** Every element of the app's windows as AX itself reports it (roles with their AX prefix, identifiers included). */
export async function axElements(pid: number): Promise<AxNode[]> {
  return JSON.parse(await human('elements', String(pid))) as AxNode[];
}

/** What this process may do, checked for real (humanPoster.ts probe). */
export interface MacProbe {
  trusted: boolean;
  /** AXRole of the Dock's application element: AXError 0 and "AXApplication" when reads work. */
  axRead: { error: number; role: string | null; pid: number | null };
  /** CGPreflightPostEventAccess(). */
  postEvent: boolean;
  /** An active keyboard event tap could be created (and was removed at once). */
  activeTap: boolean;
  /** CGPreflightScreenCaptureAccess(): without it Tandem refuses screenshots (`permission`). */
  screenCapture: boolean;
  /** IsSecureEventInputEnabled(): while true, event taps see no keys (Esc included); null when the call failed. */
  secureInput: boolean | null;
  /** On-screen windows above the apps not owned by the Dock, the window server, the menu bar or TextEdit (an alert left up); null when the list could not be read. */
  windowsAbove: OnScreenWindow[] | null;
}

let probed: Promise<MacProbe | string> | null = null;

/** The probe's answer, once per test process (a string: why it could not run). */
export function probeMac(): Promise<MacProbe | string> {
  probed ??= (async () => {
    if (process.platform !== 'darwin') return 'the macOS end-to-end suite runs on macOS only';
    try {
      return JSON.parse(await human('probe')) as MacProbe;
    } catch (error) {
      return `the probe failed: ${String(error)}`;
    }
  })();
  return probed;
}

/** Why the tests that need the grants cannot run here (NEEDS_GRANT-prefixed), or null when they can. */
export async function accessibilityUnavailable(): Promise<string | null> {
  const probe = await probeMac();
  if (typeof probe === 'string') return `${NEEDS_GRANT} ${probe}`;
  const missing: string[] = [];
  if (probe.axRead.error !== 0 || probe.axRead.role !== 'AXApplication') missing.push(`a real accessibility read failed (the Dock's AXRole: AXError ${probe.axRead.error}; AXIsProcessTrusted() ${probe.trusted})`);
  if (!probe.postEvent) missing.push('event posting is not allowed (CGPreflightPostEventAccess() is false)');
  if (!probe.activeTap) missing.push('an active keyboard event tap could not be created');
  return missing.length ? `${NEEDS_GRANT} ${missing.join('; ')}: grant Accessibility and event posting to the runner (see .github/workflows/macos.yml)` : null;
}

/**
 * Why the screenshot test cannot run here (NEEDS_GRANT-prefixed: Screen Recording is a grant the
 * workflow gives), or null when it can. The Accessibility preconditions come first.
 */
export async function screenCaptureUnavailable(): Promise<string | null> {
  const missing = await accessibilityUnavailable();
  if (missing) return missing;
  const probe = (await probeMac()) as MacProbe;
  return probe.screenCapture ? null : `${NEEDS_GRANT} Screen Recording is not granted (CGPreflightScreenCaptureAccess() is false): Tandem refuses screenshots; grant kTCCServiceScreenCapture to the runner (see .github/workflows/macos.yml)`;
}

/**
 * Why the guard tests cannot run here, or null when they can: the grants, then Secure Event Input
 * — while it is on (a password field has the focus, Terminal's Secure Keyboard Entry), event taps
 * see no keys, so the person's keys and Esc would pass the guard by macOS's design, and Tandem
 * refuses to guard (guard-unavailable, secure-input). Not a grant, but the run still fails: the
 * guard, the heart of the product, would have gone unproven behind a green run.
 */
export async function guardUnavailable(): Promise<string | null> {
  const missing = await accessibilityUnavailable();
  if (missing) return missing;
  const probe = (await probeMac()) as MacProbe;
  return probe.secureInput === true ? `${NEEDS_ENV} Secure Event Input is on (IsSecureEventInputEnabled() is true, a password field or Secure Keyboard Entry): event taps see no keys, so the guard cannot be tested on this runner` : null;
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
