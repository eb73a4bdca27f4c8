// The element index: element_index values refer to the latest tree the model was given for a
// pid. Before acting, the indexed element is looked up again in a fresh tree; if it cannot be
// re-found the index is stale and the model must refresh instead of clicking the wrong thing.

import { TandemError, isTandemError } from '../errors.js';
import type { ElementNode, TreeSnapshot } from '../model.js';
import { findElement } from './query.js';
import { IndexesShown, isIn, looksAlike, type ShownElement } from './indexesShown.js';
import { formatElementLabel } from './treeFormat.js';
import type { ElementQuery } from '../call/steps.js';

/** The latest snapshot handed out per pid (from open, refresh or an action's "after" tree). */
export class SnapshotCache {
  private readonly byPid = new Map<number, TreeSnapshot>();
  /** What each index named when an answer last showed it (an index may be older than this tree). */
  readonly shown = new IndexesShown();

  get(pid: number): TreeSnapshot | undefined {
    return this.byPid.get(pid);
  }

  /** `shown`: the elements whose `#N` the answer prints, when it does not show the whole tree. */
  set(snapshot: TreeSnapshot, shown?: readonly ElementNode[]): void {
    this.byPid.set(snapshot.pid, snapshot);
    this.shown.handOut(snapshot, shown);
  }

  delete(pid: number): void {
    this.byPid.delete(pid);
    this.shown.delete(pid);
  }
}

/**
 * `wanted` (from an older snapshot) in `elements`: by backend identity, else by role and text
 * (the candidate nearest its old index when several share both). Null when it is gone.
 */
export function refind(elements: readonly ElementNode[], wanted: ElementNode): ElementNode | null {
  if (wanted.identity !== undefined) {
    const same = elements.find((el) => el.identity === wanted.identity);
    if (same) return same;
  }
  // Role+text is a weaker match: an element without text cannot be told apart from its siblings.
  if (wanted.text === '' && wanted.identity !== undefined) return null;
  const candidates = elements.filter((el) => el.role === wanted.role && el.text === wanted.text);
  if (candidates.length === 0) return null;
  return candidates.reduce((best, el) => (Math.abs(el.index - wanted.index) < Math.abs(best.index - wanted.index) ? el : best));
}

export function staleIndexError(index: number): TandemError {
  return new TandemError('stale-element', `element_index ${index} is stale: the element it named is no longer in the tree.`, { index });
}

/**
 * The element a query with element_index designates, found again in `fresh`. Throws
 * 'stale-element' when the index does not name that element any more, 'bad-input' when no tree
 * of the pid was handed out yet.
 */
export function resolveIndexed(cache: SnapshotCache, fresh: TreeSnapshot, query: ElementQuery & { index: number }): ElementNode {
  const last = cache.get(fresh.pid);
  if (!last) {
    throw new TandemError(
      'bad-input',
      `No tree of pid ${fresh.pid} has been returned yet, so element_index ${query.index} names nothing.`,
      { reason: 'no-tree', index: query.index },
    );
  }
  let cached: ElementNode;
  try {
    cached = findElement(last.elements, query);
  } catch (error) {
    if (isTandemError(error, 'stale-element')) throw staleIndexError(query.index);
    throw error;
  }
  const found = refind(fresh.elements, meantBy(cache, last, fresh, query.index, cached));
  if (!found) throw staleIndexError(query.index);
  return found;
}

/**
 * The element the agent means by `index`: the one an answer last showed under it, while it is
 * still there (an action may have moved it to another index without printing that); the one the
 * index names now when no answer showed another, or a rebuilt element that looks the same.
 * Throws 'stale-element' when the element shown is gone and the index names one that looks otherwise.
 */
function meantBy(cache: SnapshotCache, last: TreeSnapshot, fresh: TreeSnapshot, index: number, now: ElementNode): ElementNode {
  const seen: ShownElement | undefined = cache.shown.at(fresh.pid, index);
  if (!seen || seen.node === now) return now;
  if (!seen.gone || isIn(fresh, seen.node)) return seen.node;
  if (looksAlike(seen.node, now)) return now;
  throw reusedIndexError(cache, last, fresh, index, seen.node, now);
}

/**
 * 'stale-element' (reason 'reused') for an index whose element is gone while the index was given
 * to another: what it named, what it names now and, when exactly one element of the tree looks
 * like the gone one, that element's index. The answer shows both, so they work in the next call.
 */
function reusedIndexError(cache: SnapshotCache, last: TreeSnapshot, fresh: TreeSnapshot, index: number, was: ElementNode, now: ElementNode): TandemError {
  const alike = last.elements.filter((el) => looksAlike(el, was) && refind(fresh.elements, el) !== null);
  const instead = alike.length === 1 ? alike[0] : undefined;
  cache.shown.show(fresh.pid, instead ? [now, instead] : [now]);
  const insteadText = instead ? ` The one that looks like it now is element_index ${instead.index}.` : '';
  return new TandemError(
    'stale-element',
    `element_index ${index} named ${formatElementLabel(was)} when it was last shown; that element is gone and ${index} now names ${formatElementLabel(now)}.${insteadText}`,
    { reason: 'reused', index, was: formatElementLabel(was), now: formatElementLabel(now), ...(instead ? { instead: instead.index } : {}) },
  );
}
