// Hand-built RandR 1.5 requests the `x11` package lacks (it stops at CRTCs, which miss the
// monitors a desktop defines itself, e.g. one wide output split in two). Layouts from
// randrproto.txt: little-endian, lengths in 4-byte units.

export const RR_QUERY_VERSION = 0;
export const RR_GET_MONITORS = 42;
export const RR_SET_MONITOR = 43;
export const RR_DELETE_MONITOR = 44;

export interface RandrMonitor {
  /** The monitor's name, an atom. */
  name: number;
  primary: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The outputs (RandR OUTPUT ids) it is shown on; none for a monitor a client defined by area. */
  outputs?: number[];
}

/** RRQueryVersion: the client's version; the reply (body after its 8-byte header) holds the server's. */
export function rrQueryVersionRequest(majorOpcode: number, major = 1, minor = 5): Buffer {
  const request = Buffer.alloc(12);
  request.writeUInt8(majorOpcode, 0);
  request.writeUInt8(RR_QUERY_VERSION, 1);
  request.writeUInt16LE(3, 2);
  request.writeUInt32LE(major, 4);
  request.writeUInt32LE(minor, 8);
  return request;
}

export function parseRrVersion(body: Buffer): { major: number; minor: number } {
  return { major: body.readUInt32LE(0), minor: body.readUInt32LE(4) };
}

/** RRGetMonitors of `window`'s screen; active ones only (those shown on a lit output). */
export function rrGetMonitorsRequest(majorOpcode: number, window: number): Buffer {
  const request = Buffer.alloc(12);
  request.writeUInt8(majorOpcode, 0);
  request.writeUInt8(RR_GET_MONITORS, 1);
  request.writeUInt16LE(3, 2);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt8(1, 8); // get_active
  return request;
}

/** The monitors of an RRGetMonitors reply, given the reply after its 8-byte header. */
export function parseMonitors(body: Buffer): RandrMonitor[] {
  const count = body.readUInt32LE(4);
  const monitors: RandrMonitor[] = [];
  // timestamp, nMonitors, nOutputs, 12 bytes of padding: the list starts 24 bytes in.
  let at = 24;
  for (let i = 0; i < count && at + 24 <= body.length; i++) {
    const outputCount = body.readUInt16LE(at + 6);
    const outputs: number[] = [];
    for (let o = 0; o < outputCount && at + 28 + o * 4 <= body.length; o++) outputs.push(body.readUInt32LE(at + 24 + o * 4));
    monitors.push({
      name: body.readUInt32LE(at),
      primary: body.readUInt8(at + 4) !== 0,
      x: body.readInt16LE(at + 8),
      y: body.readInt16LE(at + 10),
      width: body.readUInt16LE(at + 12),
      height: body.readUInt16LE(at + 14),
      outputs,
    });
    at += 24 + outputCount * 4;
  }
  return monitors;
}

/**
 * RRSetMonitor: defines (or replaces, by name) a monitor — how a desktop splits one output, and
 * how the tests make two monitors on a one-screen Xvfb. A monitor naming an output takes that
 * output from the server's automatic monitor.
 */
export function rrSetMonitorRequest(majorOpcode: number, window: number, monitor: RandrMonitor): Buffer {
  const outputs = monitor.outputs ?? [];
  const request = Buffer.alloc(32 + outputs.length * 4);
  request.writeUInt8(majorOpcode, 0);
  request.writeUInt8(RR_SET_MONITOR, 1);
  request.writeUInt16LE(request.length / 4, 2);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt32LE(monitor.name >>> 0, 8);
  request.writeUInt8(monitor.primary ? 1 : 0, 12);
  request.writeUInt8(0, 13); // automatic
  request.writeUInt16LE(outputs.length, 14);
  request.writeInt16LE(monitor.x, 16);
  request.writeInt16LE(monitor.y, 18);
  request.writeUInt16LE(monitor.width, 20);
  request.writeUInt16LE(monitor.height, 22);
  // width and height in millimetres (24, 28): unknown, 0.
  outputs.forEach((output, index) => request.writeUInt32LE(output >>> 0, 32 + index * 4));
  return request;
}

export function rrDeleteMonitorRequest(majorOpcode: number, window: number, name: number): Buffer {
  const request = Buffer.alloc(12);
  request.writeUInt8(majorOpcode, 0);
  request.writeUInt8(RR_DELETE_MONITOR, 1);
  request.writeUInt16LE(3, 2);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt32LE(name >>> 0, 8);
  return request;
}
