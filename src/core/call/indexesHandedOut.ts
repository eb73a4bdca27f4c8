// Which tree an acting call's answer hands out element indexes from, and the answer's indexes
// made to name elements of that tree. The diff's `+`/`~` lines are the after-tree's; the elements
// a `chosen:` or `typed_by:` line names were found in a tree read earlier in the call, so they
// are found again in the after-tree and given its index. The next call resolves its indexes
// against this same tree (SnapshotCache), so every index in the answer works there.

import type { TreeSnapshot } from '../model.js';
import { refind } from '../tree/elementIndex.js';
import type { CallState } from './callState.js';

/** The tree the answer's indexes belong to: the after-tree, else the newest tree the call read. */
export function handedOutTree(state: CallState): TreeSnapshot | null {
  if (state.appExited) return null;
  return state.after ?? state.current ?? null;
}

/** Gives each candidate named in the answer its index in `tree` (none when it is gone from it). */
export function reindexCandidates(state: CallState, tree: TreeSnapshot): void {
  for (const [candidate, node] of state.candidateNodes) {
    const found = refind(tree.elements, node);
    if (found) candidate.index = found.index;
    else delete candidate.index;
  }
}
