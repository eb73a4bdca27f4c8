import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DbusVariant, DbusWireError, MESSAGE_TYPE, decodeMessage, encodeMessage, messageLength, parseSignature } from '../../native/linux/dbusWire.js';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

test('should lay out a method call byte for byte as the D-Bus specification does', () => {
  // Fixed header (16), then PATH "/" and MEMBER "M" fields, each 8-aligned, then padding to 8.
  const expected = hex(`
    6c010001 00000000 01000000 1a000000
    01016f00 01000000 2f000000 00000000
    03017300 01000000 4d000000 00000000`);
  assert.deepEqual(encodeMessage({ type: MESSAGE_TYPE.methodCall, serial: 1, path: '/', member: 'M' }), expected);
});

test('should read a big-endian message from another peer', () => {
  const message = decodeMessage(hex(`
    42040001 00000004 00000007 00000007
    08016700 01750000 01020304`));
  assert.equal(message.type, MESSAGE_TYPE.signal);
  assert.equal(message.serial, 7);
  assert.equal(message.signature, 'u');
  assert.deepEqual(message.body, [0x01020304]);
});

test('should round-trip every type an accessibility client uses, alignment included', () => {
  const cacheItem = [[':1.5', '/org/a11y/atspi/accessible/1'], [':1.5', '/org/a11y/atspi/accessible/root'], ['', '/org/a11y/atspi/null'], -1, 3, ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Component'], 'Count: 0 ✓', 43, '', [0x80000000, 7]];
  const body = [
    7, true, -2, 65000, -123456, 0xfffffffe, -(2n ** 40n), 2n ** 63n, 1.5, 'héllo € ✓', '/a/b', 'a(so)',
    [cacheItem, cacheItem],
    { Name: new DbusVariant('s', 'Save'), ChildCount: new DbusVariant('i', 4), Nested: new DbusVariant('(ii)', [1, 2]) },
    Buffer.from([1, 2, 3]),
    [],
  ];
  const signature = 'ybnqiuxtdsoga((so)(so)(so)iiassusau)a{sv}aya(ii)';
  const bytes = encodeMessage({ type: MESSAGE_TYPE.methodReturn, serial: 9, replySerial: 4, destination: ':1.7', signature, body });
  const decoded = decodeMessage(bytes);
  assert.equal(decoded.replySerial, 4);
  assert.equal(decoded.destination, ':1.7');
  assert.deepEqual(decoded.body, body);
  assert.equal(messageLength(bytes), bytes.length);
});

test('should say how long a message is from its first 16 bytes, and wait for more before that', () => {
  const bytes = encodeMessage({ type: MESSAGE_TYPE.methodCall, serial: 3, path: '/x', member: 'GetExtents', signature: 'u', body: [0] });
  assert.equal(messageLength(bytes.subarray(0, 15)), null);
  assert.equal(messageLength(bytes.subarray(0, 16)), bytes.length);
  assert.throws(() => decodeMessage(bytes.subarray(0, bytes.length - 1)), DbusWireError);
});

test('should refuse malformed input instead of reading past it', () => {
  assert.throws(() => messageLength(Buffer.alloc(16, 0x20)), /not a D-Bus message/);
  assert.throws(() => parseSignature('a(si'), DbusWireError);
  assert.throws(() => parseSignature('a{sss}'), DbusWireError);
  assert.throws(() => parseSignature('z'), DbusWireError);
  assert.throws(() => encodeMessage({ type: MESSAGE_TYPE.methodCall, serial: 1, path: '/', member: 'M', signature: 'ss', body: ['one'] }), /needs 2 values/);
  // An array whose declared length runs past the end of the message.
  const bytes = encodeMessage({ type: MESSAGE_TYPE.methodReturn, serial: 2, replySerial: 1, signature: 'as', body: [['a', 'b']] });
  const bodyAt = bytes.length - bytes.readUInt32LE(4);
  assert.equal(bytes.readUInt32LE(bodyAt), 14, 'the array length: "a" padded to 8 bytes, then "b" in 6');
  bytes.writeUInt32LE(10_000, bodyAt);
  assert.throws(() => decodeMessage(bytes), /array runs past the end/);
});
