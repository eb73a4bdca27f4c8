// Which tree an acting call's answer hands out element indexes from, and the answer's indexes
// made to name elements of that tree. The diff's `+`/`~` lines are the after-tree's; the elements
// a `chosen:` or `typed_by:` line names were found in a tree read earlier in the call, so they
// are found again in the after-tree and given its index. The next call resolves its indexes
// against this same tree (SnapshotCache), so every index in the answer works there.

import type { ElementNode, TreeSnapshot } from '../model.js';
import type { ChoiceCandidate } from './result.js';
import { refind } from '../tree/elementIndex.js';
import type { CallState } from './callState.js';
import type { TreeDiff } from '../tree/diff.js';

/** The tree the answer's indexes belong to: the after-tree, else the newest tree the call read. */
export function handedOutTree(state: CallState): TreeSnapshot | null {
  if (state.appExited) return null;
  return state.after ?? state.current ?? null;
}

/**
 * Gives each candidate named in the answer its index in `tree` (none when it is gone from it).
 * Candidates still there under their own identity are placed first; a gone one is then not given,
 * by its role and text, an element another candidate already is: a dialog's "Save" that closed
 * with the click must not take the index of the toolbar's "Save" it was chosen over.
 */
export function reindexCandidates(state: CallState, tree: TreeSnapshot): void {
  const taken = new Set<ElementNode>();
  const byIdentity = new Map<ChoiceCandidate, ElementNode>();
  for (const [candidate, node] of state.candidateNodes) {
    const same = node.identity === undefined ? undefined : tree.elements.find((el) => el.identity === node.identity);
    if (same) {
      byIdentity.set(candidate, same);
      taken.add(same);
    }
  }
  for (const [candidate, node] of state.candidateNodes) {
    const found = byIdentity.get(candidate) ?? refind(tree.elements, node);
    if (found && (byIdentity.has(candidate) || !taken.has(found))) {
      candidate.index = found.index;
      taken.add(found);
    } else delete candidate.index;
  }
}

/** The elements a diff's `+` and `~` lines print with their `#N`. */
function printedBy(diff: TreeDiff | null): ElementNode[] {
  return diff ? [...diff.added, ...diff.changed.map((change) => change.after)] : [];
}

/**
 * The elements whose `#N` the answer prints (after reindexCandidates): its diff's, its candidates'
 * and its outside changes' (those carry the before-tree's index, as printed). The other indexes
 * of `tree` were not shown: an agent still holds them from an earlier answer.
 */
export function indexesShownIn(state: CallState, tree: TreeSnapshot): ElementNode[] {
  const shown = state.after === tree ? printedBy(state.diff) : [];
  for (const candidate of state.candidateNodes.keys()) {
    const node = candidate.index === undefined ? undefined : tree.elements.find((el) => el.index === candidate.index);
    if (node) shown.push(node);
  }
  return [...shown, ...printedBy(state.outsideChanges)];
}
