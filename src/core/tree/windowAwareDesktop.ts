// Every tree core reads is the tree a person sees: the backend's snapshot put among the
// desktop's windows and displays (windowFacts.ts) wherever a call reads one — before, during and
// after an action, for open and refresh, for scroll-into-view — without each reader asking.

import type { Desktop, SnapshotLimits } from '../desktop.js';
import type { Display, TreeSnapshot, WindowInfo } from '../model.js';
import type { Progress } from '../progress.js';
import { applyWindowFacts } from './windowFacts.js';

/** `desktop` whose snapshot() also reads the windows and displays (at the same time) and applies them. */
export function windowAwareDesktop(desktop: Desktop): Desktop {
  const snapshot = async (pid: number, limits: SnapshotLimits, progress: Progress): Promise<TreeSnapshot> => {
    // A desktop that cannot list its windows still gives its tree, as the backend reported it.
    const [tree, windows, displays] = await Promise.all([
      desktop.snapshot(pid, limits, progress),
      desktop.windows(undefined, progress).catch((): WindowInfo[] => []),
      desktop.displays(progress).catch((): Display[] => []),
    ]);
    return applyWindowFacts(tree, windows, displays);
  };
  return new Proxy(desktop, {
    get(target, key) {
      if (key === 'snapshot') return snapshot;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
