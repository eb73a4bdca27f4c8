// What each element_index named when an answer last showed it to the agent, per pid. A whole
// tree handed out (a read) shows every index; an action's answer shows only the indexes its lines
// print (diff `+`/`~` lines, chosen:, typed_by:). An index the agent still holds from an earlier
// answer keeps naming the element it saw there: when that element is gone and the index now
// belongs to another element, a call by that index would silently act on something else, so it is
// refused (elementIndex.resolveIndexed) instead.

import type { ElementNode, TreeSnapshot } from '../model.js';

export interface ShownElement {
  /** The element as the agent last saw it under this index, or its node in the latest tree handed out. */
  node: ElementNode;
  /** Not in the latest tree handed out (by identity; by role and text where the backend gives none). */
  gone: boolean;
}

/** `node` in `tree`: by backend identity only when it has one (a rebuilt element is another element). */
function sameIn(tree: TreeSnapshot, node: ElementNode): ElementNode | null {
  if (node.identity !== undefined) return tree.elements.find((el) => el.identity === node.identity) ?? null;
  return tree.elements.find((el) => el.identity === undefined && looksAlike(el, node)) ?? null;
}

/** Whether `node` is in `tree` (as sameIn tells). */
export function isIn(tree: TreeSnapshot, node: ElementNode): boolean {
  return sameIn(tree, node) !== null;
}

function placeIn(tree: TreeSnapshot, node: ElementNode): ShownElement {
  const same = sameIn(tree, node);
  return same ? { node: same, gone: false } : { node, gone: true };
}

/** Role and text: what the agent was told the element is. */
export function looksAlike(a: ElementNode, b: ElementNode): boolean {
  return a.role === b.role && a.text === b.text;
}

export class IndexesShown {
  private readonly byPid = new Map<number, Map<number, ShownElement>>();

  /**
   * `tree` is handed out. `shown` undefined: every index of it was shown (a whole tree). Else
   * only these elements' `#N` were printed (each under its own `index`); the other indexes keep
   * naming what they named before, now found in `tree` or marked gone.
   */
  handOut(tree: TreeSnapshot, shown?: readonly ElementNode[]): void {
    if (shown === undefined) {
      this.byPid.set(tree.pid, new Map(tree.elements.map((el) => [el.index, { node: el, gone: false }])));
      return;
    }
    const before = this.byPid.get(tree.pid) ?? new Map<number, ShownElement>();
    const now = new Map<number, ShownElement>();
    for (const [index, seen] of before) now.set(index, placeIn(tree, seen.node));
    for (const node of shown) now.set(node.index, placeIn(tree, node));
    this.byPid.set(tree.pid, now);
  }

  /** An answer printed these elements' `#N` (of the latest tree handed out) without handing out a tree. */
  show(pid: number, nodes: readonly ElementNode[]): void {
    const known = this.byPid.get(pid);
    if (!known) return;
    for (const node of nodes) known.set(node.index, { node, gone: false });
  }

  /** What `index` named when an answer last showed it; undefined when none did. */
  at(pid: number, index: number): ShownElement | undefined {
    return this.byPid.get(pid)?.get(index);
  }

  delete(pid: number): void {
    this.byPid.delete(pid);
  }
}
