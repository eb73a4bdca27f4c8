// Revisions: per app (pid), a number that grows whenever Tandem sees the app's tree differ from
// the last one it handed out, with the trees of the last few revisions kept so that what changed
// since a given revision can be told. "Differs" is a non-empty diff (tree/diff.ts): element
// indexes renumbered, coordinates moved, focus moved or hidden churn are not a change, because
// the agent would not act differently on them.

import type { ElementNode, TreeSnapshot } from '../model.js';
import { diffTrees, type TreeDiff } from '../tree/diff.js';
import { uncoveredBy } from '../tree/ownRaising.js';

/** Revisions kept per app: an if_revision older than these is answered as changed. */
export const KEPT_REVISIONS = 8;
/** Elements kept over all revisions of one app: a huge tree keeps fewer old revisions. */
export const KEPT_ELEMENTS_PER_APP = 200_000;
/** Apps whose revisions are kept (the least recently seen go first). */
export const KEPT_APPS = 64;

interface Revision {
  number: number;
  elements: readonly ElementNode[];
}

export function isEmptyDiff(diff: TreeDiff): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}

export class RevisionStore {
  /** Per pid, oldest revision first; a Map keeps the apps in the order they were last seen. */
  private readonly byPid = new Map<number, Revision[]>();
  /** Per pid, the windows of the app a call put back in front of it: their cover is Tandem's doing (tree/ownRaising.ts). */
  private readonly putBack = new Map<number, ReadonlySet<number>>();

  /** A call put the person's frontmost app back on top of `pid`: `windowIds` cover it now by Tandem's doing, not the app's. */
  notePutBack(pid: number, windowIds: ReadonlySet<number>): void {
    if (windowIds.size > 0) this.putBack.set(pid, windowIds);
    else this.putBack.delete(pid);
  }

  /** The diff between two trees of the app, visibility that only Tandem's putting back of another app changed left out. */
  private diff(pid: number, then: readonly ElementNode[], now: readonly ElementNode[]): TreeDiff {
    const ids = this.putBack.get(pid);
    return ids ? diffTrees(uncoveredBy(then, ids), uncoveredBy(now, ids)) : diffTrees(then, now);
  }

  /** What changed since the tree last handed out for the app (null: none handed out yet). */
  changedSinceLatest(pid: number, now: readonly ElementNode[]): TreeDiff | null {
    const last = this.latestTree(pid);
    return last ? this.diff(pid, last, now) : null;
  }

  /**
   * A tree Tandem hands out: its revision, a new one when it differs from the latest. The
   * latest revision's tree is replaced by this one either way, so the next diff is against the
   * tree (and element indexes) the agent saw last.
   */
  handOut(tree: TreeSnapshot): number {
    const kept = this.byPid.get(tree.pid) ?? [];
    this.byPid.delete(tree.pid);
    this.byPid.set(tree.pid, kept);
    const latest = kept.at(-1);
    if (latest && isEmptyDiff(this.diff(tree.pid, latest.elements, tree.elements))) {
      latest.elements = tree.elements;
    } else {
      kept.push({ number: (latest?.number ?? 0) + 1, elements: tree.elements });
    }
    this.trim(kept);
    if (this.byPid.size > KEPT_APPS) {
      const oldest = this.byPid.keys().next().value as number;
      this.byPid.delete(oldest);
      this.putBack.delete(oldest);
    }
    return kept.at(-1)!.number;
  }

  /** The app's current revision (0: no tree of it handed out yet). */
  current(pid: number): number {
    return this.byPid.get(pid)?.at(-1)?.number ?? 0;
  }

  /** The tree last handed out for the app, if any. */
  latestTree(pid: number): readonly ElementNode[] | undefined {
    return this.byPid.get(pid)?.at(-1)?.elements;
  }

  /** The tree of that revision, while it is kept. */
  treeOf(pid: number, revision: number): readonly ElementNode[] | undefined {
    return this.byPid.get(pid)?.find((kept) => kept.number === revision)?.elements;
  }

  /** What changed from that revision to `now`; null when the revision is unknown or no longer kept. */
  diffSince(pid: number, revision: number, now: readonly ElementNode[]): TreeDiff | null {
    const then = this.treeOf(pid, revision);
    return then ? this.diff(pid, then, now) : null;
  }

  private trim(kept: Revision[]): void {
    while (kept.length > KEPT_REVISIONS) kept.shift();
    let elements = kept.reduce((sum, kept) => sum + kept.elements.length, 0);
    while (kept.length > 1 && elements > KEPT_ELEMENTS_PER_APP) elements -= kept.shift()!.elements.length;
  }
}
