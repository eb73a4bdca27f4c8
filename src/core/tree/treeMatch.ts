// Pairs the elements of two snapshots of one app: which element of the new tree is which element
// of the old one. diff.ts turns the pairs into `+`/`-`/`~` lines; this file only pairs, and never
// quadratically (walks, hash maps and bounded windows):
//   1. unchanged elements (same role, text, geometry and identity) by walking both lists in
//      document order, stepping over short inserted/removed/renamed runs: most of the tree
//      after a typical action, without hashing;
//   2. by backend identity (AT-SPI object path, AX element hash) when both sides have one and the
//      role agrees;
//   3. elements with text: by role + text + rounded geometry (unchanged), then by role + text +
//      geometry shifted by a displacement that many unique labels agree on (a block that scrolled
//      or was pushed down), then by role + text alone (moved);
//   4. text-less elements (rows, cells, panels): a parent follows its paired child when role and
//      text agree; children of paired parents pair by role in document order; then the same
//      keys as in 3 (with the same block shifts) for what is left;
//   5. renames among what is left: same role under the same paired parent within a bounded
//      window in document order, near where the parent moved; then same role with centres within
//      64 points of where the element was or where a block shift took it (a coarse grid).
// A secure element's text counts as empty (displayText), so its value never decides anything.

import { hashInts, LabelTable, MatchSide, placedHash } from './matchSide.js';
import type { ElementNode } from '../model.js';
import { displayText } from './treeFormat.js';

/** Window (in document order, each side) searched for a rename partner under the same parent. */
const SIBLING_WINDOW = 8;
/** Grid cell (points) for the spatial rename pass; neighbours of the cell are searched too. */
const GRID_CELL = 128;
/** Max centre distance (points) for two elements to count as "the same place". */
const NEAR_DISTANCE = 64;
/** Max candidates looked at per element in the spatial pass (keeps crowded cells linear). */
const MAX_SPATIAL_CANDIDATES = 32;

/** A displacement in points (how far a block of elements moved). */
type Shift = { dx: number; dy: number };

/** Multimap of key → positions in document order, consumed from the front. */
class Queues<K> {
  private readonly map = new Map<K, { list: number[]; head: number }>();

  add(key: K, pos: number): void {
    const entry = this.map.get(key);
    if (entry) entry.list.push(pos);
    else this.map.set(key, { list: [pos], head: 0 });
  }

  /** First position under `key` that is free and `accepts` (checks hash collisions), or -1. */
  take(key: K, isFree: (pos: number) => boolean, accepts: (pos: number) => boolean): number {
    const entry = this.map.get(key);
    if (!entry) return -1;
    const { list } = entry;
    while (entry.head < list.length && !isFree(list[entry.head])) entry.head++;
    for (let k = entry.head; k < list.length; k++) {
      const pos = list[k];
      if (!isFree(pos) || !accepts(pos)) continue;
      if (k === entry.head) entry.head++;
      return pos;
    }
    return -1;
  }
}

type KeyOf<K> = (side: MatchSide, pos: number) => K | null;

/**
 * Pairs unpaired `before` elements with unpaired `after` elements whose keys are equal (first
 * come, first paired) and that `same(i, j)` accepts.
 */
function pairByKey<K>(before: MatchSide, after: MatchSide, keyBefore: KeyOf<K>, keyAfter: KeyOf<K>, same: (i: number, j: number) => boolean): void {
  const queues = new Queues<K>();
  for (const j of after.unpaired()) {
    if (after.pair[j] >= 0) continue;
    const key = keyAfter(after, j);
    if (key !== null) queues.add(key, j);
  }
  const isFree = (j: number): boolean => after.pair[j] < 0;
  for (const i of before.unpaired()) {
    if (before.pair[i] >= 0) continue;
    const key = keyBefore(before, i);
    if (key === null) continue;
    const j = queues.take(key, isFree, (candidate) => same(i, candidate));
    if (j >= 0) link(before, after, i, j);
  }
}

/** Identity, where a backend gives one, must agree (pass 1 trusts it over everything else). */
function sameIdentity(before: MatchSide, after: MatchSide, i: number, j: number): boolean {
  return before.elements[i].identity === after.elements[j].identity;
}

/** How far pass 1 looks ahead, on each side, to step over an inserted, removed or changed run. */
const STEP_LOOKAHEAD = 8;

/**
 * Pass 1: walks both lists in document order pairing elements that did not change at all (same
 * role, text, rounded geometry and identity) — most of a tree after a typical action — without
 * any hashing. At a difference it looks up to STEP_LOOKAHEAD elements ahead for the next
 * unchanged pair (something inserted, removed or renamed in place) and carries on from there; it
 * stops where nothing lines up (a moved block), leaving the rest to the keyed passes. Then the
 * unchanged suffix is walked backwards.
 */
function pairInStep(before: MatchSide, after: MatchSide): void {
  const n = before.elements.length;
  const m = after.elements.length;
  const unchanged = (i: number, j: number): boolean => {
    if (i >= n || j >= m || before.pair[i] >= 0 || after.pair[j] >= 0) return false;
    if (!samePlace(before, after, i, j) || !sameIdentity(before, after, i, j)) return false;
    // A text-less element (an empty row) only counts as unchanged when what follows agrees too:
    // rows moving up by one make an empty row look exactly like its neighbour.
    if (before.isTextless(i) && i + 1 < n && j + 1 < m) return samePlace(before, after, i + 1, j + 1);
    return true;
  };
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (unchanged(i, j)) {
      link(before, after, i, j);
      i++;
      j++;
      continue;
    }
    let resumed = false;
    for (let d = 1; d <= STEP_LOOKAHEAD && !resumed; d++) {
      if (unchanged(i + d, j + d)) [i, j, resumed] = [i + d, j + d, true]; // d elements changed in place
      else if (unchanged(i + d, j)) [i, resumed] = [i + d, true]; // d elements removed
      else if (unchanged(i, j + d)) [j, resumed] = [j + d, true]; // d elements inserted
    }
    if (!resumed) break;
  }
  let bi = n - 1;
  let aj = m - 1;
  while (bi >= 0 && aj >= 0 && before.pair[bi] < 0 && after.pair[aj] < 0 && samePlace(before, after, bi, aj) && sameIdentity(before, after, bi, aj)) {
    link(before, after, bi, aj);
    bi--;
    aj--;
  }
}

/**
 * Pass 4a: an unpaired element whose child is paired takes the partner's parent as its own
 * partner when both are free and have the same role and text. Walking in reverse document order
 * visits children before parents, so pairs climb up: cells pair their rows, rows their table.
 */
function pairParentsOfPairs(before: MatchSide, after: MatchSide): void {
  for (let i = before.elements.length - 1; i >= 0; i--) {
    const j = before.pair[i];
    if (j < 0) continue;
    const parent = before.parentPos[i];
    const partnerParent = after.parentPos[j];
    if (parent < 0 || partnerParent < 0 || before.pair[parent] >= 0 || after.pair[partnerParent] >= 0) continue;
    if (before.labelOf(parent) === after.labelOf(partnerParent)) link(before, after, parent, partnerParent);
  }
}

/**
 * Pass 4b: under paired parents, text-less children pair in document order with the partner's
 * children of the same role (the third empty cell of a row with the third empty cell of its
 * partner row). Parents come first in document order, so pairs also flow downwards.
 */
function pairChildrenOfPairs(before: MatchSide, after: MatchSide): void {
  const SALT = -7; // keeps these hashes apart from placedHash ones (not required, just tidy)
  pairByKey(
    before,
    after,
    (side, pos) => {
      const parent = side.parentPos[pos];
      if (!side.isTextless(pos) || parent < 0 || side.pair[parent] < 0) return null;
      return hashInts(side.labelOf(pos), side.pair[parent], SALT, SALT, SALT);
    },
    (side, pos) => {
      const parent = side.parentPos[pos];
      if (!side.isTextless(pos) || parent < 0) return null;
      return hashInts(side.labelOf(pos), parent, SALT, SALT, SALT);
    },
    (i, j) => before.labelOf(i) === after.labelOf(j) && before.pair[before.parentPos[i]] === after.parentPos[j],
  );
}

/** Same role and text (secure text blanked), compared as strings: no interning needed. */
function sameLabel(before: MatchSide, after: MatchSide, i: number, j: number): boolean {
  const x = before.elements[i];
  const y = after.elements[j];
  return x.role === y.role && displayText(x) === displayText(y);
}

/** Same label and the same rounded geometry once `before` is moved by (dx, dy). */
function samePlace(before: MatchSide, after: MatchSide, i: number, j: number, dx = 0, dy = 0): boolean {
  if (before.hasBounds[i] !== after.hasBounds[j] || !sameLabel(before, after, i, j)) return false;
  if (!before.hasBounds[i]) return true;
  return before.x[i] + dx === after.x[j] && before.y[i] + dy === after.y[j] && before.w[i] === after.w[j] && before.h[i] === after.h[j];
}

/** Displacements tried by the shift pass, most common first. */
const MAX_SHIFTS = 3;

/**
 * Pass 3b: content that moved as a block (scrolled, or pushed down by something inserted above).
 * Labels left exactly once on each side vote for their displacement; for the most voted ones,
 * elements are paired by label + geometry shifted by it. This keeps duplicates (text-less rows,
 * repeated dates) paired with their true partner instead of the next one in document order.
 */
function blockShifts(before: MatchSide, after: MatchSide): Shift[] {
  const single = new Map<number, { b: number; a: number }>(); // -2 = more than one
  for (const i of before.unpaired()) {
    if (before.pair[i] >= 0 || !before.hasBounds[i]) continue;
    const entry = single.get(before.labelOf(i));
    if (entry) entry.b = -2;
    else single.set(before.labelOf(i), { b: i, a: -1 });
  }
  for (const j of after.unpaired()) {
    if (after.pair[j] >= 0 || !after.hasBounds[j]) continue;
    const entry = single.get(after.labelOf(j));
    if (entry) entry.a = entry.a === -1 ? j : -2;
  }
  const votes = new Map<string, number>();
  for (const { b, a } of single.values()) {
    if (b < 0 || a < 0 || before.w[b] !== after.w[a] || before.h[b] !== after.h[a]) continue;
    const shift = `${after.x[a] - before.x[b]},${after.y[a] - before.y[b]}`;
    votes.set(shift, (votes.get(shift) ?? 0) + 1);
  }
  return [...votes.entries()]
    .filter(([, count]) => count >= 2)
    .sort((p, q) => q[1] - p[1])
    .slice(0, MAX_SHIFTS)
    .map(([shift]) => {
      const [dx, dy] = shift.split(',').map(Number);
      return { dx, dy };
    });
}

/** Pairs eligible elements by label + geometry moved by one of `shifts`, most voted first. */
function pairByShift(before: MatchSide, after: MatchSide, shifts: readonly Shift[], eligible: (side: MatchSide, pos: number) => boolean): void {
  for (const { dx, dy } of shifts) {
    pairByKey(
      before,
      after,
      (side, pos) => (eligible(side, pos) ? placedHash(side, pos, dx, dy) : null),
      (side, pos) => (eligible(side, pos) ? placedHash(side, pos) : null),
      (i, j) => samePlace(before, after, i, j, dx, dy),
    );
  }
}

function link(before: MatchSide, after: MatchSide, i: number, j: number): void {
  before.pair[i] = j;
  after.pair[j] = i;
}

/**
 * Distance between the centres of before[i] moved by `shift` and after[j], used to rank rename
 * partners; Infinity when they are not near each other, or when the backend says they are two
 * different elements (both carry an identity and they differ: a list scrolled by one row puts a
 * new row where the old one was, which is not a rename). Two elements without bounds are at 0
 * (the caller relies on parent and order then).
 */
function nearness(before: MatchSide, after: MatchSide, i: number, j: number, shift: Shift): number {
  const was = before.elements[i].identity;
  const now = after.elements[j].identity;
  if (was !== undefined && now !== undefined && was !== now) return Infinity;
  if (!before.hasBounds[i] || !after.hasBounds[j]) return before.hasBounds[i] || after.hasBounds[j] ? Infinity : 0;
  const ddx = after.x[j] + after.w[j] / 2 - (before.x[i] + before.w[i] / 2 + shift.dx);
  const ddy = after.y[j] + after.h[j] / 2 - (before.y[i] + before.h[i] / 2 + shift.dy);
  const d = Math.hypot(ddx, ddy);
  return d <= NEAR_DISTANCE ? d : Infinity;
}

const NO_SHIFT: Shift = { dx: 0, dy: 0 };

/** How far before[i]'s parent moved (to its partner), so children are compared where they went. */
function parentShift(before: MatchSide, after: MatchSide, i: number): Shift {
  const parent = before.parentPos[i];
  const partner = parent >= 0 ? before.pair[parent] : -1;
  if (partner < 0 || !before.hasBounds[parent] || !after.hasBounds[partner]) return NO_SHIFT;
  return { dx: after.x[partner] - before.x[parent], dy: after.y[partner] - before.y[parent] };
}

/** Pass 5a: same role under the same (paired) parent, a bounded window in document order. */
function pairSiblings(before: MatchSide, after: MatchSide): void {
  const buckets = new Map<string, { b: number[]; a: number[] }>();
  const bucket = (key: string): { b: number[]; a: number[] } => {
    let entry = buckets.get(key);
    if (!entry) buckets.set(key, (entry = { b: [], a: [] }));
    return entry;
  };
  for (const i of before.unpaired()) {
    if (before.pair[i] >= 0) continue;
    const parent = before.parentPos[i];
    const parentPair = parent >= 0 ? before.pair[parent] : -2;
    if (parent >= 0 && parentPair < 0) continue; // parent itself unpaired: no shared anchor
    bucket(`${before.elements[i].role}\u0000${parentPair}`).b.push(i);
  }
  for (const j of after.unpaired()) {
    if (after.pair[j] >= 0) continue;
    const parent = after.parentPos[j];
    const parentKey = parent >= 0 ? parent : -2;
    if (parent >= 0 && after.pair[parent] < 0) continue;
    const entry = buckets.get(`${after.elements[j].role}\u0000${parentKey}`);
    if (entry) entry.a.push(j);
  }
  for (const { b, a } of buckets.values()) {
    if (!a.length) continue;
    for (let r = 0; r < b.length; r++) {
      const i = b[r];
      const shift = parentShift(before, after, i);
      let best = -1;
      let bestScore = Infinity;
      const from = Math.max(0, r - SIBLING_WINDOW);
      const to = Math.min(a.length - 1, r + SIBLING_WINDOW);
      for (let k = from; k <= to; k++) {
        const j = a[k];
        if (after.pair[j] >= 0) continue;
        const score = nearness(before, after, i, j, shift) + Math.abs(k - r) * 1e-3;
        if (score < bestScore) {
          bestScore = score;
          best = j;
        }
      }
      if (best >= 0 && bestScore < Infinity) link(before, after, i, best);
    }
  }
}

/**
 * Pass 5b: same role, centres within NEAR_DISTANCE where the element stayed or where one of the
 * block shifts took it, found through a coarse spatial grid.
 */
function pairByPosition(before: MatchSide, after: MatchSide, shifts: readonly Shift[]): void {
  const grid = new Map<string, number[]>();
  const cellKey = (role: string, gx: number, gy: number): string => `${role}\u0000${gx}\u0000${gy}`;
  for (const j of after.unpaired()) {
    if (after.pair[j] >= 0 || !after.hasBounds[j]) continue;
    const cx = after.x[j] + after.w[j] / 2;
    const cy = after.y[j] + after.h[j] / 2;
    const key = cellKey(after.elements[j].role, Math.floor(cx / GRID_CELL), Math.floor(cy / GRID_CELL));
    const list = grid.get(key);
    if (list) list.push(j);
    else grid.set(key, [j]);
  }
  if (!grid.size) return;
  const offsets = [NO_SHIFT, ...shifts];
  for (const i of before.unpaired()) {
    if (before.pair[i] >= 0 || !before.hasBounds[i]) continue;
    const role = before.elements[i].role;
    let best = -1;
    let bestDistance = Infinity;
    let looked = 0;
    for (const shift of offsets) {
      const gx = Math.floor((before.x[i] + before.w[i] / 2 + shift.dx) / GRID_CELL);
      const gy = Math.floor((before.y[i] + before.h[i] / 2 + shift.dy) / GRID_CELL);
      for (let ox = -1; ox <= 1; ox++) {
        for (let oy = -1; oy <= 1; oy++) {
          const list = grid.get(cellKey(role, gx + ox, gy + oy));
          if (!list) continue;
          for (const j of list) {
            if (after.pair[j] >= 0) continue;
            if (++looked > MAX_SPATIAL_CANDIDATES) break;
            const d = nearness(before, after, i, j, shift);
            if (d < bestDistance) {
              bestDistance = d;
              best = j;
            }
          }
        }
      }
      if (best >= 0) break; // the element stayed put (or moved with the first block): done
    }
    if (best >= 0) link(before, after, i, best);
  }
}

/** Pairs `before` with `after`; each side's `pair` array then holds its partner's position or -1. */
export function matchTrees(before: readonly ElementNode[], after: readonly ElementNode[]): { before: MatchSide; after: MatchSide } {
  const labels = new LabelTable();
  const b = new MatchSide(before, labels);
  const a = new MatchSide(after, labels);

  pairInStep(b, a);
  if (before.some((el) => el.identity) && after.some((el) => el.identity)) {
    const identityKey = (side: MatchSide, pos: number): string | null => side.elements[pos].identity ?? null;
    pairByKey(b, a, identityKey, identityKey, (i, j) => before[i].role === after[j].role);
  }
  // Elements with text first: their text tells duplicates apart far better than position.
  const withText = (side: MatchSide, pos: number): boolean => !side.isTextless(pos);
  const placed = (side: MatchSide, pos: number): number | null => (withText(side, pos) ? placedHash(side, pos) : null);
  pairByKey(b, a, placed, placed, (i, j) => samePlace(b, a, i, j));
  const shifts = blockShifts(b, a);
  pairByShift(b, a, shifts, withText);
  const labelKey = (side: MatchSide, pos: number): number | null => (withText(side, pos) ? side.labelOf(pos) : null);
  pairByKey(b, a, labelKey, labelKey, () => true);
  // Then text-less containers (rows, panels…) follow what their children did.
  pairParentsOfPairs(b, a);
  pairChildrenOfPairs(b, a);
  pairByKey(b, a, placedHash, placedHash, (i, j) => samePlace(b, a, i, j));
  pairByShift(b, a, shifts, () => true);
  const anyLabel = (side: MatchSide, pos: number): number => side.labelOf(pos);
  pairByKey(b, a, anyLabel, anyLabel, () => true);
  pairSiblings(b, a);
  pairByPosition(b, a, shifts);

  return { before: b, after: a };
}
