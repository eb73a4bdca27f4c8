// Processes an app launched, read from /proc: a click that starts another program (a helper
// window, a browser for a link) leaves a young descendant of the app behind; core waits for its
// window before it looks for a handoff (settle.ts). This file only reads the process table; the
// tree search is core's (processTree.ts). Once per action, so it must be cheap: the stat files
// are read synchronously, 64 at a time with a yield between batches (the async readFile costs
// four thread-pool round trips per file: 8.6 ms for 64 processes against 3.7 ms here), and
// /proc/<pid>/task/<tid>/children would be cheaper still but is not on every kernel.

import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { LaunchedProcess } from '../../core/model.js';
import * as processTree from '../../core/apps/processTree.js';

/** Clock ticks per second of /proc/<pid>/stat's start time: USER_HZ, 100 on every Linux ABI. */
const USER_HZ = 100;

export interface ProcStat {
  pid: number;
  /** The executable's name as the kernel keeps it (15 characters at most). */
  comm: string;
  ppid: number;
  /** Start time in clock ticks after boot. */
  startTicks: number;
}

/** Parses /proc/<pid>/stat; the name may hold spaces and parentheses, so fields count from the last ')'. */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const fields = text.slice(close + 2).split(' ');
  // After the name: state(0) ppid(1) … starttime is field 22 of the whole line, 19 after the name.
  const ppid = Number(fields[1]);
  const startTicks = Number(fields[19]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isFinite(startTicks)) return null;
  return { pid, comm: text.slice(open + 1, close), ppid, startTicks };
}

/** Epoch milliseconds of the boot, from /proc/uptime (10 ms precision; /proc/stat's btime is whole seconds). */
function bootEpochMs(): number {
  const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  return Date.now() - uptime * 1000;
}

const STAT_BATCH = 64;

async function readAllStats(): Promise<ProcStat[]> {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  const stats: ProcStat[] = [];
  for (let start = 0; start < pids.length; start += STAT_BATCH) {
    if (start > 0) await yieldToEventLoop();
    for (const pid of pids.slice(start, start + STAT_BATCH)) {
      try {
        const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
        if (stat) stats.push(stat);
      } catch {
        // gone since the listing
      }
    }
  }
  return stats;
}

/** A process's arguments from /proc/<pid>/cmdline (NUL-separated); undefined when unreadable or a zombie's (empty). */
export function readCommandLine(pid: number): string[] | undefined {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (args.at(-1) === '') args.pop();
    return args.length ? args : undefined;
  } catch {
    return undefined;
  }
}

/** pid's descendants that started at or after sinceMs (epoch ms) and still run, with their arguments (core tells a browser's helpers apart by them). */
export async function descendantsStartedSince(pid: number, sinceMs: number): Promise<LaunchedProcess[]> {
  const boot = bootEpochMs();
  const processes = await readAllStats();
  // One tick of slack: start times are kept in whole ticks.
  const since = sinceMs - 1000 / USER_HZ;
  const table = processes.map((proc) => ({ ...proc, startMs: boot + (proc.startTicks * 1000) / USER_HZ }));
  return processTree.descendantsStartedSince(pid, table, since).map((proc) => {
    const commandLine = readCommandLine(proc.pid);
    return { pid: proc.pid, name: proc.comm, ...(commandLine ? { commandLine } : {}) };
  });
}

/** Basename of /proc/<pid>/exe; '' when unreadable (another user's process, a zombie). */
function executableBasename(pid: number): string {
  try {
    return basename(readlinkSync(`/proc/${pid}/exe`)).replace(/ \(deleted\)$/, '');
  } catch {
    return '';
  }
}

/**
 * Running processes of this user whose command or executable name is one of `names` (lower
 * case), leaving out `exclude` and any process whose parent is itself one of them: for a browser,
 * the main process and not its renderers.
 */
export async function runningInstances(names: readonly string[], exclude: ReadonlySet<number>): Promise<ProcStat[]> {
  const wanted = new Set(names.map((name) => name.toLowerCase()));
  const matching = (await readAllStats()).filter((proc) => {
    if (proc.pid === process.pid || exclude.has(proc.pid)) return false;
    const exe = executableBasename(proc.pid).toLowerCase();
    return exe !== '' && (wanted.has(proc.comm.toLowerCase()) || wanted.has(exe));
  });
  const pids = new Set(matching.map((proc) => proc.pid));
  return matching.filter((proc) => !pids.has(proc.ppid));
}
