// Shared pieces of the MCP end-to-end suite: a real MCP client (the SDK's Client over
// StdioClientTransport) spawning `tandem mcp --direct` on a virtual desktop, the fixture app with
// its stdout oracle, and small independent probes of the X server (pointer, active window) so
// tests check what really happened rather than what Tandem says happened.
//
//   const desktop = await startVirtualDesktop();
//   const server = await McpSession.start(desktop);
//   const fixture = await FixtureApp.start(desktop);
//   const result = await server.call('click_and_traverse', { pid: fixture.pid, element: 'Count: 0' });
//   await fixture.waitForEvent((e) => e.event === 'count');
//   … finally: await server.close(); await desktop.stop();   (stop() also ends the server and apps)
import { execFile, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { FIXTURE_PATH, SYSTEM_PYTHON } from '../../scripts/lib/mcpSession.js';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { McpSession } from '../../scripts/lib/mcpSession.js';

export { FIXTURE_PATH, McpSession, REPO_ROOT, SYSTEM_PYTHON, summaryFields, type ToolResult } from '../../scripts/lib/mcpSession.js';
export { centre, findElement, parseTreeLines, type TreeLine } from '../../scripts/lib/treeLines.js';

const run = promisify(execFile);

// — the fixture app —

export interface FixtureEvent {
  event: string;
  pid: number;
  [field: string]: unknown;
}

/** test/fixtures/tandem_fixture.py (or another fixture script) on the desktop; its JSON-lines stdout is the oracle. */
export class FixtureApp {
  readonly events: FixtureEvent[] = [];
  stderr = '';
  private readonly waiters = new Set<() => void>();

  private constructor(readonly process: ChildProcess) {
    let buffered = '';
    process.stdout?.setEncoding('utf8');
    process.stdout?.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        try {
          this.events.push(JSON.parse(line) as FixtureEvent);
        } catch {
          continue;
        }
        for (const wake of this.waiters) wake();
      }
    });
    process.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  /** Starts the fixture (or `--helper`) and waits until its window is on screen and registered. */
  static async start(desktop: VirtualDesktop, args: string[] = [], script = FIXTURE_PATH): Promise<FixtureApp> {
    const app = new FixtureApp(desktop.spawnApp(SYSTEM_PYTHON, [script, ...args]));
    const readyEvent = args.includes('--helper') ? 'helper-ready' : 'ready';
    await app.waitForEvent((event) => event.event === readyEvent, 15_000);
    return app;
  }

  get pid(): number {
    return this.process.pid!;
  }

  eventsNamed(name: string): FixtureEvent[] {
    return this.events.filter((event) => event.event === name);
  }

  /** Resolves with the first event (already seen or coming) matching; rejects after timeoutMs. */
  waitForEvent(matches: (event: FixtureEvent) => boolean, timeoutMs = 10_000): Promise<FixtureEvent> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.events.find(matches);
        if (!found) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const onExit = (): void => {
        if (check()) return;
        cleanup();
        reject(new Error(`The fixture exited before the awaited event. Events: ${JSON.stringify(this.events)}\n${this.stderr}`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`No matching fixture event within ${timeoutMs} ms. Events: ${JSON.stringify(this.events.slice(-20))}\n${this.stderr.slice(-1000)}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        this.process.off('exit', onExit);
      };
      const wake = (): void => void check();
      if (check()) return;
      this.waiters.add(wake);
      this.process.once('exit', onExit);
    });
  }

  /** The last text the entry held, per the app itself. */
  lastName(): string | undefined {
    return this.eventsNamed('name').at(-1)?.text as string | undefined;
  }

  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    try {
      process.kill(this.pid, 'SIGCONT');
      process.kill(this.pid, 'SIGTERM');
    } catch {
      return;
    }
    await exited;
  }
}

// — independent probes of the X server —

/** Pointer position, asked of the X server by a separate process (not through Tandem). */
export async function pointerPosition(desktop: VirtualDesktop): Promise<{ x: number; y: number }> {
  const script = 'import gi\ngi.require_version("Gdk", "3.0")\nfrom gi.repository import Gdk\n_, x, y, _ = Gdk.get_default_root_window().get_pointer()\nprint(x, y)';
  const { stdout } = await run(SYSTEM_PYTHON, ['-c', script], { env: desktop.env });
  const [x, y] = stdout.trim().split(' ').map(Number);
  return { x, y };
}

/**
 * The mouse buttons the X server holds down (XQueryPointer's mask, buttons 1–5 as bits 0–4),
 * asked by a separate process: 0 when no button is pressed.
 */
export async function pointerButtons(desktop: VirtualDesktop): Promise<number> {
  const script = 'import gi\ngi.require_version("Gdk", "3.0")\nfrom gi.repository import Gdk\n_, _, _, mask = Gdk.get_default_root_window().get_pointer()\nprint(int(mask))';
  const { stdout } = await run(SYSTEM_PYTHON, ['-c', script], { env: desktop.env });
  return (Number(stdout.trim()) >> 8) & 0x1f;
}

/** pid of the window the window manager has active (EWMH), via xprop. */
export async function activeWindowPid(desktop: VirtualDesktop): Promise<number | null> {
  const { stdout: active } = await run('xprop', ['-root', '_NET_ACTIVE_WINDOW'], { env: desktop.env });
  const id = /window id # (0x[0-9a-f]+)/i.exec(active)?.[1];
  if (!id || id === '0x0') return null;
  const { stdout } = await run('xprop', ['-id', id, '_NET_WM_PID'], { env: desktop.env }).catch(() => ({ stdout: '' }));
  const pid = /= (\d+)/.exec(stdout)?.[1];
  return pid ? Number(pid) : null;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns a value (not undefined) or timeoutMs passes. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await delay(50);
  }
}

/** A private virtual desktop with `tandem mcp --direct` and the fixture app running on it. */
export interface DesktopSession {
  desktop: VirtualDesktop;
  server: McpSession;
  fixture: FixtureApp;
}

/** What most e2e suites start in `before`: packages checked, desktop, server, fixture. */
export async function startDesktopSession(): Promise<DesktopSession> {
  ensureDesktopPackages();
  const desktop = await startVirtualDesktop();
  const server = await McpSession.start(desktop);
  const fixture = await FixtureApp.start(desktop);
  return { desktop, server, fixture };
}

/** Stops what startDesktopSession started, tolerating a start that failed half-way. */
export async function stopDesktopSession(session: Partial<DesktopSession>): Promise<void> {
  await session.server?.close();
  await session.desktop?.stop();
}
