// Hand-built XInput requests the `x11` package lacks. Layouts from XI2proto.h / XIproto.h and
// the XTEST protocol (xtestproto): all little-endian, lengths in 4-byte units.

/** XI2 minor opcodes. */
export const XI_GRAB_DEVICE = 51;
export const XI_UNGRAB_DEVICE = 52;

/** XI2 event types (also the bit of each in an event mask). */
export const XI_EVENT = {
  keyPress: 2,
  keyRelease: 3,
  buttonPress: 4,
  buttonRelease: 5,
  motion: 6,
  hierarchyChanged: 11,
} as const;

export const XI_GRAB_MODE_ASYNC = 1;
export const XI_GRAB_SUCCESS = 0;
export const XI_ALL_DEVICES = 0;

/** XI1 event offsets from the extension's first event number (XIproto.h). */
export const XI1_EVENT_OFFSET = {
  deviceValuator: 0,
  deviceKeyPress: 1,
  deviceKeyRelease: 2,
  deviceButtonPress: 3,
  deviceButtonRelease: 4,
  deviceMotionNotify: 5,
} as const;

/** XTEST minor opcode of FakeInput. */
export const XTEST_FAKE_INPUT = 2;

export function eventMaskBits(types: readonly number[]): number {
  return types.reduce((mask, type) => (mask | (1 << type)) >>> 0, 0);
}

/**
 * XIGrabDevice: an active grab of one device on `window`. Async for this device and its paired
 * one, owner events on, no cursor change, CurrentTime. The reply's status byte says whether it
 * took (XI_GRAB_SUCCESS).
 */
export function xiGrabDeviceRequest(options: { majorOpcode: number; window: number; deviceId: number; mask: number }): Buffer {
  const maskWords = 1;
  const request = Buffer.alloc(24 + maskWords * 4);
  request.writeUInt8(options.majorOpcode, 0);
  request.writeUInt8(XI_GRAB_DEVICE, 1);
  request.writeUInt16LE(request.length / 4, 2);
  request.writeUInt32LE(options.window >>> 0, 4);
  request.writeUInt32LE(0, 8); // time: CurrentTime
  request.writeUInt32LE(0, 12); // cursor: None
  request.writeUInt16LE(options.deviceId, 16);
  request.writeUInt8(XI_GRAB_MODE_ASYNC, 18); // grab_mode
  request.writeUInt8(XI_GRAB_MODE_ASYNC, 19); // paired_device_mode
  request.writeUInt8(1, 20); // owner_events
  request.writeUInt16LE(maskWords, 22);
  request.writeUInt32LE(options.mask >>> 0, 24);
  return request;
}

/** XIUngrabDevice: releases this client's grab of the device (a no-op when there is none). */
export function xiUngrabDeviceRequest(options: { majorOpcode: number; deviceId: number }): Buffer {
  const request = Buffer.alloc(12);
  request.writeUInt8(options.majorOpcode, 0);
  request.writeUInt8(XI_UNGRAB_DEVICE, 1);
  request.writeUInt16LE(3, 2);
  request.writeUInt32LE(0, 4); // time: CurrentTime
  request.writeUInt16LE(options.deviceId, 8);
  return request;
}

/** The status byte of an XIGrabDevice reply, given the reply after its 8-byte header. */
export function parseGrabStatus(body: Buffer): number {
  return body.readUInt8(0);
}

/**
 * XTEST FakeInput carrying an XI1 device event: the server takes it as input from `deviceId`
 * (a real slave device), not from the XTEST device. Motion needs absolute valuators, sent as
 * DeviceValuator events after the first one (at most 6 per event).
 */
export function xtestDeviceEventRequest(options: {
  xtestOpcode: number;
  xinputFirstEvent: number;
  kind: 'key-press' | 'key-release' | 'button-press' | 'button-release' | 'motion';
  /** Keycode or button number; 0 for motion (absolute). */
  detail: number;
  deviceId: number;
  valuators?: readonly number[];
}): Buffer {
  const offsets = {
    'key-press': XI1_EVENT_OFFSET.deviceKeyPress,
    'key-release': XI1_EVENT_OFFSET.deviceKeyRelease,
    'button-press': XI1_EVENT_OFFSET.deviceButtonPress,
    'button-release': XI1_EVENT_OFFSET.deviceButtonRelease,
    motion: XI1_EVENT_OFFSET.deviceMotionNotify,
  } as const;
  const valuators = options.valuators ?? [];
  const valuatorEvents = Math.ceil(valuators.length / 6);
  const request = Buffer.alloc(36 + 32 * valuatorEvents);
  request.writeUInt8(options.xtestOpcode, 0);
  request.writeUInt8(XTEST_FAKE_INPUT, 1);
  request.writeUInt16LE(request.length / 4, 2);
  request.writeUInt8(options.xinputFirstEvent + offsets[options.kind], 4);
  request.writeUInt8(options.detail, 5);
  // time (8), root (12), rootX/rootY (24/26) stay 0: CurrentTime, the device's own screen.
  request.writeUInt8(options.deviceId & 0x7f, 35);
  for (let index = 0; index < valuatorEvents; index++) {
    const at = 36 + index * 32;
    const chunk = valuators.slice(index * 6, index * 6 + 6);
    request.writeUInt8(options.xinputFirstEvent + XI1_EVENT_OFFSET.deviceValuator, at);
    request.writeUInt8(options.deviceId & 0x7f, at + 1);
    request.writeUInt8(chunk.length, at + 6); // num_valuators
    request.writeUInt8(index * 6, at + 7); // first_valuator
    chunk.forEach((value, slot) => request.writeInt32LE(Math.round(value), at + 8 + slot * 4));
  }
  return request;
}
