import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeKey, NAMED_KEYS } from '../../src/core/input/keys.js';
import {
  Keymap,
  MODIFIER_KEYSYMS,
  NAMED_KEYSYMS,
  keysymForCharacter,
  keysymForKey,
  modifierKeycode,
  planRemap,
  segmentsForSpareKeycodes,
  textToKeysyms,
} from '../../src/backends/linux/x11Keys.js';

/** A small US-like layout: keycode 10 → 1/!, 24 → q/Q, 38 → a/A, 50 Shift_L, 37 Control_L, 9 Escape, 36 Return. */
function sampleKeymap(): Keymap {
  const min = 8;
  const rows: number[][] = [];
  for (let keycode = min; keycode <= 60; keycode++) rows.push([0, 0, 0, 0]);
  const set = (keycode: number, ...keysyms: number[]): void => {
    rows[keycode - min] = [...keysyms, 0, 0, 0, 0].slice(0, 4);
  };
  set(9, 0xff1b);
  set(10, 0x31, 0x21);
  set(24, 0x71, 0x51);
  set(36, 0xff0d);
  set(37, 0xffe3);
  set(38, 0x61, 0x41);
  set(50, 0xffe1);
  set(52, 0x7a); // 'z' listed on one level only: 'Z' is implied
  return new Keymap(min, rows);
}

describe('x11 keys', () => {
  it('should map every canonical key name to its X keysym', () => {
    for (const name of NAMED_KEYS) assert.equal(typeof NAMED_KEYSYMS[name], 'number', name);
    assert.equal(keysymForKey(normalizeKey('Return')), 0xff0d);
    assert.equal(keysymForKey(normalizeKey('esc')), 0xff1b);
    assert.equal(keysymForKey(normalizeKey('Page Down')), 0xff56);
    assert.equal(keysymForKey(normalizeKey('F12')), 0xffc9);
    assert.equal(keysymForKey(normalizeKey('backspace')), 0xff08);
    assert.equal(keysymForKey(normalizeKey('delete')), 0xffff);
    assert.equal(keysymForKey(normalizeKey('space')), 0x20);
  });

  it('should map Latin-1 characters to their code point and others to 0x01000000 + code point', () => {
    assert.equal(keysymForCharacter('a'), 0x61);
    assert.equal(keysymForCharacter('~'), 0x7e);
    assert.equal(keysymForCharacter('é'), 0xe9);
    assert.equal(keysymForCharacter('€'), 0x010020ac);
    assert.equal(keysymForCharacter('✓'), 0x01002713);
    assert.equal(keysymForCharacter('Ā'), 0x01000100);
    assert.equal(keysymForCharacter('😀'), 0x0101f600);
  });

  it('should type newlines as Return and tabs as Tab, one keysym per code point', () => {
    assert.deepEqual(textToKeysyms('a\r\nb\tc😀'), [0x61, 0xff0d, 0x62, 0xff09, 0x63, 0x0101f600]);
  });

  it('should find keycodes and whether Shift is needed', () => {
    const keymap = sampleKeymap();
    assert.deepEqual(keymap.lookup(0x61), { keycode: 38, shift: false });
    assert.deepEqual(keymap.lookup(0x41), { keycode: 38, shift: true });
    assert.deepEqual(keymap.lookup(0x21), { keycode: 10, shift: true });
    assert.deepEqual(keymap.lookup(0x5a), { keycode: 52, shift: true });
    assert.equal(keymap.lookup(0xe9), null);
  });

  it('should map modifiers to their keys and leave fn out', () => {
    const keymap = sampleKeymap();
    assert.equal(modifierKeycode(keymap, 'shift'), 50);
    assert.equal(modifierKeycode(keymap, 'control'), 37);
    assert.equal(modifierKeycode(keymap, 'fn'), null);
    assert.equal(modifierKeycode(keymap, 'alt'), null);
    assert.deepEqual(MODIFIER_KEYSYMS.meta.slice(0, 1), [0xffeb]);
  });

  it('should put missing characters on the longest run of spare keycodes in one batch and restore them to NoSymbol', () => {
    const keymap = sampleKeymap();
    // Spare keycodes: 11–23 (13 in a row) is the longest run.
    const [batch, ...rest] = planRemap(keymap, [0xe9, 0x61, 0x010020ac, 0xe9]);
    assert.equal(rest.length, 0);
    assert.deepEqual([...batch.assigned.entries()], [[0xe9, 11], [0x010020ac, 12]]);
    assert.deepEqual(batch.apply, [{ firstKeycode: 11, keysymsPerKeycode: 4, keysyms: [0xe9, 0xe9, 0, 0, 0x010020ac, 0x010020ac, 0, 0] }]);
    assert.deepEqual(batch.restore, [{ firstKeycode: 11, keysymsPerKeycode: 4, keysyms: [0, 0, 0, 0, 0, 0, 0, 0] }]);
    assert.deepEqual(planRemap(keymap, [0x61, 0x41]), []);
  });

  it('should never plan to rewrite a keycode that has symbols', () => {
    const keymap = sampleKeymap();
    const missing = Array.from({ length: 40 }, (_, index) => 0x01000100 + index);
    const used = planRemap(keymap, missing).flatMap((batch) => [...batch.assigned.values()]);
    for (const keycode of used) assert.deepEqual(keymap.rows[keycode - 8], [0, 0, 0, 0], `keycode ${keycode}`);
    assert.equal(new Set(used).size, used.length);
  });

  it('should split a text into segments that fit the spare keycodes, keeping its order', () => {
    const keymap = sampleKeymap();
    const text = [0xe9, 0x61, 0xea, 0xe9, 0xeb, 0x61];
    assert.deepEqual(segmentsForSpareKeycodes(keymap, text, 2), [[0xe9, 0x61, 0xea, 0xe9], [0xeb, 0x61]]);
    assert.deepEqual(segmentsForSpareKeycodes(keymap, text, 10), [text]);
  });
});
