// Hand-built XKB GetMap/SetMap requests for the key-symbol part of the keyboard map (the `x11`
// package implements neither). Layouts from the XKB protocol as xcb-proto's xkb.xml describes
// them; all little-endian, lengths in 4-byte units.
//
// Why XKB and not the core ChangeKeyboardMapping: one SetMap rewrites any range of keys — the
// ones in between written back exactly as they were — with ONE mapping notification, where the
// core request can only rewrite contiguous keycodes losslessly, so scattered spare keycodes cost
// one request (and one notification, which every client and the window manager act on) each.

const XKB_GET_MAP = 8;
const XKB_SET_MAP = 9;
/** XkbUseCoreKbd: the core keyboard, whatever its device id. */
export const XKB_USE_CORE_KBD = 0x100;
/** MapPart bit: key symbols. */
const XKB_KEY_SYMS = 1 << 1;
/** Canonical key type 0 (the XKB protocol fixes the first four): one level, no modifier matters. */
export const XKB_ONE_LEVEL = 0;

/** One key's symbols (KeySymMap): its type per group, how many groups, levels per group, syms. */
export interface XkbKeySyms {
  ktIndex: [number, number, number, number];
  /** Low four bits: the number of groups; the high bits: out-of-range group handling. */
  groupInfo: number;
  /** Levels per group. */
  width: number;
  /** width × groups keysyms, group by group. */
  syms: number[];
}

export interface XkbKeySymRange {
  minKeyCode: number;
  maxKeyCode: number;
  firstKeycode: number;
  keys: XkbKeySyms[];
}

/** XkbGetMap for the key symbols of `count` keys from `firstKeycode`, on the core keyboard. */
export function xkbGetKeySymsRequest(majorOpcode: number, firstKeycode: number, count: number): Buffer {
  const request = Buffer.alloc(28);
  request.writeUInt8(majorOpcode, 0);
  request.writeUInt8(XKB_GET_MAP, 1);
  request.writeUInt16LE(request.length / 4, 2);
  request.writeUInt16LE(XKB_USE_CORE_KBD, 4);
  request.writeUInt16LE(0, 6); // full: nothing
  request.writeUInt16LE(XKB_KEY_SYMS, 8); // partial: key symbols
  // 10 firstType, 11 nTypes: 0
  request.writeUInt8(firstKeycode, 12);
  request.writeUInt8(count, 13);
  // every other part: 0
  return request;
}

/** The reply of xkbGetKeySymsRequest, given the reply after its 8-byte header. */
export function parseXkbKeySymsReply(body: Buffer): XkbKeySymRange {
  const minKeyCode = body.readUInt8(2);
  const maxKeyCode = body.readUInt8(3);
  const firstKeycode = body.readUInt8(9);
  const nKeySyms = body.readUInt8(12);
  const keys: XkbKeySyms[] = [];
  let offset = 32;
  for (let key = 0; key < nKeySyms; key++) {
    const ktIndex: XkbKeySyms['ktIndex'] = [body.readUInt8(offset), body.readUInt8(offset + 1), body.readUInt8(offset + 2), body.readUInt8(offset + 3)];
    const groupInfo = body.readUInt8(offset + 4);
    const width = body.readUInt8(offset + 5);
    const nSyms = body.readUInt16LE(offset + 6);
    offset += 8;
    const syms: number[] = [];
    for (let sym = 0; sym < nSyms; sym++, offset += 4) syms.push(body.readUInt32LE(offset));
    keys.push({ ktIndex, groupInfo, width, syms });
  }
  return { minKeyCode, maxKeyCode, firstKeycode, keys };
}

/** XkbSetMap of the key symbols of `range.keys` from `range.firstKeycode` (nothing else changes). */
export function xkbSetKeySymsRequest(majorOpcode: number, range: XkbKeySymRange): Buffer {
  const totalSyms = range.keys.reduce((sum, key) => sum + key.syms.length, 0);
  const request = Buffer.alloc(36 + range.keys.length * 8 + totalSyms * 4);
  request.writeUInt8(majorOpcode, 0);
  request.writeUInt8(XKB_SET_MAP, 1);
  request.writeUInt16LE(request.length / 4, 2);
  request.writeUInt16LE(XKB_USE_CORE_KBD, 4);
  request.writeUInt16LE(XKB_KEY_SYMS, 6); // present
  request.writeUInt16LE(0, 8); // flags: no type resize, no action recompute
  request.writeUInt8(range.minKeyCode, 10);
  request.writeUInt8(range.maxKeyCode, 11);
  // 12 firstType, 13 nTypes: 0
  request.writeUInt8(range.firstKeycode, 14);
  request.writeUInt8(range.keys.length, 15);
  request.writeUInt16LE(totalSyms, 16);
  // 18–35: actions, behaviors, explicit, modmap, vmodmap, virtualMods: none
  let offset = 36;
  for (const key of range.keys) {
    key.ktIndex.forEach((index, group) => request.writeUInt8(index, offset + group));
    request.writeUInt8(key.groupInfo, offset + 4);
    request.writeUInt8(key.width, offset + 5);
    request.writeUInt16LE(key.syms.length, offset + 6);
    offset += 8;
    for (const sym of key.syms) {
      request.writeUInt32LE(sym >>> 0, offset);
      offset += 4;
    }
  }
  return request;
}

/** A key that types `keysym` on its only level, whatever the modifiers. */
export function oneLevelKey(keysym: number): XkbKeySyms {
  return { ktIndex: [XKB_ONE_LEVEL, XKB_ONE_LEVEL, XKB_ONE_LEVEL, XKB_ONE_LEVEL], groupInfo: 1, width: 1, syms: [keysym] };
}
