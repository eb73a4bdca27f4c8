import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { XIDeviceInfo } from 'x11';
import {
  eventMaskBits,
  parseGrabStatus,
  xiGrabDeviceRequest,
  xiUngrabDeviceRequest,
  xtestDeviceEventRequest,
} from '../../native/linux/xinputRequests.js';
import { bgrxToRgba } from '../../src/core/artifacts/pixels.js';
import { humanDevices, isPlainEnter, isPlainEscape } from '../../src/backends/linux/xinputGuard.js';
import { waylandSessionCheck, x11Checks } from '../../src/backends/linux/x11Checks.js';

const hex = (buffer: Buffer): string => buffer.toString('hex');

describe('x11 protocol helpers', () => {
  it('should build XIGrabDevice as in XI2proto.h (async, owner events, one mask word)', () => {
    const mask = eventMaskBits([2, 3, 4, 5, 6]);
    assert.equal(mask, 0x7c);
    const request = xiGrabDeviceRequest({ majorOpcode: 131, window: 0x1a2b3c4d, deviceId: 7, mask });
    // opcode 131, minor 51, length 7 | window | time 0 | cursor 0 | device 7, modes 1 1, owner 1, pad | mask_len 1 | mask
    assert.equal(hex(request), '83330700' + '4d3c2b1a' + '00000000' + '00000000' + '0700' + '01' + '01' + '01' + '00' + '0100' + '7c000000');
  });

  it('should build XIUngrabDevice as in XI2proto.h', () => {
    assert.equal(hex(xiUngrabDeviceRequest({ majorOpcode: 131, deviceId: 6 })), '83340300' + '00000000' + '0600' + '0000');
  });

  it('should read the status of an XIGrabDevice reply', () => {
    assert.equal(parseGrabStatus(Buffer.from([1, 0, 0, 0])), 1);
  });

  it('should build an XTEST FakeInput that carries an XI1 device key press', () => {
    const request = xtestDeviceEventRequest({ xtestOpcode: 132, xinputFirstEvent: 66, kind: 'key-press', detail: 9, deviceId: 7 });
    const expected = Buffer.alloc(36);
    expected.set([132, 2, 9, 0, 67, 9], 0);
    expected[35] = 7;
    assert.equal(hex(request), hex(expected));
  });

  it('should follow a device motion with a DeviceValuator event holding absolute axes', () => {
    const request = xtestDeviceEventRequest({ xtestOpcode: 132, xinputFirstEvent: 66, kind: 'motion', detail: 0, deviceId: 6, valuators: [321, 234] });
    assert.equal(request.length, 68);
    assert.equal(request.readUInt16LE(2), 17);
    assert.equal(request[4], 71); // DeviceMotionNotify = first event + 5
    assert.equal(request[35], 6);
    assert.deepEqual([...request.subarray(36, 44)], [66, 6, 0, 0, 0, 0, 2, 0]); // DeviceValuator, device 6, 2 axes from 0
    assert.equal(request.readInt32LE(44), 321);
    assert.equal(request.readInt32LE(48), 234);
  });

  it('should pick the human devices and never the XTEST ones or masters', () => {
    const device = (deviceId: number, use: number, name: string, enabled = 1): XIDeviceInfo => ({ deviceId, use, attachment: 0, enabled, name });
    const picked = humanDevices([
      device(2, 1, 'Virtual core pointer'),
      device(3, 2, 'Virtual core keyboard'),
      device(4, 3, 'Virtual core XTEST pointer'),
      device(5, 4, 'Virtual core XTEST keyboard'),
      device(6, 3, 'Xvfb mouse'),
      device(7, 4, 'Xvfb keyboard'),
      device(8, 4, 'Power Button', 0),
      device(9, 5, 'floating tablet'),
    ]);
    assert.deepEqual(picked.map((d) => d.deviceId), [6, 7]);
  });

  it('should treat Esc as plain with Caps/Num Lock on but not with Shift or Control held', () => {
    assert.equal(isPlainEscape(9, 0, 9), true);
    assert.equal(isPlainEscape(9, 0x02 | 0x10, 9), true);
    assert.equal(isPlainEscape(9, 0x01, 9), false);
    assert.equal(isPlainEscape(9, 0x04, 9), false);
    assert.equal(isPlainEscape(10, 0, 9), false);
  });

  it('should treat Return and keypad Enter as plain Enter with Caps/Num Lock on, not with a modifier held', () => {
    assert.equal(isPlainEnter(36, 0, [36, 104]), true);
    assert.equal(isPlainEnter(104, 0x10, [36, 104]), true);
    assert.equal(isPlainEnter(36, 0x01, [36, 104]), false);
    assert.equal(isPlainEnter(36, 0x40, [36, 104]), false);
    assert.equal(isPlainEnter(9, 0, [36, 104]), false);
  });

  it('should convert BGRX rows (with a padded stride) to packed, opaque RGBA', () => {
    const bgrx = Buffer.from([
      0x01, 0x02, 0x03, 0xff, 0x10, 0x20, 0x30, 0x00, 0xee, 0xee, 0xee, 0xee,
      0xaa, 0xbb, 0xcc, 0x00, 0x00, 0x00, 0x00, 0x00, 0xee, 0xee, 0xee, 0xee,
    ]);
    assert.deepEqual([...bgrxToRgba(bgrx, 2, 2, 12)], [0x03, 0x02, 0x01, 0xff, 0x30, 0x20, 0x10, 0xff, 0xcc, 0xbb, 0xaa, 0xff, 0, 0, 0, 0xff]);
    assert.deepEqual([...bgrxToRgba(bgrx.subarray(1), 1, 1)], [0xff, 0x03, 0x02, 0xff], 'an unaligned buffer is read right (B 02, G 03, R ff)');
    assert.throws(() => bgrxToRgba(Buffer.alloc(4), 2, 2));
  });

  it('should report a Wayland session as unsupported with the way out', () => {
    const wayland = waylandSessionCheck({ XDG_SESSION_TYPE: 'wayland' });
    assert.equal(wayland.state, 'denied');
    assert.match(wayland.remedy ?? '', /X11 session/);
    assert.equal(waylandSessionCheck({ WAYLAND_DISPLAY: 'wayland-0' }).state, 'denied');
    assert.equal(waylandSessionCheck({ XDG_SESSION_TYPE: 'x11' }).state, 'granted');
  });

  it('should deny the input guard below XInput 2.2', () => {
    const checks = x11Checks({ display: ':0', screen: { width: 1, height: 1 }, xtest: { major: 2, minor: 2 }, xinput: { major: 2, minor: 1 }, composite: null });
    assert.equal(checks.find((check) => check.id === 'xinput')?.state, 'denied');
    assert.equal(checks.find((check) => check.id === 'xtest')?.state, 'granted');
    assert.equal(checks.find((check) => check.id === 'composite')?.state, 'denied');
  });
});
