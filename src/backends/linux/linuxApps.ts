// Opening apps on Linux: by .desktop id or Name (XDG application dirs), by executable on PATH,
// or by absolute path. The backend's half of opening: what a request names, the instance of it
// already on the accessibility bus, starting it detached, and whether it (or a child of it) now
// shows a window on the bus. Reusing or starting, and waiting, are core's (appArrival.ts).

import { spawn } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { access, readFile, readdir, stat } from 'node:fs/promises';
import { basename, delimiter, isAbsolute, join, relative } from 'node:path';
import type { AppRequest, LaunchRequest, ResolvedApp, StartedApp } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import { notAccessibleError } from '../../core/apps/readability.js';
import type { Progress } from '../../core/progress.js';
import { IFACE } from '../../../native/linux/atspiProtocol.js';
import type { AtspiApp, AtspiApps } from './atspiApps.js';
import type { AtspiBus } from './atspiBus.js';
import { accessibleLaunchArgv, accessibleLaunchEnv } from './appLaunchAccessibility.js';
import { runningInstances } from './procLaunches.js';
import { processState } from './procSignals.js';
import { openLaunchStderr, type LaunchStderr } from './launchStderr.js';

/** Office suites and browsers can take several seconds to their first window on a loaded machine. */
export const DEFAULT_OPEN_TIMEOUT_MS = 20_000;

// — .desktop entries (pure parts) —

export interface DesktopEntry {
  /** Desktop file id: path under applications/ with '/' → '-', e.g. "org.xfce.mousepad.desktop". */
  id: string;
  path: string;
  name: string;
  exec: string;
  icon?: string;
  wmClass?: string;
  hidden: boolean;
}

/** The [Desktop Entry] group of a .desktop file (other groups, e.g. actions, are ignored). */
export function parseDesktopEntry(text: string, id: string, path: string): DesktopEntry | null {
  const values = new Map<string, string>();
  let inMainGroup = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      inMainGroup = line === '[Desktop Entry]';
      continue;
    }
    if (!inMainGroup) continue;
    const equals = line.indexOf('=');
    if (equals <= 0) continue;
    const key = line.slice(0, equals).trim();
    if (!values.has(key)) values.set(key, line.slice(equals + 1).trim());
  }
  const type = values.get('Type');
  const exec = values.get('Exec');
  const name = values.get('Name');
  if ((type !== undefined && type !== 'Application') || !exec || !name) return null;
  return {
    id,
    path,
    name: unescapeValue(name),
    exec,
    icon: values.get('Icon'),
    wmClass: values.get('StartupWMClass'),
    hidden: values.get('Hidden') === 'true',
  };
}

/** The string-level escapes of the Desktop Entry spec: \s \n \t \r \\. */
function unescapeValue(value: string): string {
  return value.replace(/\\([sntr\\])/g, (_, code: string) => ({ s: ' ', n: '\n', t: '\t', r: '\r', '\\': '\\' })[code] ?? code);
}

/**
 * Exec= to argv: quoting per the Desktop Entry spec, field codes removed (%f %F %u %U %d %D %n %N
 * %v %m, and %i without an icon), %c → the name, %k → the file, %% → %.
 */
export function parseExecLine(exec: string, entry: { name?: string; icon?: string; path?: string } = {}): string[] {
  const words: Array<{ text: string; quoted: boolean }> = [];
  const source = unescapeValue(exec);
  let current = '';
  let quoted = false;
  let inQuotes = false;
  let started = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (inQuotes) {
      if (char === '\\' && i + 1 < source.length && '"`$\\'.includes(source[i + 1])) {
        current += source[++i];
      } else if (char === '"') {
        inQuotes = false;
      } else {
        current += char;
      }
    } else if (char === '"') {
      inQuotes = true;
      quoted = true;
      started = true;
    } else if (char === ' ' || char === '\t') {
      if (started) words.push({ text: current, quoted });
      current = '';
      quoted = false;
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (started) words.push({ text: current, quoted });

  const argv: string[] = [];
  for (const word of words) {
    if (!word.quoted && word.text === '%i') {
      if (entry.icon) argv.push('--icon', entry.icon);
      continue;
    }
    // A word that is only a file/URL field code disappears (no file is passed).
    if (!word.quoted && /^%[fFuUdDnNvm]$/.test(word.text)) continue;
    const expanded = word.text.replace(/%(.)/g, (match, code: string) => {
      switch (code) {
        case '%':
          return '%';
        case 'c':
          return entry.name ?? '';
        case 'k':
          return entry.path ?? '';
        default:
          return '';
      }
    });
    if (expanded !== '' || word.quoted) argv.push(expanded);
  }
  return argv;
}

/** applications/ directories in lookup order: XDG_DATA_HOME first, then XDG_DATA_DIRS. */
export function applicationDirs(env: NodeJS.ProcessEnv): string[] {
  const dataHome = env.XDG_DATA_HOME || (env.HOME ? join(env.HOME, '.local/share') : '');
  const dataDirs = (env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':').filter(Boolean);
  return [dataHome, ...dataDirs].filter(Boolean).map((dir) => join(dir, 'applications'));
}

/** Every application entry visible to the user, first id wins (XDG precedence). */
export async function loadDesktopEntries(env: NodeJS.ProcessEnv): Promise<DesktopEntry[]> {
  const byId = new Map<string, DesktopEntry>();
  for (const dir of applicationDirs(env)) {
    for (const path of await listDesktopFiles(dir)) {
      const id = relative(dir, path).split('/').join('-');
      if (byId.has(id)) continue;
      const text = await readFile(path, 'utf8').catch(() => null);
      const entry = text === null ? null : parseDesktopEntry(text, id, path);
      if (entry) byId.set(id, entry);
    }
  }
  return [...byId.values()].filter((entry) => !entry.hidden);
}

async function listDesktopFiles(dir: string, depth = 0): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth < 3) files.push(...(await listDesktopFiles(path, depth + 1)));
    else if (entry.name.endsWith('.desktop')) files.push(path);
  }
  return files;
}

/** Matches by desktop id (with or without ".desktop"), then by Name (case-insensitive). */
export function findDesktopEntry(entries: readonly DesktopEntry[], identifier: string): DesktopEntry | null {
  const wanted = identifier.trim().toLowerCase();
  const withSuffix = wanted.endsWith('.desktop') ? wanted : `${wanted}.desktop`;
  return (
    entries.find((entry) => entry.id.toLowerCase() === withSuffix) ??
    entries.find((entry) => entry.name.toLowerCase() === wanted) ??
    // "mousepad" for org.xfce.mousepad.desktop: the last component of a reverse-DNS id.
    entries.find((entry) => entry.id.toLowerCase().endsWith(`.${withSuffix}`)) ??
    null
  );
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, fsConstants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

export async function findOnPath(command: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (command.includes('/')) return null;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, command);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return null;
}

// — what to start, and how to recognise it running —

export interface LaunchTarget {
  argv: string[];
  name: string;
  id: string;
  /** Lower-case names a running instance may go by (exe basename, comm, app name, desktop id). */
  matchNames: string[];
  /** How the identifier was resolved, for messages. */
  source: string;
}

const INTERPRETERS = /^(python[\d.]*|perl|ruby|node|nodejs|sh|bash|dash|env|java|gjs)$/;

/** The program an argv really runs: the script for `python3 app.py`, the command for `env X=1 cmd`. */
export function programName(argv: readonly string[]): string {
  let index = 0;
  while (index < argv.length) {
    const name = basename(argv[index]);
    if (!INTERPRETERS.test(name)) return name;
    index++;
    while (index < argv.length && (argv[index].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[index]))) index++;
  }
  return basename(argv[argv.length - 1] ?? '');
}

function targetFromEntry(entry: DesktopEntry): LaunchTarget {
  const argv = parseExecLine(entry.exec, { name: entry.name, icon: entry.icon, path: entry.path });
  const id = entry.id.replace(/\.desktop$/, '');
  const program = programName(argv);
  return {
    argv,
    name: entry.name,
    id,
    matchNames: unique([program, program.slice(0, 15), entry.name, id, id.split('.').pop() ?? id, entry.wmClass ?? '']),
    source: `desktop entry ${entry.path}`,
  };
}

function targetFromExecutable(path: string): LaunchTarget {
  const name = basename(path);
  return { argv: [path], name, id: name, matchNames: unique([name, name.slice(0, 15)]), source: `executable ${path}` };
}

function unique(names: string[]): string[] {
  return [...new Set(names.map((name) => name.toLowerCase()).filter(Boolean))];
}

/** Resolves an identifier to what to start; null when nothing matches. */
export async function resolveLaunchTarget(identifier: string, env: NodeJS.ProcessEnv): Promise<LaunchTarget | null> {
  const trimmed = identifier.trim();
  if (trimmed === '') return null;
  if (isAbsolute(trimmed)) {
    if (trimmed.endsWith('.desktop')) {
      const text = await readFile(trimmed, 'utf8').catch(() => null);
      const entry = text === null ? null : parseDesktopEntry(text, basename(trimmed), trimmed);
      return entry ? targetFromEntry(entry) : null;
    }
    return (await isExecutableFile(trimmed)) ? targetFromExecutable(trimmed) : null;
  }
  const entry = findDesktopEntry(await loadDesktopEntries(env), trimmed);
  if (entry) return targetFromEntry(entry);
  const onPath = await findOnPath(trimmed, env);
  return onPath ? targetFromExecutable(onPath) : null;
}

/** launch_app's target: a path must be absolute (a program or a .desktop file), an id names a .desktop entry, a name goes as open() goes. */
export async function resolveLaunchRequest(request: Pick<LaunchRequest, 'kind' | 'value'>, env: NodeJS.ProcessEnv): Promise<LaunchTarget | null> {
  const value = request.value.trim();
  switch (request.kind) {
    case 'path':
      return isAbsolute(value) ? resolveLaunchTarget(value, env) : null;
    case 'id': {
      const wanted = value.toLowerCase().endsWith('.desktop') ? value.toLowerCase() : `${value.toLowerCase()}.desktop`;
      const entries = await loadDesktopEntries(env);
      const entry = entries.find((e) => e.id.toLowerCase() === wanted) ?? entries.find((e) => e.id.toLowerCase().endsWith(`.${wanted}`));
      return entry ? targetFromEntry(entry) : null;
    }
    case 'name':
      return isAbsolute(value) ? null : resolveLaunchTarget(value, env);
  }
}

/** Whether a running app is an instance of the target. */
export function isInstanceOf(app: { name: string; id?: string }, target: LaunchTarget): boolean {
  const names = new Set(target.matchNames);
  return names.has(app.name.toLowerCase()) || (app.id !== undefined && names.has(app.id.toLowerCase()));
}

async function parentPid(pid: number): Promise<number | null> {
  return (await processState(pid)).parentPid;
}

/** Whether pid is `ancestor` or one of its descendants (a wrapper script's child). */
export async function isSameOrDescendant(pid: number, ancestor: number): Promise<boolean> {
  let current: number | null = pid;
  for (let hops = 0; current !== null && current > 1 && hops < 64; hops++) {
    if (current === ancestor) return true;
    current = await parentPid(current);
  }
  return false;
}

// — opening —

/** A started process as the launch sees it: whether and how it exited, and its stderr so far. */
interface StartedProcess {
  pid: number;
  exited: boolean;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Read for the answer of an exit at launch; closed once it exited or showed a window. */
  stderr: LaunchStderr;
  /** The last lines it wrote to stderr, read when it exited. */
  lastStderr: string[];
}

function exitDescription(child: StartedProcess): string {
  return child.signal !== null ? `killed by ${child.signal}` : `code ${child.exitCode ?? 'unknown'}`;
}

/** A started process that exited with an error before any window of it appeared: its own last words. */
function exitedAtLaunchError(target: LaunchTarget, child: StartedProcess): TandemError {
  const said = child.lastStderr.length ? ' Its last lines on stderr follow.' : ' It wrote nothing to stderr.';
  return new TandemError('app-gone', `"${target.argv.join(' ')}" (from ${target.source}, pid ${child.pid}) exited (${exitDescription(child)}) as it started, before any window of it appeared.${said}`, {
    reason: 'exited-at-launch',
    pid: child.pid,
    ...(child.signal !== null ? { signal: child.signal } : { exitCode: child.exitCode }),
    stderr: child.lastStderr,
  });
}

export class LinuxAppOpener {
  constructor(
    private readonly bus: AtspiBus,
    private readonly apps: AtspiApps,
    private readonly env: NodeJS.ProcessEnv,
    /** Titles of a pid's windows on this display (from the X11 half); none known without it. */
    private readonly windowTitles: (pid: number) => Promise<string[]> = async () => [],
  ) {}

  /**
   * What open_application (kind 'any') or launch_app names: the .desktop entry, executable or
   * path to start, and the instance of it already on the bus. Starting appends launch_app's
   * argv words (no shell); a single-instance app started again hands its arguments to the
   * running instance and exits: that instance is then the arrival.
   */
  async resolve(request: AppRequest, progress: Progress): Promise<ResolvedApp> {
    const target = request.kind === 'any' ? await resolveLaunchTarget(request.value, this.env) : await resolveLaunchRequest(request, this.env);
    if (!target) return this.notInstalled(request, progress);
    const before = await this.apps.list(progress);
    const existing = before.find((app) => isInstanceOf(app, target));
    if (!existing) {
      // Running, but not on the bus (started before accessibility was on): starting it again would
      // only hand the request to that instance (single-instance apps), still unreadable. Say so.
      // Only one with a window on this display counts (the same user may run it in another session).
      for (const instance of (await runningInstances(target.matchNames, new Set(before.map((app) => app.pid)))).slice(0, 4)) {
        const windows = await this.windowTitles(instance.pid).catch(() => []);
        if (windows.length > 0) throw notAccessibleError({ reason: 'not-registered', pid: instance.pid, windows });
      }
    }
    return {
      running: existing ? { pid: existing.pid, name: existing.name, id: target.id } : null,
      startsWhenRunning: false,
      start: async (startProgress) => {
        if (request.kind === 'any') {
          startProgress.log(`starting ${target.argv[0]}`);
          return this.arrival(target, await this.start(target), before, null);
        }
        startProgress.log(`starting ${target.argv[0]} with ${request.args.length} argument(s) and ${request.urls.length} document(s)`);
        const child = await this.start({ ...target, argv: [...target.argv, ...request.args, ...request.urls] });
        return this.arrival(target, child, before, existing ?? null);
      },
    };
  }

  /** Nothing installed by that name: open_application still takes an app running under it (a script, an AppImage). */
  private async notInstalled(request: AppRequest, progress: Progress): Promise<ResolvedApp> {
    const running = await this.apps.list(progress).catch(() => []);
    if (request.kind === 'any') {
      const identifier = request.value;
      // Not installed anywhere we can see, but running under that name (a script, an AppImage).
      const wanted = identifier.trim().toLowerCase();
      const runningMatch = running.find((app) => app.name.toLowerCase() === wanted || app.id?.toLowerCase() === wanted);
      if (runningMatch) {
        return {
          running: { pid: runningMatch.pid, name: runningMatch.name, id: runningMatch.id },
          startsWhenRunning: false,
          start: () => Promise.reject(new TandemError('internal', `"${identifier}" runs but has nothing this backend could start.`)),
        };
      }
      throw new TandemError(
        'unknown-app',
        `No app "${identifier}": no .desktop entry with that id or Name in ${applicationDirs(this.env).join(', ')}, no executable of that name on PATH, and it is not an absolute path to a program.` +
          (running.length ? ` Running apps: ${running.map((app) => app.name).join(', ')}.` : ''),
        { running: running.map((app) => ({ pid: app.pid, name: app.name })) },
      );
    }
    throw new TandemError(
      'unknown-app',
      request.kind === 'path'
        ? `No executable or .desktop file at ${request.value}.`
        : request.kind === 'id'
          ? `No .desktop entry with id "${request.value}" in ${applicationDirs(this.env).join(', ')}.`
          : `No app named "${request.value}": no .desktop entry with that Name or id in ${applicationDirs(this.env).join(', ')}, and no executable of that name on PATH.`,
      { ...(request.kind === 'path' ? { reason: 'no-program' as const } : {}), running: running.map((app) => ({ pid: app.pid, name: app.name })) },
    );
  }

  /**
   * The started process (or a child of it, or — once the launcher exited — an instance of the
   * target) arrives when it shows a window on the bus. `handOverTo`: the instance already
   * running, which a single-instance launcher hands its work to before exiting successfully.
   */
  private arrival(
    target: LaunchTarget,
    child: StartedProcess,
    before: readonly AtspiApp[],
    handOverTo: AtspiApp | null,
    timeoutMs = DEFAULT_OPEN_TIMEOUT_MS,
  ): StartedApp {
    const knownPids = new Set(before.map((app) => app.pid));
    return {
      windowWaitMs: timeoutMs,
      arrived: async (progress) => {
        const apps = await this.apps.list(progress).catch(() => [] as AtspiApp[]);
        for (const app of apps) {
          if (knownPids.has(app.pid)) continue;
          const ours = await isSameOrDescendant(app.pid, child.pid);
          // A launcher that handed over to another process (single-instance apps) and exited.
          const handedOver = child.exited && isInstanceOf(app, target);
          if ((ours || handedOver) && (await this.hasWindow(app, progress))) {
            child.stderr.close();
            return { pid: app.pid, name: app.name, id: target.id, handedOver: false };
          }
        }
        if (handOverTo && child.exited && child.exitCode === 0 && apps.some((app) => app.pid === handOverTo.pid)) {
          return { pid: handOverTo.pid, name: handOverTo.name, id: target.id, handedOver: true };
        }
        return null;
      },
      // Exit code 0 may be a single-instance launcher that handed its work over (its window
      // comes from the instance): only a failure's exit ends the wait.
      failed: () => (child.exited && (child.exitCode !== 0 || child.signal !== null) ? exitedAtLaunchError(target, child) : null),
      notArrived: () => {
        child.stderr.close();
        const exitNote = child.exited ? ` The process exited (${exitDescription(child)}).` : ' The process is still running but did not register a window on the accessibility bus (NO_AT_BRIDGE=1 or a toolkit without AT-SPI support?).';
        return new TandemError('timeout', `Started "${target.argv.join(' ')}" (from ${target.source}, pid ${child.pid}) but no window of it appeared on the accessibility bus within ${Math.round(timeoutMs / 1000)} s.${exitNote}`, {
          pid: child.pid,
          ...(child.exited ? { reason: 'open-no-app' as const } : {}),
        });
      },
    };
  }

  private async start(target: LaunchTarget): Promise<StartedProcess> {
    // Every toolkit's accessibility switch, and Chromium's flag for its page contents (looked up
    // on the file the command runs, so an Electron app behind a bare Exec= name is found too).
    const program = isAbsolute(target.argv[0]) ? target.argv[0] : ((await findOnPath(target.argv[0], this.env)) ?? target.argv[0]);
    const argv = accessibleLaunchArgv([program, ...target.argv.slice(1)]);
    const stderr = openLaunchStderr();
    return new Promise((resolve, reject) => {
      const child = spawn(argv[0], argv.slice(1), { detached: true, stdio: ['ignore', 'ignore', stderr.fd], env: accessibleLaunchEnv(this.env) });
      const state: StartedProcess = { pid: child.pid ?? -1, exited: false, exitCode: null, signal: null, stderr, lastStderr: [] };
      // Reaped by Node (PID 1 in a container may not reap orphans); never keeps Tandem alive.
      child.on('exit', (code, signal) => {
        state.exited = true;
        state.exitCode = code;
        state.signal = signal;
        state.lastStderr = stderr.tail();
        stderr.close();
      });
      child.once('error', (error) => {
        stderr.close();
        reject(new TandemError('unknown-app', `Could not start "${target.argv.join(' ')}" (from ${target.source}): ${error.message}`));
      });
      child.once('spawn', () => {
        child.unref();
        resolve(state);
      });
    });
  }

  private async hasWindow(app: AtspiApp, progress: Progress): Promise<boolean> {
    try {
      const [children] = await this.bus.call(
        { destination: app.busName, path: app.rootPath, interface: IFACE.accessible, member: 'GetChildren' },
        progress,
        'list the windows of the new app',
      );
      return (children as unknown[]).length > 0;
    } catch {
      return false;
    }
  }
}
