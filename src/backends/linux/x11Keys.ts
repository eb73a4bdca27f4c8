// Key names and characters → X keysyms → keycodes. Pure: the keymap comes from
// GetKeyboardMapping, the remap plan is applied by x11Input.ts.

import type { NamedKey } from '../../core/input/keys.js';
import type { Modifier } from '../../core/model.js';

/** X keysyms of the canonical named keys (X11/keysymdef.h). */
export const NAMED_KEYSYMS: Record<NamedKey, number> = {
  return: 0xff0d,
  tab: 0xff09,
  escape: 0xff1b,
  space: 0x0020,
  backspace: 0xff08,
  delete: 0xffff,
  up: 0xff52,
  down: 0xff54,
  left: 0xff51,
  right: 0xff53,
  pageup: 0xff55,
  pagedown: 0xff56,
  home: 0xff50,
  end: 0xff57,
  insert: 0xff63,
  f1: 0xffbe,
  f2: 0xffbf,
  f3: 0xffc0,
  f4: 0xffc1,
  f5: 0xffc2,
  f6: 0xffc3,
  f7: 0xffc4,
  f8: 0xffc5,
  f9: 0xffc6,
  f10: 0xffc7,
  f11: 0xffc8,
  f12: 0xffc9,
};

/**
 * Keysyms pressed for each modifier, first choice first. X has no Fn key (the keyboard handles
 * it in hardware), so 'fn' maps to nothing and is skipped.
 */
export const MODIFIER_KEYSYMS: Record<Modifier, readonly number[]> = {
  shift: [0xffe1, 0xffe2], // Shift_L, Shift_R
  control: [0xffe3, 0xffe4], // Control_L, Control_R
  alt: [0xffe9, 0xffea, 0xff7e], // Alt_L, Alt_R, Mode_switch
  meta: [0xffeb, 0xffec, 0xffe7], // Super_L, Super_R, Meta_L
  fn: [],
};

export const KEYSYM_SHIFT_L = 0xffe1;
export const NO_SYMBOL = 0;

/**
 * The keysym X uses for one character: Latin-1 characters are their own code point, every other
 * Unicode character is 0x01000000 + code point (keysymdef.h, "Unicode characters"). Newline and
 * tab are typed as Return and Tab.
 */
export function keysymForCharacter(character: string): number {
  const codePoint = character.codePointAt(0);
  if (codePoint === undefined) throw new RangeError('empty character');
  if (character === '\n' || character === '\r') return NAMED_KEYSYMS.return;
  if (character === '\t') return NAMED_KEYSYMS.tab;
  if ((codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff)) return codePoint;
  return 0x01000000 + codePoint;
}

/** A canonical key (normalizeKey's output: a named key or one character) → its keysym. */
export function keysymForKey(key: string): number {
  if (key in NAMED_KEYSYMS) return NAMED_KEYSYMS[key as NamedKey];
  return keysymForCharacter(key);
}

/**
 * Whether typing this keysym inserts a character into a text field (what the app's insertion
 * count will show): printable keysyms do; Return and Tab may (a text view) or may not (an entry
 * activates, focus moves), so they are not counted — counting them would hold typing back.
 */
export function insertsCharacter(keysym: number): boolean {
  return keysym < 0xfe00 || keysym >= 0x01000000;
}

/** Splits text into what typeText sends: one entry per code point, CR LF collapsed to one Return. */
export function textToKeysyms(text: string): number[] {
  return [...text.replace(/\r\n/g, '\n')].map(keysymForCharacter);
}

export interface KeyStroke {
  keycode: number;
  /** Shift must be held (the keysym sits on the second level of its keycode). */
  shift: boolean;
}

/** The core keyboard mapping: one row of keysyms per keycode, from minKeycode on. */
export class Keymap {
  private readonly index = new Map<number, KeyStroke>();

  constructor(
    readonly minKeycode: number,
    readonly rows: readonly (readonly number[])[],
  ) {
    // Level 1 (unshifted) wins over level 2 wherever a keysym appears on both; the first keycode
    // wins among equals, as XKeysymToKeycode does.
    for (const level of [0, 1]) {
      rows.forEach((row, offset) => {
        const keysym = row[level];
        if (!keysym || this.index.has(keysym)) return;
        this.index.set(keysym, { keycode: minKeycode + offset, shift: level === 1 });
      });
    }
    // A letter listed on one level only has its other case implied (X's case conversion).
    rows.forEach((row, offset) => {
      const keysym = row[0];
      if (!keysym || row[1]) return;
      const upper = upperCaseKeysym(keysym);
      if (upper !== keysym && !this.index.has(upper)) this.index.set(upper, { keycode: minKeycode + offset, shift: true });
    });
  }

  get keysymsPerKeycode(): number {
    return this.rows[0]?.length ?? 0;
  }

  lookup(keysym: number): KeyStroke | null {
    return this.index.get(keysym) ?? null;
  }

  /** Keycodes with no symbol at all: free to borrow for characters the layout lacks. */
  spareKeycodes(): number[] {
    const spare: number[] = [];
    this.rows.forEach((row, offset) => {
      // Keycodes below 9 are not real keys on X servers (8 is the first keycode XKB uses).
      if (this.minKeycode + offset > 8 && row.every((keysym) => keysym === NO_SYMBOL)) spare.push(this.minKeycode + offset);
    });
    return spare;
  }
}

function upperCaseKeysym(keysym: number): number {
  if (keysym >= 0x61 && keysym <= 0x7a) return keysym - 0x20;
  return keysym;
}

/** One ChangeKeyboardMapping request: `count` keycodes from `firstKeycode`, row by row. */
export interface KeymapChange {
  firstKeycode: number;
  keysymsPerKeycode: number;
  keysyms: number[];
}

/** Characters the layout lacks, placed on borrowed keycodes: apply, type, then restore. */
export interface RemapBatch {
  /** keysym → borrowed keycode (typed without shift). */
  assigned: Map<number, number>;
  apply: KeymapChange[];
  restore: KeymapChange[];
}

/**
 * Plans the borrowing of spare keycodes for keysyms the keymap lacks. Each batch maps as many
 * keysyms as there are spare keycodes; consecutive spare keycodes share one request (the longest
 * runs are used first to keep requests few). Only spare keycodes are ever rewritten, so restoring
 * them to NoSymbol gives the layout back exactly.
 */
export function planRemap(keymap: Keymap, missing: readonly number[]): RemapBatch[] {
  const unique = [...new Set(missing)].filter((keysym) => !keymap.lookup(keysym));
  if (!unique.length) return [];
  const spare = preferLongRuns(keymap.spareKeycodes());
  if (!spare.length) throw new RangeError('The keyboard mapping has no spare keycode to type characters the layout lacks.');
  const width = Math.max(2, keymap.keysymsPerKeycode);
  const batches: RemapBatch[] = [];
  for (let start = 0; start < unique.length; start += spare.length) {
    const keysyms = unique.slice(start, start + spare.length);
    const pairs = keysyms.map((keysym, index) => ({ keysym, keycode: spare[index] })).sort((a, b) => a.keycode - b.keycode);
    const apply: KeymapChange[] = [];
    const restore: KeymapChange[] = [];
    for (const run of contiguousRuns(pairs)) {
      const firstKeycode = run[0].keycode;
      const row = (keysym: number): number[] => [keysym, keysym, ...new Array<number>(width - 2).fill(NO_SYMBOL)];
      apply.push({ firstKeycode, keysymsPerKeycode: width, keysyms: run.flatMap((pair) => row(pair.keysym)) });
      restore.push({ firstKeycode, keysymsPerKeycode: width, keysyms: new Array<number>(run.length * width).fill(NO_SYMBOL) });
    }
    batches.push({ assigned: new Map(pairs.map((pair) => [pair.keysym, pair.keycode])), apply, restore });
  }
  return batches;
}

/** Spare keycodes ordered so that the longest consecutive runs come first. */
function preferLongRuns(keycodes: readonly number[]): number[] {
  const runs: number[][] = [];
  for (const keycode of [...keycodes].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && last[last.length - 1] === keycode - 1) last.push(keycode);
    else runs.push([keycode]);
  }
  return runs.sort((a, b) => b.length - a.length || a[0] - b[0]).flat();
}

function contiguousRuns<T extends { keycode: number }>(sorted: readonly T[]): T[][] {
  const runs: T[][] = [];
  for (const item of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[last.length - 1].keycode === item.keycode - 1) last.push(item);
    else runs.push([item]);
  }
  return runs;
}

/** The keycode pressed for a modifier, or null when the layout has none (always null for fn). */
export function modifierKeycode(keymap: Keymap, modifier: Modifier): number | null {
  for (const keysym of MODIFIER_KEYSYMS[modifier]) {
    const stroke = keymap.lookup(keysym);
    if (stroke) return stroke.keycode;
  }
  return null;
}

/**
 * Splits a run of keysyms into segments that each need at most `spareCount` borrowed keycodes,
 * so a text with more distinct missing characters than spare keycodes is typed in order, one
 * remap per segment.
 */
export function segmentsForSpareKeycodes(keymap: Keymap, keysyms: readonly number[], spareCount: number): number[][] {
  const segments: number[][] = [];
  let current: number[] = [];
  let missing = new Set<number>();
  for (const keysym of keysyms) {
    const needsSpare = !keymap.lookup(keysym) && !missing.has(keysym);
    if (needsSpare && missing.size >= spareCount && current.length) {
      segments.push(current);
      current = [];
      missing = new Set();
    }
    if (!keymap.lookup(keysym)) missing.add(keysym);
    current.push(keysym);
  }
  if (current.length) segments.push(current);
  return segments;
}
