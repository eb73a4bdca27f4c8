// XSETTINGS (freedesktop.org): the desktop's settings, published by its settings daemon as a
// property of the window owning the _XSETTINGS_S<screen> selection. Read for one thing: whether
// the person asked for reduced motion (Gtk/EnableAnimations = 0, see gtkAnimations.ts), which
// the overlay's pulse obeys.

export type XSettingValue = number | string | [number, number, number, number];

/** Parses an _XSETTINGS_SETTINGS property (its byte order is its first byte). */
export function parseXSettings(data: Buffer): Map<string, XSettingValue> {
  const settings = new Map<string, XSettingValue>();
  if (data.length < 12) return settings;
  const big = data[0] === 1; // MSBFirst
  const u16 = (at: number): number => (big ? data.readUInt16BE(at) : data.readUInt16LE(at));
  const u32 = (at: number): number => (big ? data.readUInt32BE(at) : data.readUInt32LE(at));
  const i32 = (at: number): number => (big ? data.readInt32BE(at) : data.readInt32LE(at));
  const pad4 = (n: number): number => (n + 3) & ~3;
  const count = u32(8);
  let at = 12;
  for (let i = 0; i < count && at + 8 <= data.length; i++) {
    const type = data[at];
    const nameLength = u16(at + 2);
    const name = data.toString('latin1', at + 4, at + 4 + nameLength);
    at += 4 + pad4(nameLength) + 4; // name, then the last-change serial
    if (type === 0) {
      settings.set(name, i32(at));
      at += 4;
    } else if (type === 1) {
      const length = u32(at);
      settings.set(name, data.toString('utf8', at + 4, at + 4 + length));
      at += 4 + pad4(length);
    } else if (type === 2) {
      settings.set(name, [u16(at), u16(at + 2), u16(at + 4), u16(at + 6)]);
      at += 8;
    } else {
      break; // an unknown type: its size is unknown, stop here
    }
  }
  return settings;
}
