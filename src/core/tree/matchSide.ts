// One snapshot's side of the tree matching (treeMatch.ts): its lookups built once in O(n) —
// parents, rounded geometry, interned labels, what is still unpaired — and the hashes the
// matching passes key on.

import type { ElementNode } from '../model.js';
import { displayText } from './treeFormat.js';

/** Interns role + text pairs as small integers shared by both snapshots (no string building). */
export class LabelTable {
  private readonly byRole = new Map<string, Map<string, number>>();
  private next = 0;

  id(role: string, text: string): number {
    let texts = this.byRole.get(role);
    if (!texts) this.byRole.set(role, (texts = new Map()));
    let id = texts.get(text);
    if (id === undefined) texts.set(text, (id = this.next++));
    return id;
  }
}

/** One snapshot's lookups for matching, built once in O(n). */
export class MatchSide {
  readonly elements: readonly ElementNode[];
  /** position in `elements` of each element's parent, -1 for none */
  readonly parentPos: Int32Array;
  /** position of the paired element on the other side, -1 while unpaired */
  readonly pair: Int32Array;
  private readonly labels: LabelTable;
  private open: number[] | null = null;
  /** Interned role + text (secure text blanked), -1 until asked: see labelOf. */
  private readonly labelIds: Int32Array;
  /** 1 no text, 0 has text, -1 not computed yet: see isTextless. */
  private readonly textlessFlags: Int8Array;
  /** rounded geometry; hasBounds[i] = 0 when the element has none */
  readonly x: Int32Array;
  readonly y: Int32Array;
  readonly w: Int32Array;
  readonly h: Int32Array;
  readonly hasBounds: Uint8Array;

  constructor(elements: readonly ElementNode[], labels: LabelTable) {
    this.elements = elements;
    const n = elements.length;
    this.parentPos = new Int32Array(n).fill(-1);
    this.pair = new Int32Array(n).fill(-1);
    this.labels = labels;
    this.labelIds = new Int32Array(n).fill(-1);
    this.textlessFlags = new Int8Array(n).fill(-1);
    this.x = new Int32Array(n);
    this.y = new Int32Array(n);
    this.w = new Int32Array(n);
    this.h = new Int32Array(n);
    this.hasBounds = new Uint8Array(n);
    // One pass reads each element once (element objects from backends may vary in shape, which
    // makes every property read costly).
    const parentIndexes = new Int32Array(n);
    let indexIsPosition = true;
    for (let i = 0; i < n; i++) {
      const el = elements[i];
      if (el.index !== i) indexIsPosition = false;
      parentIndexes[i] = el.parentIndex ?? -1;
      const b = el.bounds;
      if (b) {
        this.hasBounds[i] = 1;
        this.x[i] = Math.round(b.x);
        this.y[i] = Math.round(b.y);
        this.w[i] = Math.round(b.width);
        this.h[i] = Math.round(b.height);
      }
    }
    const positionOf = indexIsPosition ? null : new Map(elements.map((el, pos) => [el.index, pos]));
    for (let i = 0; i < n; i++) {
      const parentIndex = parentIndexes[i];
      if (parentIndex < 0) continue;
      const pos = positionOf ? positionOf.get(parentIndex) : parentIndex < n ? parentIndex : undefined;
      if (pos !== undefined && pos !== i) this.parentPos[i] = pos;
    }
  }

  /**
   * Unpaired positions in document order. Refreshed on each call (pairs only ever get added, so
   * the list only shrinks): the passes after the first touch only what is still open.
   */
  unpaired(): readonly number[] {
    if (!this.open) {
      this.open = [];
      for (let i = 0; i < this.pair.length; i++) if (this.pair[i] < 0) this.open.push(i);
    } else {
      let kept = 0;
      for (const pos of this.open) if (this.pair[pos] < 0) this.open[kept++] = pos;
      this.open.length = kept;
    }
    return this.open;
  }

  /** Interned role + text: equal ids mean "the same element, maybe moved". Computed lazily,
   * because pass 1 pairs most of a tree without it. */
  labelOf(pos: number): number {
    let id = this.labelIds[pos];
    if (id < 0) {
      const el = this.elements[pos];
      id = this.labelIds[pos] = this.labels.id(el.role, displayText(el));
    }
    return id;
  }

  /** No text: such elements are told apart by their children (pass 4). */
  isTextless(pos: number): boolean {
    let flag = this.textlessFlags[pos];
    if (flag < 0) {
      const text = displayText(this.elements[pos]);
      // Most text starts with a visible character: skip the trim (and its copy) then.
      flag = this.textlessFlags[pos] = text.length > 0 && text.charCodeAt(0) > 32 ? 0 : text.trim() === '' ? 1 : 0;
    }
    return flag === 1;
  }
}

/** 32-bit mix of integers (FNV-style); equal inputs give equal hashes, collisions are checked. */
export function hashInts(a: number, b: number, c: number, d: number, e: number): number {
  let h = 0x811c9dc5;
  h = Math.imul(h ^ a, 0x01000193);
  h = Math.imul(h ^ b, 0x01000193);
  h = Math.imul(h ^ c, 0x01000193);
  h = Math.imul(h ^ d, 0x01000193);
  h = Math.imul(h ^ e, 0x01000193);
  return h;
}

/** Hash of label + rounded geometry shifted by (dx, dy). */
export function placedHash(side: MatchSide, pos: number, dx = 0, dy = 0): number {
  if (!side.hasBounds[pos]) return hashInts(side.labelOf(pos), -1, -1, -1, -1);
  return hashInts(side.labelOf(pos), side.x[pos] + dx, side.y[pos] + dy, side.w[pos], side.h[pos]);
}
