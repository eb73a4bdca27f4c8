import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NAMED_KEYS, normalizeKey, normalizeModifiers } from '../../src/core/input/keys.js';
import { HELD_MODIFIER_MASK, keyStrokeFor, modifierFlags, requireKeyStroke } from '../../src/backends/macos/macKeys.js';
import { modelText } from '../support/modelText.js';

test('should map every canonical named key to a macOS virtual keycode', () => {
  for (const key of NAMED_KEYS) {
    const stroke = keyStrokeFor(key);
    assert.ok(stroke, `no keycode for ${key}`);
    assert.equal(stroke.shift, false);
  }
  assert.equal(keyStrokeFor('return')?.keycode, 0x24);
  assert.equal(keyStrokeFor('escape')?.keycode, 0x35);
  assert.equal(keyStrokeFor('tab')?.keycode, 0x30);
  assert.equal(keyStrokeFor('space')?.keycode, 0x31);
  assert.equal(keyStrokeFor('backspace')?.keycode, 0x33);
  assert.equal(keyStrokeFor('delete')?.keycode, 0x75);
  assert.deepEqual(['left', 'right', 'down', 'up'].map((k) => keyStrokeFor(k)?.keycode), [0x7b, 0x7c, 0x7d, 0x7e]);
  assert.equal(keyStrokeFor('f1')?.keycode, 0x7a);
  assert.equal(keyStrokeFor('f12')?.keycode, 0x6f);
});

test('should give named keys distinct keycodes', () => {
  const codes = NAMED_KEYS.map((k) => keyStrokeFor(k)!.keycode);
  assert.equal(new Set(codes).size, codes.length);
});

test('should map ANSI characters, with shift for capitals and shifted symbols', () => {
  assert.deepEqual(keyStrokeFor('a'), { keycode: 0x00, shift: false });
  assert.deepEqual(keyStrokeFor('A'), { keycode: 0x00, shift: true });
  assert.deepEqual(keyStrokeFor('s'), { keycode: 0x01, shift: false });
  assert.deepEqual(keyStrokeFor('z'), { keycode: 0x06, shift: false });
  assert.deepEqual(keyStrokeFor('1'), { keycode: 0x12, shift: false });
  assert.deepEqual(keyStrokeFor('!'), { keycode: 0x12, shift: true });
  assert.deepEqual(keyStrokeFor('?'), { keycode: 0x2c, shift: true });
  assert.deepEqual(keyStrokeFor('/'), { keycode: 0x2c, shift: false });
  assert.deepEqual(keyStrokeFor('0'), { keycode: 0x1d, shift: false });
});

test('should resolve aliases through core normalisation to the same keycode', () => {
  assert.equal(keyStrokeFor(normalizeKey('Enter'))?.keycode, 0x24);
  assert.equal(keyStrokeFor(normalizeKey('Esc'))?.keycode, 0x35);
  assert.equal(keyStrokeFor(normalizeKey('Page Down'))?.keycode, 0x79);
  assert.equal(keyStrokeFor(normalizeKey('KeyS'))?.keycode, 0x01);
});

test('should refuse a key the US layout cannot press, telling the model to type it', () => {
  assert.equal(keyStrokeFor('é'), null);
  assert.throws(() => requireKeyStroke('é'), (error: Error & { code?: string }) => error.code === 'bad-input' && /Type it as text/.test(modelText(error)));
});

test('should build 64-bit modifier masks as BigInt', () => {
  assert.equal(modifierFlags([]), 0n);
  assert.equal(modifierFlags(['shift']), 0x20000n);
  assert.equal(modifierFlags(['control']), 0x40000n);
  assert.equal(modifierFlags(['alt']), 0x80000n);
  assert.equal(modifierFlags(['meta']), 0x100000n);
  assert.equal(modifierFlags(['fn']), 0x800000n);
  assert.equal(modifierFlags(normalizeModifiers(['cmd', 'Shift'])), 0x120000n);
  assert.equal(HELD_MODIFIER_MASK, 0x9e0000n);
  assert.equal(typeof modifierFlags(['meta']), 'bigint');
});
