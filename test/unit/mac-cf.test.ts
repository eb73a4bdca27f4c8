import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CFScope, withCFScope } from '../../native/macos/cfScope.js';
import { CFDecoder } from '../../native/macos/cfDecode.js';
import { FakeMacNative } from './mac-fake-native.js';

function recordingCf(): { released: bigint[]; cf: { CFRelease(ref: bigint): void } } {
  const released: bigint[] = [];
  return {
    released,
    cf: {
      CFRelease(ref: bigint) {
        if (ref === null || ref === 0n) throw new Error('CFRelease(NULL)');
        released.push(ref);
      },
    },
  };
}

test('should release every adopted reference exactly once when the scope closes', () => {
  const { released, cf } = recordingCf();
  const scope = new CFScope(cf);
  scope.adopt(1n);
  scope.adopt(2n);
  scope.adopt(3n);
  scope.close();
  scope.close();
  assert.deepEqual(released.sort(), [1n, 2n, 3n]);
});

test('should never adopt or release NULL', () => {
  const { released, cf } = recordingCf();
  withCFScope(cf, (scope) => {
    assert.equal(scope.adopt(null), null);
    assert.equal(scope.adopt(0n), 0n);
    assert.equal(scope.size, 0);
  });
  assert.deepEqual(released, []);
});

test('should release a pointer adopted twice twice: CF hands out interned values again, +1 each time', () => {
  const { released, cf } = recordingCf();
  const scope = new CFScope(cf);
  scope.adopt(7n);
  scope.adopt(7n);
  scope.adopt(8n);
  assert.equal(scope.size, 3);
  assert.equal(scope.keep(7n), 7n, 'one of the two references moves out');
  assert.equal(scope.size, 2);
  scope.close();
  assert.deepEqual(released.sort(), [7n, 8n]);
  assert.throws(() => new CFScope(cf).keep(9n), /does not own/);
});

test('should balance kCFBooleanTrue read twice in one scope (the same pointer, +1 per copy)', () => {
  const fake = new FakeMacNative();
  const element = fake.elementRef({ role: 'AXButton', enabled: true, focused: true });
  withCFScope(fake.cf, (scope) => {
    const names = ['AXEnabled', 'AXFocused'].map((name) => scope.adopt(fake.cf.CFStringCreateWithCString(name))!);
    const values = names.map((name) => {
      const out: Array<bigint | null> = [null];
      assert.equal(fake.ax.AXUIElementCopyAttributeValue(element, name, out), 0);
      return scope.adopt(out[0]);
    });
    assert.equal(values[0], fake.cf.kCFBooleanTrue);
    assert.equal(values[1], fake.cf.kCFBooleanTrue, 'the same pointer, adopted twice');
  });
  assert.deepEqual(fake.leaks(), [], 'released exactly twice: neither leaked nor over-released');
});

test('should release on throw, and not release what was kept', () => {
  const { released, cf } = recordingCf();
  let kept = 0n;
  assert.throws(() =>
    withCFScope(cf, (scope) => {
      scope.adopt(10n);
      kept = scope.keep(scope.adopt(11n));
      throw new Error('boom');
    }),
  /boom/);
  assert.deepEqual(released, [10n]);
  assert.equal(kept, 11n);
});

test('should name the call when a Create returned NULL', () => {
  const { cf } = recordingCf();
  assert.throws(() => withCFScope(cf, (scope) => scope.adoptNonNull(null, 'CFArrayCreate')), /CFArrayCreate returned NULL/);
});

test('should decode strings, numbers, booleans and arrays by type id, and nothing else', () => {
  const fake = new FakeMacNative();
  const decoder = new CFDecoder(fake);
  withCFScope(fake.cf, (scope) => {
    const text = scope.adopt(fake.cf.CFStringCreateWithCString('héllo 😀'))!;
    const number = scope.adopt(fake.cf.CFNumberCreateFloat64(2.5))!;
    const whole = scope.adopt(fake.cf.CFNumberCreateFloat64(42))!;
    const array = scope.adopt(fake.cf.CFArrayCreate([text, number, fake.cf.kCFBooleanTrue]))!;
    assert.equal(decoder.kindOf(text), 'string');
    assert.equal(decoder.string(text), 'héllo 😀');
    assert.equal(decoder.string(number), null, 'a number is not read as a string');
    assert.equal(decoder.number(number), 2.5);
    assert.equal(decoder.number(whole), 42);
    assert.equal(decoder.number(text), null);
    assert.equal(decoder.boolean(fake.cf.kCFBooleanTrue), true);
    assert.equal(decoder.boolean(fake.cf.kCFBooleanFalse), false);
    assert.equal(decoder.kindOf(null), 'absent');
    assert.deepEqual(decoder.plain(array), ['héllo 😀', 2.5, true]);
    assert.deepEqual(decoder.arrayItems(text), []);
  });
  decoder.close();
  assert.deepEqual(fake.leaks(), []);
});

test('should decode AXValues of every geometry type and read an error slot as an error', () => {
  const fake = new FakeMacNative();
  const decoder = new CFDecoder(fake);
  const app = { role: 'AXApplication', position: { x: 3, y: 4 }, size: { width: 30, height: 40 } };
  fake.addApp(1, app);
  withCFScope(fake.cf, (scope) => {
    const element = scope.adopt(fake.ax.AXUIElementCreateApplication(1))!;
    const names = scope.adopt(fake.cf.CFArrayCreate(['AXPosition', 'AXSize', 'AXTitle'].map((n) => decoder.key(n))))!;
    const out: (bigint | null)[] = [null];
    assert.equal(fake.ax.AXUIElementCopyMultipleAttributeValues(element, names, 0, out), 0);
    const [position, size, title] = decoder.arrayItems(scope.adopt(out[0]));
    assert.deepEqual(decoder.axValue(position), { type: 'point', x: 3, y: 4 });
    assert.deepEqual(decoder.axValue(size), { type: 'size', width: 30, height: 40 });
    assert.deepEqual(decoder.axValue(title), { type: 'error', code: -25212 });
    assert.equal(decoder.string(title), null, 'an error slot is never a string');
    const range = scope.adopt(fake.ax.AXValueCreateRange(2, 5));
    assert.deepEqual(decoder.axValue(range), { type: 'range', location: 2, length: 5 });
  });
  decoder.close();
  assert.deepEqual(fake.leaks(), []);
});

test('should make the fake binding fail loudly on CFRelease(NULL) and double release', () => {
  const fake = new FakeMacNative();
  assert.throws(() => fake.cf.CFRelease(null as unknown as bigint), /NULL/);
  const text = fake.cf.CFStringCreateWithCString('x')!;
  fake.cf.CFRelease(text);
  assert.throws(() => fake.cf.CFRelease(text), /use after free/);
});
