// Every tree core reads is the tree a person sees: the backend's snapshot put among the
// desktop's windows and displays it was read with (windowFacts.ts), wherever a call reads one —
// before, during and after an action, for open and refresh, for scroll-into-view — without each
// reader having to remember it.

import type { Desktop, SnapshotLimits } from '../desktop.js';
import type { TreeSnapshot } from '../model.js';
import type { Progress } from '../progress.js';
import { applyWindowFacts } from './windowFacts.js';

/** `desktop` whose snapshot() applies the windows and displays read with it. */
export function windowAwareDesktop(desktop: Desktop): Desktop {
  const snapshot = async (pid: number, limits: SnapshotLimits, progress: Progress): Promise<TreeSnapshot> => {
    const tree = await desktop.snapshot(pid, limits, progress);
    return tree.windows || tree.displays ? applyWindowFacts(tree, tree.windows ?? [], tree.displays ?? []) : tree;
  };
  return new Proxy(desktop, {
    get(target, key) {
      if (key === 'snapshot') return snapshot;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
