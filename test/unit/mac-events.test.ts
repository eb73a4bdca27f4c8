import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CGEventInput, chunkUtf16, MAX_UNICODE_UNITS, planScroll, planText } from '../../src/backends/macos/cgEvents.js';
import { TANDEM_EVENT_MARKER } from '../../src/backends/macos/cgEventTapPolicy.js';
import { FakeMacNative } from './mac-fake-native.js';

test('should chunk text into at most 20 UTF-16 units without splitting surrogate pairs', () => {
  const text = 'a'.repeat(19) + '😀' + 'b'.repeat(25) + '𝒳'.repeat(15);
  const chunks = chunkUtf16(text);
  assert.equal(chunks.join(''), text);
  for (const chunk of chunks) {
    assert.ok(chunk.length <= MAX_UNICODE_UNITS, `chunk of ${chunk.length} units`);
    assert.ok(!/[\uD800-\uDBFF]$/.test(chunk), 'chunk ends in a lone high surrogate');
    assert.ok(!/^[\uDC00-\uDFFF]/.test(chunk), 'chunk starts with a lone low surrogate');
  }
  assert.equal(chunks[0], 'a'.repeat(19)); // the emoji would have made it 21 units
  assert.deepEqual(chunkUtf16(''), []);
  assert.deepEqual(chunkUtf16('x'.repeat(40)), ['x'.repeat(20), 'x'.repeat(20)]);
});

test('should type line breaks and tabs as key presses and the rest as unicode', () => {
  assert.deepEqual(planText('Hi\nthere\r\n\tx'), [
    { kind: 'text', text: 'Hi' },
    { kind: 'key', key: 'return' },
    { kind: 'text', text: 'there' },
    { kind: 'key', key: 'return' },
    { kind: 'key', key: 'tab' },
    { kind: 'text', text: 'x' },
  ]);
});

test('should split scrolls into wheel events of at most 10 lines, content-down being negative', () => {
  assert.deepEqual(planScroll(0, 3), [{ wheel1: -3, wheel2: 0 }]);
  assert.deepEqual(planScroll(0, -25), [{ wheel1: 10, wheel2: 0 }, { wheel1: 10, wheel2: 0 }, { wheel1: 5, wheel2: 0 }]);
  assert.deepEqual(planScroll(2, 0), [{ wheel1: 0, wheel2: -2 }]);
  assert.deepEqual(planScroll(0, 0), []);
});

function setup(): { fake: FakeMacNative; input: CGEventInput } {
  const fake = new FakeMacNative();
  return { fake, input: new CGEventInput(fake) };
}

test('should tag every posted event with the marker, post at the HID location and release each once', () => {
  const { fake, input } = setup();
  input.click({ x: 5, y: 6 }, { button: 'left', count: 1, modifiers: [] });
  input.pressKey('s', ['meta']);
  input.typeText('hello\n');
  input.scroll({ x: 1, y: 2 }, 0, 3);
  input.pressButton({ x: 0, y: 0 }, 'left', []);
  input.dragTo({ x: 50, y: 0 }, 'left', []);
  input.releaseButton({ x: 100, y: 0 }, 'left', []);
  assert.ok(fake.posted.length > 10);
  for (const event of fake.posted) {
    assert.equal(event.fields.get(42), TANDEM_EVENT_MARKER);
    assert.equal(event.tapLocation, 0);
  }
  assert.deepEqual(fake.leaks(), []);
});

test('should click with a move first, then a down/up pair with click state 1', () => {
  const { fake, input } = setup();
  input.click({ x: 40, y: 50 }, { button: 'left', count: 1, modifiers: [] });
  assert.deepEqual(fake.posted.map((e) => e.type), [5, 1, 2]);
  assert.deepEqual(fake.posted.map((e) => e.location), [{ x: 40, y: 50 }, { x: 40, y: 50 }, { x: 40, y: 50 }]);
  assert.deepEqual(fake.posted.slice(1).map((e) => e.fields.get(1)), [1n, 1n]);
  assert.deepEqual(fake.posted.map((e) => e.flags), [0n, 0n, 0n]);
});

test('should double click as a second pair carrying click state 2', () => {
  const { fake, input } = setup();
  input.click({ x: 1, y: 1 }, { button: 'left', count: 2, modifiers: [] });
  assert.deepEqual(fake.posted.map((e) => [e.type, e.fields.get(1)]), [[5, undefined], [1, 1n], [2, 1n], [1, 2n], [2, 2n]]);
});

test('should right click with the right button types and middle click with the other types', () => {
  const { fake, input } = setup();
  input.click({ x: 1, y: 1 }, { button: 'right', count: 1, modifiers: [] });
  input.click({ x: 1, y: 1 }, { button: 'middle', count: 1, modifiers: [] });
  assert.deepEqual(fake.posted.map((e) => [e.type, e.button]), [[5, 0], [3, 1], [4, 1], [5, 0], [25, 2], [26, 2]]);
});

test('should set modifier flags explicitly on a modified click and on shortcut keys', () => {
  const { fake, input } = setup();
  input.click({ x: 1, y: 1 }, { button: 'left', count: 1, modifiers: ['shift', 'meta'] });
  assert.equal(fake.posted[1].flags, 0x120000n);
  fake.posted.length = 0;
  input.pressKey('s', ['meta']);
  assert.deepEqual(fake.posted.map((e) => [e.type, e.keycode, e.flags]), [[10, 0x01, 0x100000n], [11, 0x01, 0x100000n]]);
  fake.posted.length = 0;
  input.pressKey('A', []);
  assert.deepEqual(fake.posted.map((e) => e.flags), [0x20000n, 0x20000n], 'capital letters need shift');
});

test('should type unicode text in chunks of at most 20 units with no flags', () => {
  const { fake, input } = setup();
  const text = 'é'.repeat(30) + '😀';
  input.typeText(text);
  const downs = fake.posted.filter((e) => e.type === 10);
  assert.equal(downs.map((e) => e.unicode).join(''), text);
  for (const event of fake.posted) {
    assert.ok((event.unicode ?? '').length <= 20);
    assert.equal(event.flags, 0n);
  }
  assert.equal(fake.posted.filter((e) => e.type === 11).length, downs.length, 'every key down has its key up');
});

test('should scroll by lines at the point after moving there', () => {
  const { fake, input } = setup();
  input.scroll({ x: 300, y: 200 }, 0, 12);
  assert.deepEqual(fake.posted[0].location, { x: 300, y: 200 });
  assert.deepEqual(fake.posted.slice(1).map((e) => e.scroll), [
    { units: 1, count: 2, w1: -10, w2: 0, w3: 0 },
    { units: 1, count: 2, w1: -2, w2: 0, w3: 0 },
  ]);
});

test('should drag as a move, a press, dragged events of that button and a release, the modifiers in every flag', () => {
  const { fake, input } = setup();
  input.pressButton({ x: 0, y: 0 }, 'left', ['shift']);
  input.dragTo({ x: 50, y: 25 }, 'left', ['shift']);
  input.releaseButton({ x: 100, y: 50 }, 'left', ['shift']);
  assert.deepEqual(fake.posted.map((e) => e.type), [5, 1, 6, 2]);
  assert.deepEqual(fake.posted.map((e) => e.location), [{ x: 0, y: 0 }, { x: 0, y: 0 }, { x: 50, y: 25 }, { x: 100, y: 50 }]);
  assert.deepEqual(fake.posted.slice(1).map((e) => e.flags), [0x20000n, 0x20000n, 0x20000n]);
  fake.posted.length = 0;
  input.pressButton({ x: 0, y: 0 }, 'right', []);
  input.dragTo({ x: 5, y: 0 }, 'right', []);
  input.releaseButton({ x: 5, y: 0 }, 'right', []);
  input.pressButton({ x: 0, y: 0 }, 'middle', []);
  input.dragTo({ x: 5, y: 0 }, 'middle', []);
  input.releaseButton({ x: 5, y: 0 }, 'middle', []);
  assert.deepEqual(fake.posted.map((e) => [e.type, e.button]), [[5, 0], [3, 1], [7, 1], [4, 1], [5, 0], [25, 2], [27, 2], [26, 2]]);
});

test('should read the cursor from a fresh event and release it, and warp without posting', () => {
  const { fake, input } = setup();
  fake.cursor = { x: 321, y: 123 };
  assert.deepEqual(input.cursorPosition(), { x: 321, y: 123 });
  input.warp({ x: 5, y: 7 });
  assert.deepEqual(fake.cursor, { x: 5, y: 7 });
  assert.equal(fake.posted.length, 0);
  assert.deepEqual(fake.leaks(), []);
});
