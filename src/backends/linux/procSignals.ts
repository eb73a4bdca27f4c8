// kill_app's process primitives on Linux: whether a pid runs and who its parent is, from
// /proc/<pid>/stat, and the two signals `force` sends. A zombie (state Z) or a process being
// reaped (X) has exited: its windows are gone and its work with them; only its parent's wait is due.

import { readFile } from 'node:fs/promises';
import type { ProcessState } from '../../core/desktop.js';

export function parseProcessState(stat: string): ProcessState {
  const close = stat.lastIndexOf(')');
  if (close < 0) return { running: false, parentPid: null };
  // After the name: state, ppid, … (the name may hold spaces and parentheses).
  const [state, ppid] = stat.slice(close + 2).split(' ');
  const parent = Number(ppid);
  return { running: state !== 'Z' && state !== 'X' && state !== 'x', parentPid: Number.isInteger(parent) && parent > 0 ? parent : null };
}

export async function processState(pid: number): Promise<ProcessState> {
  try {
    return parseProcessState(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return { running: false, parentPid: null };
  }
}

/** SIGTERM or SIGKILL; a process already gone is not an error (it is what was asked). */
export async function signalProcess(pid: number, signal: 'terminate' | 'kill'): Promise<void> {
  try {
    process.kill(pid, signal === 'terminate' ? 'SIGTERM' : 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
