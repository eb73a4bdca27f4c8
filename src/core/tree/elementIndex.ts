// The element index: element_index values refer to the latest tree the model was given for a
// pid. Before acting, the indexed element is looked up again in a fresh tree; if it cannot be
// re-found the index is stale and the model must refresh instead of clicking the wrong thing.

import { TandemError, isTandemError } from '../errors.js';
import type { ElementNode, TreeSnapshot } from '../model.js';
import { findElement } from './query.js';
import type { ElementQuery } from '../call/steps.js';

/** The latest snapshot handed out per pid (from open, refresh or an action's "after" tree). */
export class SnapshotCache {
  private readonly byPid = new Map<number, TreeSnapshot>();

  get(pid: number): TreeSnapshot | undefined {
    return this.byPid.get(pid);
  }

  set(snapshot: TreeSnapshot): void {
    this.byPid.set(snapshot.pid, snapshot);
  }

  delete(pid: number): void {
    this.byPid.delete(pid);
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
  const found = refind(fresh.elements, cached);
  if (!found) throw staleIndexError(query.index);
  return found;
}
