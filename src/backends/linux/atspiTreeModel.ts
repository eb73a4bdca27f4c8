// The pure half of a snapshot: turn Cache.GetItems entries (plus nodes fetched one by one) into
// an ordered tree, and flatten it in pre-order under the depth and count caps. No D-Bus here.

import type { TruncationReason } from '../../core/model.js';
import { IFACE, type CacheItem } from '../../../native/linux/atspiProtocol.js';
import { ROLE } from '../../../native/linux/atspiRoles.js';
import { STATE, hasState } from '../../../native/linux/atspiStates.js';

export interface RawNode {
  path: string;
  /** Parent path as the toolkit reported it (may be outside the cache). */
  parentPath: string | null;
  indexInParent: number;
  /** -1 when the toolkit does not say (GTK3 menus). */
  childCount: number;
  interfaces: string[];
  name: string;
  role: number;
  description: string;
  states: number[];
  children: RawNode[];
  /** Position in the source list, to keep a stable order among children of unknown index. */
  order: number;
  /** The bus connection of a node read from an embedded process (atspiEmbeds); absent: the app's own. */
  busName?: string;
}

export interface RawTree {
  root: RawNode;
  byPath: Map<string, RawNode>;
  /** Nodes whose parent is not in the cache (GTK3 stack pages): attached by reconciliation or dropped. */
  orphans: RawNode[];
}

export function nodeFromCacheItem(item: CacheItem, order: number): RawNode {
  const [self, , parent, indexInParent, childCount, interfaces, name, role, description, states] = item;
  return {
    path: self[1],
    parentPath: parent[1],
    indexInParent,
    childCount,
    interfaces,
    name,
    role,
    description,
    states,
    children: [],
    order,
  };
}

/** A root stand-in for toolkits whose cache leaves the application object out. */
export function syntheticRoot(path: string, name: string): RawNode {
  return {
    path,
    parentPath: null,
    indexInParent: -1,
    childCount: -1,
    interfaces: [IFACE.accessible, IFACE.application],
    name,
    role: ROLE.application,
    description: '',
    states: [],
    children: [],
    order: -1,
  };
}

/** Builds the tree of one application from its cache items (items of other bus names are ignored). */
export function assembleCacheTree(items: readonly CacheItem[], busName: string, rootPath: string, appName: string): RawTree {
  const byPath = new Map<string, RawNode>();
  items.forEach((item, order) => {
    if (item[0][0] !== busName && item[0][0] !== '') return;
    byPath.set(item[0][1], nodeFromCacheItem(item, order));
  });
  let root = byPath.get(rootPath);
  if (!root) {
    root = syntheticRoot(rootPath, appName);
    byPath.set(rootPath, root);
  }
  root.parentPath = null;
  const orphans: RawNode[] = [];
  for (const node of byPath.values()) {
    if (node === root) continue;
    const parent = node.parentPath === null ? undefined : byPath.get(node.parentPath);
    if (parent && parent !== node) parent.children.push(node);
    else orphans.push(node);
  }
  for (const node of byPath.values()) sortChildren(node);
  return { root, byPath, orphans };
}

/** Known index first (ascending), unknown (-1) after them in source order. */
export function sortChildren(node: RawNode): void {
  node.children.sort((a, b) => {
    const aKnown = a.indexInParent >= 0;
    const bKnown = b.indexInParent >= 0;
    if (aKnown && bKnown) return a.indexInParent - b.indexInParent || a.order - b.order;
    if (aKnown !== bKnown) return aKnown ? -1 : 1;
    return a.order - b.order;
  });
}

export function isShowing(node: RawNode): boolean {
  return hasState(node.states, STATE.showing);
}

export type ChildrenNeed = 'walk' | 'reorder' | null;

/**
 * Whether the cache's view of node's children needs a live look: `walk` for containers that
 * manage their descendants (GTK3 tree/list rows are never cached), `reorder` when the cached
 * children disagree with the child count or showing ones carry no index. Only showing nodes
 * are worth it.
 */
export function childrenNeed(node: RawNode): ChildrenNeed {
  if (!isShowing(node) && node.role !== ROLE.application) return null;
  if (hasState(node.states, STATE.managesDescendants)) return 'walk';
  if (node.childCount >= 0 && node.childCount !== node.children.length) return 'reorder';
  // Unindexed children (GTK3 menus) are only worth a round trip once they are on screen.
  if (node.children.some((child) => child.indexInParent < 0 && isShowing(child))) return 'reorder';
  return null;
}

/**
 * Puts node's children in the order of `paths` (a live GetChildren answer): nodes the tree
 * already has move here (from wherever the cache put them); unknown paths are returned so the
 * caller can fetch them.
 */
export function applyLiveChildren(tree: RawTree, node: RawNode, paths: readonly string[]): string[] {
  const missing: string[] = [];
  const ordered: RawNode[] = [];
  paths.forEach((path, index) => {
    const child = tree.byPath.get(path);
    if (!child || child === node || isAncestor(child, node, tree)) {
      if (!child) missing.push(path);
      return;
    }
    detach(tree, child);
    child.parentPath = node.path;
    child.indexInParent = index;
    ordered.push(child);
  });
  // Cached children the live answer did not list are kept after the listed ones.
  const listed = new Set(ordered);
  node.children = [...ordered, ...node.children.filter((child) => !listed.has(child))];
  return missing;
}

function detach(tree: RawTree, node: RawNode): void {
  const orphanAt = tree.orphans.indexOf(node);
  if (orphanAt >= 0) tree.orphans.splice(orphanAt, 1);
  const parent = node.parentPath === null ? undefined : tree.byPath.get(node.parentPath);
  if (parent) parent.children = parent.children.filter((child) => child !== node);
}

function isAncestor(candidate: RawNode, node: RawNode, tree: RawTree): boolean {
  let current: RawNode | undefined = node;
  for (let hops = 0; current && hops < 10_000; hops++) {
    if (current === candidate) return true;
    current = current.parentPath === null ? undefined : tree.byPath.get(current.parentPath);
  }
  return false;
}

/** Orphans still unclaimed: showing ones hang under the root (their real parent is hidden from us). */
export function adoptShowingOrphans(tree: RawTree): void {
  for (const orphan of tree.orphans) {
    if (isShowing(orphan)) tree.root.children.push(orphan);
  }
  tree.orphans = [];
}

export interface FlatNode {
  node: RawNode;
  index: number;
  parentIndex: number | null;
  depth: number;
}

export interface Flattened {
  nodes: FlatNode[];
  truncated?: { reason: TruncationReason; detail: string };
}

/** Pre-order flattening from the root (depth 0) with the depth and count caps. */
export function flattenTree(root: RawNode, maxDepth: number, maxElements: number): Flattened {
  const nodes: FlatNode[] = [];
  let cutByDepth = 0;
  let cutByCount = false;
  const seen = new Set<RawNode>();
  const stack: Array<{ node: RawNode; parentIndex: number | null; depth: number }> = [{ node: root, parentIndex: null, depth: 0 }];
  while (stack.length > 0) {
    const { node, parentIndex, depth } = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    if (nodes.length >= maxElements) {
      cutByCount = true;
      break;
    }
    const index = nodes.length;
    nodes.push({ node, index, parentIndex, depth });
    if (node.children.length === 0) continue;
    if (depth >= maxDepth) {
      cutByDepth += node.children.length;
      continue;
    }
    for (let i = node.children.length - 1; i >= 0; i--) {
      stack.push({ node: node.children[i], parentIndex: index, depth: depth + 1 });
    }
  }
  if (cutByCount) {
    return { nodes, truncated: { reason: 'count', detail: `stopped at ${maxElements} elements (maxElements)` } };
  }
  if (cutByDepth > 0) {
    return { nodes, truncated: { reason: 'depth', detail: `${cutByDepth} subtrees deeper than ${maxDepth} levels left out (maxDepth)` } };
  }
  return { nodes };
}
