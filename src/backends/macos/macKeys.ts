// Canonical key names (src/core/input/keys.ts) → macOS virtual keycodes (Carbon kVK_* values, ANSI
// layout) and modifiers → CGEventFlags masks. Keycodes are physical positions: on a non-ANSI
// layout (AZERTY…) the key at kVK_ANSI_A types another character, so printable text goes
// through typeText (unicode events), pressKey is for shortcuts and named keys, and a letter is
// pressed on the key that types it on the current layout (layoutKeyStroke).

import { TandemError } from '../../core/errors.js';
import type { Modifier } from '../../core/model.js';
import { CGEventFlag, type LayoutKey } from '../../../native/macos/macNative.js';

/** kVK_* for the named keys of keys.ts. */
export const NAMED_KEYCODES: Readonly<Record<string, number>> = {
  return: 0x24,
  tab: 0x30,
  escape: 0x35,
  space: 0x31,
  backspace: 0x33, // kVK_Delete: the key labelled "delete" on Mac keyboards
  delete: 0x75, // kVK_ForwardDelete
  up: 0x7e,
  down: 0x7d,
  left: 0x7b,
  right: 0x7c,
  pageup: 0x74,
  pagedown: 0x79,
  home: 0x73,
  end: 0x77,
  insert: 0x72, // kVK_Help: Mac keyboards have no Insert; Help sits where it was
  f1: 0x7a,
  f2: 0x78,
  f3: 0x63,
  f4: 0x76,
  f5: 0x60,
  f6: 0x61,
  f7: 0x62,
  f8: 0x64,
  f9: 0x65,
  f10: 0x6d,
  f11: 0x67,
  f12: 0x6f,
};

/** Unshifted characters of the ANSI layout → kVK_ANSI_* keycode. */
const ANSI_CHARS: Readonly<Record<string, number>> = {
  a: 0x00, s: 0x01, d: 0x02, f: 0x03, h: 0x04, g: 0x05, z: 0x06, x: 0x07, c: 0x08, v: 0x09,
  b: 0x0b, q: 0x0c, w: 0x0d, e: 0x0e, r: 0x0f, y: 0x10, t: 0x11,
  '1': 0x12, '2': 0x13, '3': 0x14, '4': 0x15, '6': 0x16, '5': 0x17, '=': 0x18, '9': 0x19,
  '7': 0x1a, '-': 0x1b, '8': 0x1c, '0': 0x1d, ']': 0x1e, o: 0x1f, u: 0x20, '[': 0x21, i: 0x22,
  p: 0x23, l: 0x25, j: 0x26, "'": 0x27, k: 0x28, ';': 0x29, '\\': 0x2a, ',': 0x2b, '/': 0x2c,
  n: 0x2d, m: 0x2e, '.': 0x2f, '`': 0x32, ' ': 0x31,
};

/** Shifted characters of the ANSI layout → their unshifted key. */
const ANSI_SHIFTED: Readonly<Record<string, string>> = {
  '!': '1', '@': '2', '#': '3', $: '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0',
  _: '-', '+': '=', '{': '[', '}': ']', '|': '\\', ':': ';', '"': "'", '<': ',', '>': '.', '?': '/', '~': '`',
};

export interface MacKeyStroke {
  keycode: number;
  /** The character needs Shift on the ANSI layout ("A", "!"). */
  shift: boolean;
}

/** Keycode for a canonical key name or single character; null when the ANSI layout has no key for it. */
export function keyStrokeFor(key: string): MacKeyStroke | null {
  const named = NAMED_KEYCODES[key];
  if (named !== undefined) return { keycode: named, shift: false };
  if ([...key].length !== 1) return null;
  const direct = ANSI_CHARS[key];
  if (direct !== undefined) return { keycode: direct, shift: false };
  const lower = key.toLowerCase();
  if (lower !== key && ANSI_CHARS[lower] !== undefined) return { keycode: ANSI_CHARS[lower], shift: true };
  const base = ANSI_SHIFTED[key];
  if (base !== undefined) return { keycode: ANSI_CHARS[base], shift: true };
  return null;
}

/** Whether `key` is a letter, pressed on the key that types it on the current layout (layoutKeyStroke). */
export function isLayoutLetter(key: string): boolean {
  return /^[a-z]$/i.test(key);
}

/**
 * A letter's key on the person's keyboard layout, where it is not the ANSI one: on AZERTY the
 * key at kVK_ANSI_A types "q", and Command with it is Command-Q, which quits the app (the same
 * for Command-Z on AZERTY, Command-Z/Y on QWERTZ). Letters only: a layout with no key for the
 * letter (Cyrillic…) keeps the ANSI key, which is what macOS matches shortcuts against there.
 */
export function layoutKeyStroke(key: string, layout: readonly LayoutKey[] | null | undefined): MacKeyStroke | null {
  if (!layout || !isLayoutLetter(key)) return null;
  const lower = key.toLowerCase();
  const found = layout.find((k) => k.plain === lower);
  return found ? { keycode: found.keycode, shift: key !== lower } : null;
}

/** Like keyStrokeFor, but a key the layout cannot press is a bad-input error for the model. */
export function requireKeyStroke(key: string): MacKeyStroke {
  const stroke = keyStrokeFor(key);
  if (!stroke) {
    throw new TandemError('bad-input', `The key "${key}" has no key on a US keyboard to press with modifiers.`, { reason: 'key-not-on-keyboard' });
  }
  return stroke;
}

const MODIFIER_FLAGS: Readonly<Record<Modifier, bigint>> = {
  shift: CGEventFlag.shift,
  control: CGEventFlag.control,
  alt: CGEventFlag.alternate,
  meta: CGEventFlag.command,
  fn: CGEventFlag.secondaryFn,
};

/** CGEventFlags for a set of modifiers (64-bit, hence BigInt). */
export function modifierFlags(modifiers: readonly Modifier[]): bigint {
  let flags = 0n;
  for (const modifier of modifiers) flags |= MODIFIER_FLAGS[modifier];
  return flags;
}

/** The modifier bits a person can hold (everything else in CGEventFlags is state or device info). */
export const HELD_MODIFIER_MASK = CGEventFlag.shift | CGEventFlag.control | CGEventFlag.alternate | CGEventFlag.command | CGEventFlag.secondaryFn;
