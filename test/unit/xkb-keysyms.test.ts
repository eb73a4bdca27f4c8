// The hand-built XKB GetMap/SetMap of key symbols, byte for byte against the layouts in the XKB
// protocol (xcb-proto's xkb.xml). The end-to-end suite proves them against a real X server
// (linux-x11-display: the keyboard mapping is restored exactly after typing Unicode).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XKB_USE_CORE_KBD, oneLevelKey, parseXkbKeySymsReply, xkbGetKeySymsRequest, xkbSetKeySymsRequest, type XkbKeySymRange } from '../../native/linux/xkbKeySymRequests.js';

const RANGE: XkbKeySymRange = {
  minKeyCode: 8,
  maxKeyCode: 255,
  firstKeycode: 93,
  keys: [
    { ktIndex: [0, 0, 0, 0], groupInfo: 0, width: 0, syms: [] },
    { ktIndex: [20, 0, 0, 0], groupInfo: 1, width: 4, syms: [60, 62, 124, 166] },
    oneLevelKey(0x010020ac),
  ],
};

describe('XKB key symbols requests', () => {
  it('should ask for the key symbols of a range of keys on the core keyboard', () => {
    const request = xkbGetKeySymsRequest(135, 93, 156);
    assert.equal(request.length, 28);
    assert.deepEqual([request[0], request[1], request.readUInt16LE(2)], [135, 8, 7], 'XKB major opcode, GetMap, 7 words');
    assert.equal(request.readUInt16LE(4), XKB_USE_CORE_KBD);
    assert.equal(request.readUInt16LE(6), 0, 'full: nothing');
    assert.equal(request.readUInt16LE(8), 2, 'partial: key symbols only');
    assert.deepEqual([request[12], request[13]], [93, 156]);
  });

  it('should write key symbols in the SetMap layout, and read them back from a reply', () => {
    const request = xkbSetKeySymsRequest(135, RANGE);
    const totalSyms = 5;
    assert.equal(request.length, 36 + 3 * 8 + totalSyms * 4);
    assert.deepEqual([request[0], request[1], request.readUInt16LE(2)], [135, 9, request.length / 4]);
    assert.equal(request.readUInt16LE(6), 2, 'present: key symbols');
    assert.deepEqual([request[10], request[11], request[14], request[15], request.readUInt16LE(16)], [8, 255, 93, 3, totalSyms]);
    assert.ok(request.subarray(18, 36).every((byte) => byte === 0), 'no other part of the map is touched');

    // A GetMap reply carries the same KeySymMap list after a 32-byte body header.
    const body = Buffer.alloc(32 + request.length - 36);
    body.writeUInt8(8, 2);
    body.writeUInt8(255, 3);
    body.writeUInt16LE(2, 4);
    body.writeUInt8(93, 9);
    body.writeUInt16LE(totalSyms, 10);
    body.writeUInt8(3, 12);
    request.copy(body, 32, 36);
    assert.deepEqual(parseXkbKeySymsReply(body), RANGE);
  });

  it('should make a borrowed key type its symbol on its only level', () => {
    assert.deepEqual(oneLevelKey(0xe9), { ktIndex: [0, 0, 0, 0], groupInfo: 1, width: 1, syms: [0xe9] });
  });
});
