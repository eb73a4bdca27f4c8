// "Which processes did this one start since then?": the process-tree search both backends need
// to find what an action launched (settle.ts waitForLaunches). Written once here over a snapshot
// of the process table; the backends only read that table (Linux /proc, macOS libproc).

/** One row of the process table: who started it and when. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Start time, epoch milliseconds. */
  startMs: number;
}

/** Descendants of `root` (not root itself) among `processes`, in breadth-first order. */
export function descendantsOf<T extends Pick<ProcessEntry, 'pid' | 'ppid'>>(root: number, processes: readonly T[]): T[] {
  const children = new Map<number, T[]>();
  for (const proc of processes) {
    const siblings = children.get(proc.ppid);
    if (siblings) siblings.push(proc);
    else children.set(proc.ppid, [proc]);
  }
  const found: T[] = [];
  const queue = [root];
  const seen = new Set(queue);
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/**
 * Descendants of `root` started at or after sinceMs, breadth-first. A descendant started earlier
 * still leads to its own young children (a long-running helper that forks for the action).
 */
export function descendantsStartedSince<T extends ProcessEntry>(root: number, processes: readonly T[], sinceMs: number): T[] {
  return descendantsOf(root, processes).filter((proc) => proc.startMs >= sinceMs);
}
