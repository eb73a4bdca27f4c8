// Decoding CoreFoundation values into JS. CF type IDs are not constants: they are read once when
// a decoder is made, and every read checks the type before touching the object, so a slot that
// holds an error (AXValue of type kAXValueAXErrorType, or kCFNull) decodes to "absent", never to
// garbage. Everything here borrows (Get rule): nothing is released.

import type { MacNative, NullableRef, Ref } from './macNative.js';
import {
  kAXValueAXErrorType,
  kAXValueCFRangeType,
  kAXValueCGPointType,
  kAXValueCGRectType,
  kAXValueCGSizeType,
} from './macNative.js';

export type CFKind = 'string' | 'number' | 'boolean' | 'array' | 'dictionary' | 'null' | 'axvalue' | 'element' | 'other';

export type AXValueDecoded =
  | { type: 'point'; x: number; y: number }
  | { type: 'size'; width: number; height: number }
  | { type: 'rect'; x: number; y: number; width: number; height: number }
  | { type: 'range'; location: number; length: number }
  | { type: 'error'; code: number };

/** Plain JS for a CF property-list-like value (window-info dictionaries are read by key). */
export type CFPlain = string | number | boolean | null | CFPlain[];

export class CFDecoder {
  private readonly ids: Record<Exclude<CFKind, 'other'>, number>;
  private readonly keyCache = new Map<string, Ref>();

  constructor(private readonly native: Pick<MacNative, 'cf' | 'ax'>) {
    const { cf, ax } = native;
    this.ids = {
      string: cf.CFStringGetTypeID(),
      number: cf.CFNumberGetTypeID(),
      boolean: cf.CFBooleanGetTypeID(),
      array: cf.CFArrayGetTypeID(),
      dictionary: cf.CFDictionaryGetTypeID(),
      null: cf.CFNullGetTypeID(),
      axvalue: ax.AXValueGetTypeID(),
      element: ax.AXUIElementGetTypeID(),
    };
  }

  kindOf(ref: NullableRef): CFKind | 'absent' {
    if (ref === null || ref === 0n) return 'absent';
    const id = this.native.cf.CFGetTypeID(ref);
    for (const [kind, value] of Object.entries(this.ids)) if (value === id) return kind as CFKind;
    return 'other';
  }

  string(ref: NullableRef): string | null {
    if (this.kindOf(ref) !== 'string') return null;
    const { cf } = this.native;
    const length = cf.CFStringGetLength(ref as Ref);
    return cf.CFStringGetCharacters(ref as Ref, length).toString('utf16le');
  }

  number(ref: NullableRef): number | null {
    if (this.kindOf(ref) !== 'number') return null;
    const { cf } = this.native;
    return cf.CFNumberIsFloatType(ref as Ref) ? cf.CFNumberGetFloat64(ref as Ref) : cf.CFNumberGetSInt64(ref as Ref);
  }

  boolean(ref: NullableRef): boolean | null {
    const kind = this.kindOf(ref);
    if (kind === 'boolean') return this.native.cf.CFBooleanGetValue(ref as Ref);
    if (kind === 'number') return (this.number(ref) ?? 0) !== 0; // some apps answer 0/1
    return null;
  }

  /** Borrowed items of a CFArray ([] for anything else). */
  arrayItems(ref: NullableRef): NullableRef[] {
    if (this.kindOf(ref) !== 'array') return [];
    const { cf } = this.native;
    const count = cf.CFArrayGetCount(ref as Ref);
    return Array.from({ length: count }, (_, i) => cf.CFArrayGetValueAtIndex(ref as Ref, i));
  }

  isElement(ref: NullableRef): ref is Ref {
    return this.kindOf(ref) === 'element';
  }

  axValue(ref: NullableRef): AXValueDecoded | null {
    if (this.kindOf(ref) !== 'axvalue') return null;
    const { ax } = this.native;
    const type = ax.AXValueGetType(ref as Ref);
    const buffer = Buffer.alloc(32);
    if (!ax.AXValueGetValue(ref as Ref, type, buffer)) return null;
    switch (type) {
      case kAXValueCGPointType:
        return { type: 'point', x: buffer.readDoubleLE(0), y: buffer.readDoubleLE(8) };
      case kAXValueCGSizeType:
        return { type: 'size', width: buffer.readDoubleLE(0), height: buffer.readDoubleLE(8) };
      case kAXValueCGRectType:
        return { type: 'rect', x: buffer.readDoubleLE(0), y: buffer.readDoubleLE(8), width: buffer.readDoubleLE(16), height: buffer.readDoubleLE(24) };
      case kAXValueCFRangeType:
        return { type: 'range', location: Number(buffer.readBigInt64LE(0)), length: Number(buffer.readBigInt64LE(8)) };
      case kAXValueAXErrorType:
        return { type: 'error', code: buffer.readInt32LE(0) };
      default:
        return null;
    }
  }

  /** Generic decode of strings, numbers, booleans, null and arrays of those. */
  plain(ref: NullableRef, depth = 0): CFPlain | undefined {
    switch (this.kindOf(ref)) {
      case 'string':
        return this.string(ref);
      case 'number':
        return this.number(ref);
      case 'boolean':
        return this.boolean(ref);
      case 'null':
      case 'absent':
        return null;
      case 'array':
        return depth > 4 ? undefined : this.arrayItems(ref).map((item) => this.plain(item, depth + 1) ?? null);
      default:
        return undefined;
    }
  }

  /**
   * A cached CFString for a dictionary key or attribute name, created once per decoder and kept
   * until close() (like the constants they stand for).
   */
  key(name: string): Ref {
    let ref = this.keyCache.get(name);
    if (ref === undefined) {
      const created = this.native.cf.CFStringCreateWithCString(name);
      if (created === null) throw new Error(`CFStringCreateWithCString("${name}") returned NULL`);
      ref = created;
      this.keyCache.set(name, ref);
    }
    return ref;
  }

  /** Releases the cached key strings; the decoder must not be used afterwards. */
  close(): void {
    const keys = [...this.keyCache.values()];
    this.keyCache.clear();
    for (const key of keys) this.native.cf.CFRelease(key);
  }

  /** Borrowed value of a dictionary entry; `key` is a name (cached CFString) or a CFString ref. */
  dictValue(dict: NullableRef, key: string | Ref): NullableRef {
    if (this.kindOf(dict) !== 'dictionary') return null;
    return this.native.cf.CFDictionaryGetValue(dict as Ref, typeof key === 'string' ? this.key(key) : key);
  }
}
