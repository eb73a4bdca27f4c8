import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideTapEvent, GUARDED_EVENT_MASK, TANDEM_EVENT_MARKER } from '../../src/backends/macos/cgEventTapPolicy.js';

const human = { keycode: 0, flags: 0n, userData: 0n };

test('should swallow every human key and pointer event type the guard covers', () => {
  for (const type of [10, 11, 12]) assert.deepEqual(decideTapEvent({ ...human, type }), { action: 'swallow', kind: 'key' });
  for (const type of [1, 2, 3, 4, 5, 6, 7, 22, 25, 26, 27]) assert.deepEqual(decideTapEvent({ ...human, type }), { action: 'swallow', kind: 'pointer' });
});

test("should pass events that carry Tandem's marker, counting all but moves and drags", () => {
  for (const type of [1, 2, 3, 4, 10, 11, 22, 25, 26]) assert.deepEqual(decideTapEvent({ ...human, type, userData: TANDEM_EVENT_MARKER }), { action: 'pass-ours', counted: true });
  // The window server may coalesce moves and drags: a count of them could never add up.
  for (const type of [5, 6, 7, 27]) assert.deepEqual(decideTapEvent({ ...human, type, userData: TANDEM_EVENT_MARKER }), { action: 'pass-ours', counted: false });
});

test('should treat a foreign user-data value as human input', () => {
  assert.equal(decideTapEvent({ ...human, type: 1, userData: 12345n }).action, 'swallow');
});

test('should cancel on plain Esc key down, and only then', () => {
  assert.deepEqual(decideTapEvent({ ...human, type: 10, keycode: 0x35 }), { action: 'escape' });
  // Caps Lock (0x10000) and device bits are not held modifiers.
  assert.deepEqual(decideTapEvent({ ...human, type: 10, keycode: 0x35, flags: 0x10000n | 0x100n }), { action: 'escape' });
  assert.equal(decideTapEvent({ ...human, type: 10, keycode: 0x35, flags: 0x100000n }).action, 'swallow'); // Cmd+Esc
  assert.equal(decideTapEvent({ ...human, type: 10, keycode: 0x35, flags: 0x20000n }).action, 'swallow'); // Shift+Esc
  assert.equal(decideTapEvent({ ...human, type: 11, keycode: 0x35 }).action, 'swallow'); // key up
  assert.equal(decideTapEvent({ ...human, type: 10, keycode: 0x35, userData: TANDEM_EVENT_MARKER }).action, 'pass-ours'); // our own Esc
});

test('should ask to re-enable the tap when macOS disabled it', () => {
  assert.deepEqual(decideTapEvent({ ...human, type: 0xfffffffe }), { action: 'reenable' });
  assert.deepEqual(decideTapEvent({ ...human, type: 0xffffffff }), { action: 'reenable' });
});

test('should pass event types it does not guard', () => {
  assert.deepEqual(decideTapEvent({ ...human, type: 29 }), { action: 'pass' });
  assert.deepEqual(decideTapEvent({ ...human, type: 0 }), { action: 'pass' });
});

test('should build the tap mask from exactly the guarded types', () => {
  const expected = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 22, 25, 26, 27].reduce((m, t) => m | (1n << BigInt(t)), 0n);
  assert.equal(GUARDED_EVENT_MASK, expected);
  assert.ok(GUARDED_EVENT_MASK > 0xffffffn, 'bits above 24 need 64-bit arithmetic');
});
