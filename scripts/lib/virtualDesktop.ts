/**
 * A throw-away X desktop for tests, the demo and the bench: Xvfb on a free display, its own
 * D-Bus session bus, openbox, and the accessibility bus — the same stack a person's Linux
 * session runs, so real GTK apps register on AT-SPI and every Tandem behaviour can be proven
 * for real (see /work/shared/notes/linux-desktop.md).
 *
 * Usage:
 *   import { ensureDesktopPackages, startVirtualDesktop } from './virtualDesktop.js';
 *   ensureDesktopPackages();                       // apt-get install what is missing (root), else throws
 *   const desktop = await startVirtualDesktop({ log: console.error });
 *   try {
 *     const app = desktop.spawnApp('/usr/bin/python3', ['test/fixtures/tandem_fixture.py']);
 *     // desktop.display is ":N"; desktop.env carries DISPLAY, DBUS_SESSION_BUS_ADDRESS and a
 *     // fresh HOME / XDG_* so apps keep no state between runs. Give it to any process that must
 *     // see this desktop (an MCP server, a SimulatedHuman, a test's own X/D-Bus connections).
 *   } finally {
 *     await desktop.stop();                        // ends every process it started, removes temp dirs
 *   }
 *
 * Every process of the desktop (and whatever they start: the bus launcher, an app's helper
 * window, a server spawned with desktop.env) carries TANDEM_VIRTUAL_DESKTOP=<id> in its
 * environment; stop() ends all of them deepest first, so their own parents reap them (PID 1 in a
 * container may not). Desktops still running when the process exits or gets SIGINT/SIGTERM are
 * stopped too.
 */
import { spawn, execFile, type ChildProcess, type SpawnOptions, type StdioOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { becomeSubreaper, isRunning, killNow, processInfo, processesWithEnv, reapZombies, terminate } from './processes.js';

export { ensureDesktopPackages } from './debianPackages.js';

export interface VirtualDesktopOptions {
  width?: number;
  height?: number;
  /** Display number to use; by default Xvfb picks a free one. */
  display?: number;
  /** Progress lines ("Xvfb on :3 ready"); silent by default. */
  log?: (line: string) => void;
  /**
   * Where GSettings keep their values: 'memory' (default: nothing outlives a process) or
   * 'keyfile' (a file under this desktop's XDG_CONFIG_HOME that every process of the desktop
   * shares, as dconf does in a real session).
   */
  gsettingsBackend?: 'memory' | 'keyfile';
}

export interface SpawnAppOptions {
  /** Added to (and overriding) the desktop's env. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Default: stdin ignored, stdout and stderr piped. */
  stdio?: StdioOptions;
}

export interface VirtualDesktop {
  /** ":N" */
  readonly display: string;
  /** DISPLAY, DBUS_SESSION_BUS_ADDRESS, fresh HOME and XDG_* dirs, GTK without animations. */
  readonly env: NodeJS.ProcessEnv;
  /** Address of the accessibility bus (already started). */
  readonly a11yBusAddress: string;
  readonly width: number;
  readonly height: number;
  /** Temp dir (0700) holding HOME, the XDG dirs and the session bus socket. */
  readonly root: string;
  /** Starts a process on this desktop; it is ended by stop() if still running. */
  spawnApp(command: string, args?: string[], options?: SpawnAppOptions): ChildProcess;
  /** Every still-running process of this desktop, except Xvfb, the buses and openbox. */
  appProcesses(): number[];
  /** Ends every process the desktop started and removes its files. Idempotent. */
  stop(): Promise<void>;
}

const MARKER = 'TANDEM_VIRTUAL_DESKTOP';
const live = new Set<DesktopInstance>();
let exitHooksInstalled = false;

export async function startVirtualDesktop(options: VirtualDesktopOptions = {}): Promise<VirtualDesktop> {
  const desktop = new DesktopInstance(options);
  live.add(desktop);
  installExitHooks();
  becomeSubreaper();
  try {
    await desktop.start();
  } catch (error) {
    await desktop.stop();
    throw error;
  }
  return desktop;
}

class DesktopInstance implements VirtualDesktop {
  display = '';
  env: NodeJS.ProcessEnv = {};
  a11yBusAddress = '';
  readonly width: number;
  readonly height: number;
  readonly root: string;
  private readonly id: string;
  private readonly log: (line: string) => void;
  private readonly requestedDisplay?: number;
  private readonly gsettingsBackend: 'memory' | 'keyfile';
  /** Infrastructure (Xvfb, bus, openbox), in start order. */
  private readonly infrastructure: ChildProcess[] = [];
  private readonly apps = new Set<ChildProcess>();
  private stopping?: Promise<void>;

  constructor(options: VirtualDesktopOptions) {
    this.width = options.width ?? 1280;
    this.height = options.height ?? 800;
    this.requestedDisplay = options.display;
    this.gsettingsBackend = options.gsettingsBackend ?? 'memory';
    this.log = options.log ?? (() => {});
    this.root = mkdtempSync(join(tmpdir(), 'tandem-desktop-'));
    this.id = `${process.pid}-${this.root.slice(-6)}`;
  }

  async start(): Promise<void> {
    const started = Date.now();
    this.env = this.baseEnv();
    this.display = await this.startXvfb();
    this.env.DISPLAY = this.display;
    this.env.DBUS_SESSION_BUS_ADDRESS = await this.startSessionBus();
    await this.startWindowManager();
    this.a11yBusAddress = await this.startAccessibilityBus();
    this.log(`[desktop] ${this.display} ready in ${Date.now() - started} ms (${this.width}x${this.height}, a11y bus ${this.a11yBusAddress})`);
  }

  spawnApp(command: string, args: string[] = [], options: SpawnAppOptions = {}): ChildProcess {
    const child = spawn(command, args, {
      env: { ...this.env, ...options.env },
      cwd: options.cwd,
      stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
      // Own process group, so stop() can end the app together with anything it forked.
      detached: true,
    } satisfies SpawnOptions);
    this.apps.add(child);
    child.once('exit', () => this.apps.delete(child));
    child.once('error', () => this.apps.delete(child));
    return child;
  }

  appProcesses(): number[] {
    const infrastructure = new Set(this.infrastructurePids());
    return this.markedProcesses().filter((pid) => !infrastructure.has(pid) && !this.isBusHelper(pid));
  }

  stop(): Promise<void> {
    this.stopping ??= this.teardown();
    return this.stopping;
  }

  /** Kills synchronously: for the process 'exit' hook only. */
  killNowSync(): void {
    killNow([...this.markedProcesses(), ...this.ownPids()]);
    this.removeFiles();
  }

  private async teardown(): Promise<void> {
    // Apps and everything they started first, deepest first so each parent reaps its children;
    // then the infrastructure in reverse start order (the X server last, once nobody uses it).
    const infrastructure = new Set(this.infrastructurePids());
    const nodeChildren = new Set([...this.infrastructure, ...this.apps].flatMap((child) => (child.pid !== undefined ? [child.pid] : [])));
    const others = this.markedProcesses().filter((pid) => !infrastructure.has(pid));
    const ended = [...new Set([...others, ...this.appPids()])];
    for (const group of byDepthDescending(ended)) {
      await terminate(group);
      // A child whose parent ended before it was reaped is re-parented to us: collect it.
      reapZombies(ended, nodeChildren);
    }
    for (const child of [...this.infrastructure].reverse()) {
      if (child.pid !== undefined) await terminate([child.pid]);
    }
    await Promise.all([...this.apps, ...this.infrastructure].map(waitForExit));
    const leftovers = this.markedProcesses();
    if (leftovers.length) {
      killNow(leftovers);
      await new Promise((resolve) => setTimeout(resolve, 50));
      reapZombies(leftovers, nodeChildren);
      this.log(`[desktop] killed leftover processes ${leftovers.join(', ')}`);
    }
    this.removeFiles();
    live.delete(this);
    this.log(`[desktop] ${this.display || '(not started)'} stopped`);
  }

  private removeFiles(): void {
    // Apps may still be flushing files while they die (a browser profile): retry a few times.
    rmSync(this.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    const number = this.display.slice(1);
    const xvfbPid = this.infrastructure[0]?.pid;
    if (!number || xvfbPid === undefined) return;
    // Xvfb removes these on a clean exit; a SIGKILLed one leaves them behind. Only ours: another
    // desktop may already have taken the display number again.
    const lock = `/tmp/.X${number}-lock`;
    let owner: number | null = null;
    try {
      owner = Number(readFileSync(lock, 'utf8').trim());
    } catch {
      owner = null;
    }
    if (owner === xvfbPid) {
      rmSync(`/tmp/.X11-unix/X${number}`, { force: true });
      rmSync(lock, { force: true });
    }
  }

  private baseEnv(): NodeJS.ProcessEnv {
    const dir = (name: string): string => {
      const path = join(this.root, name);
      mkdirSync(path, { recursive: true, mode: 0o700 });
      return path;
    };
    const home = dir('home');
    const config = dir('config');
    for (const gtk of ['gtk-3.0', 'gtk-4.0']) {
      mkdirSync(join(config, gtk), { recursive: true });
      // No animations or caret blinking: screenshots and accessibility events settle at once.
      writeFileSync(join(config, gtk, 'settings.ini'), '[Settings]\ngtk-enable-animations=false\ngtk-cursor-blink=false\n');
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: config,
      XDG_DATA_HOME: dir('data'),
      XDG_STATE_HOME: dir('state'),
      XDG_CACHE_HOME: dir('cache'),
      XDG_RUNTIME_DIR: dir('runtime'),
      XDG_SESSION_TYPE: 'x11',
      GDK_BACKEND: 'x11',
      // Settings in memory (no dconf service, nothing written between runs), or in a key file
      // of this desktop's own when a test needs them shared between processes.
      GSETTINGS_BACKEND: this.gsettingsBackend,
      GTK_OVERLAY_SCROLLING: '0',
      LANG: process.env.LANG && process.env.LANG !== 'C' ? process.env.LANG : 'C.UTF-8',
      [MARKER]: this.id,
    };
    // Anything pointing at another session, or turning accessibility off, must not leak in.
    for (const name of ['NO_AT_BRIDGE', 'WAYLAND_DISPLAY', 'AT_SPI_BUS_ADDRESS', 'XAUTHORITY', 'SESSION_MANAGER', 'DBUS_SESSION_BUS_ADDRESS', 'DISPLAY']) {
      delete env[name];
    }
    return env;
  }

  private async startXvfb(): Promise<string> {
    const args = [
      ...(this.requestedDisplay !== undefined ? [`:${this.requestedDisplay}`] : []),
      '-screen', '0', `${this.width}x${this.height}x24`,
      '-nolisten', 'tcp',
      '-noreset',
      // Xvfb writes the display number to fd 3 once it accepts connections (and picks a free one
      // itself when none was asked for): no polling, no race with other desktops.
      '-displayfd', '3',
    ];
    const xvfb = this.spawnInfrastructure('Xvfb', args, ['ignore', 'ignore', 'pipe', 'pipe']);
    const number = await readFirstLine(xvfb.stdio[3] as Readable, xvfb, 10_000, 'Xvfb');
    this.log(`[desktop] Xvfb :${number} (pid ${xvfb.pid})`);
    return `:${number.trim()}`;
  }

  private async startSessionBus(): Promise<string> {
    const socket = join(this.env.XDG_RUNTIME_DIR!, 'bus');
    // Non-forking so that we own its pid and reap it.
    const bus = this.spawnInfrastructure('dbus-daemon', ['--session', '--nofork', '--nopidfile', '--nosyslog', '--print-address=1', `--address=unix:path=${socket}`], ['ignore', 'pipe', 'pipe']);
    const address = (await readFirstLine(bus.stdout!, bus, 10_000, 'dbus-daemon')).trim();
    this.log(`[desktop] session bus ${address} (pid ${bus.pid})`);
    return address;
  }

  private async startWindowManager(): Promise<void> {
    const openbox = this.spawnInfrastructure('openbox', ['--sm-disable'], ['ignore', 'ignore', 'pipe']);
    // EWMH: a compliant window manager announces itself with _NET_SUPPORTING_WM_CHECK on the root.
    await pollUntil(async () => {
      if (openbox.exitCode !== null) throw new Error(`openbox exited with ${openbox.exitCode}`);
      const out = await run('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], this.env).catch(() => '');
      return out.includes('window id');
    }, 10_000, 'openbox');
    this.log(`[desktop] openbox (pid ${openbox.pid})`);
  }

  private async startAccessibilityBus(): Promise<string> {
    // The first GetAddress starts at-spi-bus-launcher by D-Bus activation; it publishes
    // AT_SPI_BUS on the root window, where GTK apps look for it.
    const reply = await run('dbus-send', ['--session', '--print-reply=literal', '--dest=org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus.GetAddress'], this.env);
    const address = reply.trim();
    if (!address.startsWith('unix:')) throw new Error(`Unexpected accessibility bus address: ${reply}`);
    return address;
  }

  private spawnInfrastructure(command: string, args: string[], stdio: StdioOptions): ChildProcess {
    const child = spawn(command, args, { env: this.env, stdio, detached: true });
    this.infrastructure.push(child);
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString().trim();
      if (text) this.log(`[desktop] ${command}: ${text}`);
    });
    return child;
  }

  private markedProcesses(): number[] {
    return processesWithEnv(MARKER, this.id);
  }

  private infrastructurePids(): number[] {
    return this.infrastructure.flatMap((child) => (child.pid !== undefined ? [child.pid] : []));
  }

  private appPids(): number[] {
    return [...this.apps].flatMap((child) => (child.pid !== undefined && isRunning(child.pid) ? [child.pid] : []));
  }

  private ownPids(): number[] {
    return [...this.infrastructurePids(), ...this.appPids()];
  }

  /** The accessibility bus launcher, its bus and the registry: part of the desktop, not apps. */
  private isBusHelper(pid: number): boolean {
    const comm = processInfo(pid)?.comm ?? '';
    return comm.startsWith('at-spi') || comm === 'dbus-daemon';
  }
}

/** Groups pids by their depth in the process tree, deepest group first. */
function byDepthDescending(pids: number[]): number[][] {
  const depthOf = (pid: number): number => {
    let depth = 0;
    for (let info = processInfo(pid); info && info.ppid > 1 && depth < 64; info = processInfo(info.ppid)) depth++;
    return depth;
  };
  const groups = new Map<number, number[]>();
  for (const pid of pids) {
    const depth = depthOf(pid);
    groups.set(depth, [...(groups.get(depth) ?? []), pid]);
  }
  return [...groups.entries()].sort((a, b) => b[0] - a[0]).map(([, group]) => group);
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function readFirstLine(stream: Readable, child: ChildProcess, timeoutMs: number, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => finish(new Error(`${what} did not start within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString();
      const newline = buffered.indexOf('\n');
      if (newline >= 0) finish(undefined, buffered.slice(0, newline));
    };
    const onExit = (code: number | null, signal: string | null): void => finish(new Error(`${what} exited (${code ?? signal}) before it was ready`));
    const onError = (error: Error): void => finish(new Error(`${what} could not be started: ${error.message} (run ensureDesktopPackages())`));
    function finish(error?: Error, line?: string): void {
      clearTimeout(timer);
      stream.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      if (error) reject(error);
      else resolve(line!);
    }
    stream.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, timeout: 10_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

async function pollUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} was not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on('exit', () => {
    for (const desktop of live) desktop.killNowSync();
  });
  for (const [name, number] of [['SIGINT', 2], ['SIGTERM', 15]] as const) {
    process.once(name, () => {
      void Promise.allSettled([...live].map((desktop) => desktop.stop())).finally(() => process.exit(128 + number));
    });
  }
}
