// Finding and ending the processes a virtual desktop started, through /proc. Every process of a
// desktop carries a marker in its environment (D-Bus activation and fork/exec pass it on), so the
// ones we did not spawn ourselves (the accessibility bus launcher, the registry, an app's helper
// window) are found too. Processes are only ever ended by pid, never by name.
import { readFileSync, readdirSync } from 'node:fs';
import koffi from 'koffi';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Kernel state letter: R, S, D, Z (zombie), T (stopped)… */
  state: string;
  comm: string;
}

/** Reads /proc/<pid>/stat; null when the process is gone. */
export function processInfo(pid: number): ProcessInfo | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // comm sits in parentheses and may itself contain spaces or parentheses: split at the last ')'.
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  const rest = stat.slice(close + 2).split(' ');
  return { pid, comm: stat.slice(open + 1, close), state: rest[0], ppid: Number(rest[1]) };
}

/** Alive means present and not a zombie (a zombie runs nothing; it only waits for its parent). */
export function isRunning(pid: number): boolean {
  const info = processInfo(pid);
  return info !== null && info.state !== 'Z';
}

/** Pids whose environment holds `name=value`, excluding this process. */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = Buffer.from(`${name}=${value}\0`);
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${pid}/environ`);
      if (environ.includes(needle)) found.push(pid);
    } catch {
      // Gone meanwhile, or a kernel thread: not ours.
    }
  }
  return found;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** Waits until none of pids is running (zombies count as ended); returns the ones still running. */
export async function waitUntilEnded(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let running = pids.filter(isRunning);
  while (running.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    running = running.filter(isRunning);
  }
  return running;
}

/**
 * SIGTERM (resuming stopped ones with SIGCONT so they can act on it), then SIGKILL whatever is
 * still running after graceMs. Returns once they ended or after another second.
 */
export async function terminate(pids: number[], graceMs = 1500): Promise<void> {
  const alive = pids.filter(isRunning);
  if (!alive.length) return;
  for (const pid of alive) {
    signal(pid, 'SIGTERM');
    signal(pid, 'SIGCONT');
  }
  const stubborn = await waitUntilEnded(alive, graceMs);
  for (const pid of stubborn) signal(pid, 'SIGKILL');
  await waitUntilEnded(stubborn, 1000);
}

/** Synchronous last-resort kill for process 'exit' handlers, where nothing async runs. */
export function killNow(pids: number[]): void {
  for (const pid of pids) signal(pid, 'SIGKILL');
}

// — reaping —
// D-Bus activation double-forks (the accessibility bus launcher, the registry), so those
// processes are re-parented when their launcher exits. PID 1 in a container may never reap them:
// they would linger as zombies. Becoming a "child subreaper" makes them our children instead, and
// reapZombies() collects them. Only for pids Node did not spawn: waiting on one of Node's own
// children would steal its exit status from libuv.

const PR_SET_CHILD_SUBREAPER = 36;
const WNOHANG = 1;
let libc: { prctl: (...args: number[]) => number; waitpid: (pid: number, status: number[], options: number) => number } | null | undefined;

function loadLibc(): typeof libc {
  if (libc !== undefined) return libc;
  try {
    const lib = koffi.load('libc.so.6');
    libc = {
      prctl: lib.func('int prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4, unsigned long arg5)'),
      waitpid: lib.func('int waitpid(int pid, _Out_ int *status, int options)'),
    };
  } catch {
    libc = null;
  }
  return libc;
}

/** Makes orphaned descendants of this process re-parent to it. Returns whether it worked. */
export function becomeSubreaper(): boolean {
  const lib = loadLibc();
  return lib ? lib.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) === 0 : false;
}

/** Collects those of pids that are zombies re-parented to this process, except Node's own children. */
export function reapZombies(pids: number[], nodeChildren: Set<number>): void {
  const lib = loadLibc();
  if (!lib) return;
  for (const pid of pids) {
    if (nodeChildren.has(pid)) continue;
    const info = processInfo(pid);
    if (info?.state === 'Z' && info.ppid === process.pid) lib.waitpid(pid, [0], WNOHANG);
  }
}
