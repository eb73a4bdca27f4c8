// The koffi implementation of MacNative: every C declaration Tandem makes on macOS, in one
// place. Only loadMacNative.ts imports this file, and only on darwin, so nothing here runs (and
// no library is opened) on Linux. Declarations use type objects rather than C prototype strings
// so no named koffi type is registered twice when a worker thread loads this module again.
//
// Conventions (see /work/shared/notes/macos.md): CF `Boolean` is an unsigned char → 'uint8_t';
// C `bool` → 'bool'; CFIndex/NSInteger → 'long'; out-params are single-element arrays;
// variadic functions are never declared (objc_msgSend gets one declaration per signature).

import type koffiModule from 'koffi';
import type {
  AccessibilityApi,
  CGPoint,
  CGRect,
  CoreFoundationApi,
  CoreGraphicsApi,
  HIToolboxApi,
  LayoutKey,
  MacNative,
  NativeCallbacks,
  NullableRef,
  LibprocApi,
  ObjcApi,
  Ref,
  WindowInfoKey,
} from './macNative.js';
import { kAXValueCFRangeType, kCFNumberFloat64Type, kCFNumberSInt64Type, kCFStringEncodingUTF8, WINDOW_INFO_KEYS } from './macNative.js';
import { decodeProcBsdInfo, PROC_BSDINFO_SIZE, PROC_PIDPATHINFO_MAXSIZE, PROC_PIDTBSDINFO } from './procBsdInfo.js';

type Koffi = typeof koffiModule;
type Library = ReturnType<Koffi['load']>;
// koffi's functions are untyped at the boundary; each is wrapped below with a typed signature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type NativeFn = (...args: any[]) => any;

export const FRAMEWORKS = {
  coreFoundation: '/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation',
  // AX lives in HIServices, re-exported by the ApplicationServices umbrella (?): dlsym on the
  // umbrella handle is expected to find it; a missing symbol throws at load, loudly.
  applicationServices: '/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices',
  coreGraphics: '/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics',
  appKit: '/System/Library/Frameworks/AppKit.framework/AppKit',
  objc: '/usr/lib/libobjc.A.dylib',
  /** HIToolbox (IsSecureEventInputEnabled), re-exported by the Carbon umbrella. */
  carbon: '/System/Library/Frameworks/Carbon.framework/Carbon',
  /** libproc lives in libSystem (libsystem_kernel, re-exported). */
  libSystem: '/usr/lib/libSystem.B.dylib',
} as const;

function pointerArray(values: readonly Ref[]): Buffer {
  const buffer = Buffer.alloc(Math.max(8, values.length * 8));
  values.forEach((value, i) => buffer.writeBigUInt64LE(value, i * 8));
  return buffer;
}

export function createKoffiMacNative(koffi: Koffi): MacNative {
  const VOIDP = koffi.pointer(koffi.types.void);
  const OUT_VOIDP = koffi.out(koffi.pointer(VOIDP));
  const OUT_I32 = koffi.out(koffi.pointer(koffi.types.int32_t));
  const OUT_U32 = koffi.out(koffi.pointer(koffi.types.uint32_t));
  const OUT_U8 = koffi.out(koffi.pointer(koffi.types.uint8_t));
  const CGPointT = koffi.struct({ x: 'double', y: 'double' });
  const CGSizeT = koffi.struct({ width: 'double', height: 'double' });
  const CGRectT = koffi.struct({ origin: CGPointT, size: CGSizeT });
  const CFRangeT = koffi.struct({ location: 'long', length: 'long' });
  const OUT_CGRECT = koffi.out(koffi.pointer(CGRectT));
  const TapCallback = koffi.proto(VOIDP, [VOIDP, 'uint32_t', VOIDP, VOIDP]);
  const ObserverCallback = koffi.proto('void', [VOIDP, VOIDP, VOIDP, VOIDP]);

  const cfLib = koffi.load(FRAMEWORKS.coreFoundation);
  const axLib = koffi.load(FRAMEWORKS.applicationServices);
  const cgLib = koffi.load(FRAMEWORKS.coreGraphics);
  const objcLib = koffi.load(FRAMEWORKS.objc);
  const systemLib = koffi.load(FRAMEWORKS.libSystem);
  const carbonLib = koffi.load(FRAMEWORKS.carbon);

  const fn = (lib: Library, name: string, result: unknown, args: unknown[]): NativeFn =>
    lib.func(name, result as never, args as never[]) as unknown as NativeFn;
  /** Reads a pointer-typed exported variable (CFStringRef / CFBooleanRef globals). */
  const globalRef = (lib: Library, name: string): Ref => {
    const value = koffi.decode(lib.symbol(name), VOIDP) as NullableRef;
    if (value === null) throw new Error(`macOS global ${name} is NULL`);
    return value;
  };

  // — CoreFoundation —
  const CFRelease = fn(cfLib, 'CFRelease', 'void', [VOIDP]);
  const CFRetain = fn(cfLib, 'CFRetain', VOIDP, [VOIDP]);
  const CFGetTypeID = fn(cfLib, 'CFGetTypeID', 'ulong', [VOIDP]);
  const CFHash = fn(cfLib, 'CFHash', 'ulong', [VOIDP]);
  const CFEqual = fn(cfLib, 'CFEqual', 'uint8_t', [VOIDP, VOIDP]);
  const typeId = (name: string): (() => number) => fn(cfLib, name, 'ulong', []);
  const CFStringCreateWithCString = fn(cfLib, 'CFStringCreateWithCString', VOIDP, [VOIDP, 'str', 'uint32_t']);
  const CFStringGetLength = fn(cfLib, 'CFStringGetLength', 'long', [VOIDP]);
  const CFStringGetCharacters = fn(cfLib, 'CFStringGetCharacters', 'void', [VOIDP, CFRangeT, VOIDP]);
  const CFNumberIsFloatType = fn(cfLib, 'CFNumberIsFloatType', 'uint8_t', [VOIDP]);
  const CFNumberGetValue = fn(cfLib, 'CFNumberGetValue', 'uint8_t', [VOIDP, 'long', VOIDP]);
  const CFNumberCreate = fn(cfLib, 'CFNumberCreate', VOIDP, [VOIDP, 'long', VOIDP]);
  const CFBooleanGetValue = fn(cfLib, 'CFBooleanGetValue', 'uint8_t', [VOIDP]);
  const CFArrayGetCount = fn(cfLib, 'CFArrayGetCount', 'long', [VOIDP]);
  const CFArrayGetValueAtIndex = fn(cfLib, 'CFArrayGetValueAtIndex', VOIDP, [VOIDP, 'long']);
  const CFArrayCreate = fn(cfLib, 'CFArrayCreate', VOIDP, [VOIDP, VOIDP, 'long', VOIDP]);
  const CFDictionaryGetCount = fn(cfLib, 'CFDictionaryGetCount', 'long', [VOIDP]);
  const CFDictionaryGetValue = fn(cfLib, 'CFDictionaryGetValue', VOIDP, [VOIDP, VOIDP]);
  const CFDictionaryCreate = fn(cfLib, 'CFDictionaryCreate', VOIDP, [VOIDP, VOIDP, VOIDP, 'long', VOIDP, VOIDP]);
  const CFRunLoopGetCurrent = fn(cfLib, 'CFRunLoopGetCurrent', VOIDP, []);
  const CFRunLoopAddSource = fn(cfLib, 'CFRunLoopAddSource', 'void', [VOIDP, VOIDP, VOIDP]);
  const CFRunLoopRemoveSource = fn(cfLib, 'CFRunLoopRemoveSource', 'void', [VOIDP, VOIDP, VOIDP]);
  const CFRunLoopRunInMode = fn(cfLib, 'CFRunLoopRunInMode', 'int32_t', [VOIDP, 'double', 'uint8_t']);
  const CFMachPortCreateRunLoopSource = fn(cfLib, 'CFMachPortCreateRunLoopSource', VOIDP, [VOIDP, VOIDP, 'long']);
  const CFMachPortInvalidate = fn(cfLib, 'CFMachPortInvalidate', 'void', [VOIDP]);
  // Struct globals: their address is what the Create functions take.
  const arrayCallBacks = cfLib.symbol('kCFTypeArrayCallBacks') as Ref;
  const dictKeyCallBacks = cfLib.symbol('kCFTypeDictionaryKeyCallBacks') as Ref;
  const dictValueCallBacks = cfLib.symbol('kCFTypeDictionaryValueCallBacks') as Ref;
  const number8 = Buffer.alloc(8);

  const cf: CoreFoundationApi = {
    CFRelease: (ref) => {
      if (ref === null || ref === 0n) throw new Error('CFRelease(NULL) refused: it would crash the process');
      CFRelease(ref);
    },
    CFRetain: (ref) => CFRetain(ref) as Ref,
    CFGetTypeID: (ref) => Number(CFGetTypeID(ref)),
    CFHash: (ref) => Number(CFHash(ref)),
    CFEqual: (a, b) => CFEqual(a, b) !== 0,
    CFStringGetTypeID: typeId('CFStringGetTypeID'),
    CFNumberGetTypeID: typeId('CFNumberGetTypeID'),
    CFBooleanGetTypeID: typeId('CFBooleanGetTypeID'),
    CFArrayGetTypeID: typeId('CFArrayGetTypeID'),
    CFDictionaryGetTypeID: typeId('CFDictionaryGetTypeID'),
    CFNullGetTypeID: typeId('CFNullGetTypeID'),
    CFStringCreateWithCString: (text) => CFStringCreateWithCString(null, text, kCFStringEncodingUTF8) as NullableRef,
    CFStringGetLength: (ref) => Number(CFStringGetLength(ref)),
    CFStringGetCharacters: (ref, length) => {
      const buffer = Buffer.alloc(length * 2);
      if (length > 0) CFStringGetCharacters(ref, { location: 0, length }, buffer);
      return buffer;
    },
    CFNumberIsFloatType: (ref) => CFNumberIsFloatType(ref) !== 0,
    CFNumberGetFloat64: (ref) => (CFNumberGetValue(ref, kCFNumberFloat64Type, number8) !== 0 ? number8.readDoubleLE(0) : null),
    CFNumberGetSInt64: (ref) => (CFNumberGetValue(ref, kCFNumberSInt64Type, number8) !== 0 ? Number(number8.readBigInt64LE(0)) : null),
    CFNumberCreateFloat64: (value) => {
      const buffer = Buffer.alloc(8);
      buffer.writeDoubleLE(value, 0);
      return CFNumberCreate(null, kCFNumberFloat64Type, buffer) as NullableRef;
    },
    CFBooleanGetValue: (ref) => CFBooleanGetValue(ref) !== 0,
    CFArrayGetCount: (ref) => Number(CFArrayGetCount(ref)),
    CFArrayGetValueAtIndex: (ref, index) => CFArrayGetValueAtIndex(ref, index) as NullableRef,
    CFArrayCreate: (values) => CFArrayCreate(null, pointerArray(values), values.length, arrayCallBacks) as NullableRef,
    CFDictionaryGetCount: (ref) => Number(CFDictionaryGetCount(ref)),
    CFDictionaryGetValue: (ref, key) => CFDictionaryGetValue(ref, key) as NullableRef,
    CFDictionaryCreate: (keys, values) =>
      CFDictionaryCreate(null, pointerArray(keys), pointerArray(values), keys.length, dictKeyCallBacks, dictValueCallBacks) as NullableRef,
    CFRunLoopGetCurrent: () => CFRunLoopGetCurrent() as Ref,
    CFRunLoopAddSource: (runLoop, source, mode) => CFRunLoopAddSource(runLoop, source, mode),
    CFRunLoopRemoveSource: (runLoop, source, mode) => CFRunLoopRemoveSource(runLoop, source, mode),
    CFRunLoopRunInMode: (mode, seconds, returnAfter) => CFRunLoopRunInMode(mode, seconds, returnAfter ? 1 : 0) as number,
    CFMachPortCreateRunLoopSource: (port, order) => CFMachPortCreateRunLoopSource(null, port, order) as NullableRef,
    CFMachPortInvalidate: (port) => CFMachPortInvalidate(port),
    kCFBooleanTrue: globalRef(cfLib, 'kCFBooleanTrue'),
    kCFBooleanFalse: globalRef(cfLib, 'kCFBooleanFalse'),
    kCFRunLoopDefaultMode: globalRef(cfLib, 'kCFRunLoopDefaultMode'),
    kCFRunLoopCommonModes: globalRef(cfLib, 'kCFRunLoopCommonModes'),
  };

  // — Accessibility (HIServices) —
  const axGetWindow = (() => {
    try {
      return fn(axLib, '_AXUIElementGetWindow', 'int32_t', [VOIDP, OUT_U32]);
    } catch {
      return null; // private symbol (?): window ids then come from CGWindowList matching
    }
  })();
  const AXValueCreate = fn(axLib, 'AXValueCreate', VOIDP, ['uint32_t', VOIDP]);
  const AXValueGetValue = fn(axLib, 'AXValueGetValue', 'uint8_t', [VOIDP, 'uint32_t', VOIDP]);
  const AXUIElementIsAttributeSettable = fn(axLib, 'AXUIElementIsAttributeSettable', 'int32_t', [VOIDP, VOIDP, OUT_U8]);
  const ax: AccessibilityApi = {
    AXIsProcessTrusted: ((f: NativeFn) => () => f() !== 0)(fn(axLib, 'AXIsProcessTrusted', 'uint8_t', [])),
    AXIsProcessTrustedWithOptions: ((f: NativeFn) => (options: NullableRef) => f(options) !== 0)(
      fn(axLib, 'AXIsProcessTrustedWithOptions', 'uint8_t', [VOIDP]),
    ),
    AXUIElementCreateApplication: fn(axLib, 'AXUIElementCreateApplication', VOIDP, ['int32_t']),
    AXUIElementCreateSystemWide: fn(axLib, 'AXUIElementCreateSystemWide', VOIDP, []),
    AXUIElementGetTypeID: ((f: NativeFn) => () => Number(f()))(fn(axLib, 'AXUIElementGetTypeID', 'ulong', [])),
    AXValueGetTypeID: ((f: NativeFn) => () => Number(f()))(fn(axLib, 'AXValueGetTypeID', 'ulong', [])),
    AXUIElementCopyAttributeValue: fn(axLib, 'AXUIElementCopyAttributeValue', 'int32_t', [VOIDP, VOIDP, OUT_VOIDP]),
    AXUIElementCopyMultipleAttributeValues: fn(axLib, 'AXUIElementCopyMultipleAttributeValues', 'int32_t', [VOIDP, VOIDP, 'uint32_t', OUT_VOIDP]),
    AXUIElementCopyActionNames: fn(axLib, 'AXUIElementCopyActionNames', 'int32_t', [VOIDP, OUT_VOIDP]),
    AXUIElementSetAttributeValue: fn(axLib, 'AXUIElementSetAttributeValue', 'int32_t', [VOIDP, VOIDP, VOIDP]),
    AXUIElementIsAttributeSettable: (element, attribute, out) => {
      const raw = [0];
      const error = AXUIElementIsAttributeSettable(element, attribute, raw) as number;
      out[0] = raw[0] !== 0;
      return error;
    },
    AXUIElementPerformAction: fn(axLib, 'AXUIElementPerformAction', 'int32_t', [VOIDP, VOIDP]),
    // float, not double: a double here would pass garbage seconds.
    AXUIElementSetMessagingTimeout: fn(axLib, 'AXUIElementSetMessagingTimeout', 'int32_t', [VOIDP, 'float']),
    AXUIElementGetPid: fn(axLib, 'AXUIElementGetPid', 'int32_t', [VOIDP, OUT_I32]),
    // floats, like the messaging timeout.
    AXUIElementCopyElementAtPosition: fn(axLib, 'AXUIElementCopyElementAtPosition', 'int32_t', [VOIDP, 'float', 'float', OUT_VOIDP]),
    _AXUIElementGetWindow: axGetWindow,
    AXValueGetType: fn(axLib, 'AXValueGetType', 'uint32_t', [VOIDP]),
    AXValueCreateRange: (location, length) => {
      const range = Buffer.alloc(16);
      range.writeBigInt64LE(BigInt(location), 0);
      range.writeBigInt64LE(BigInt(length), 8);
      return AXValueCreate(kAXValueCFRangeType, range) as NullableRef;
    },
    AXValueGetValue: (value, type, buffer) => AXValueGetValue(value, type, buffer) !== 0,
    AXObserverCreate: fn(axLib, 'AXObserverCreate', 'int32_t', ['int32_t', koffi.pointer(ObserverCallback), OUT_VOIDP]),
    AXObserverAddNotification: fn(axLib, 'AXObserverAddNotification', 'int32_t', [VOIDP, VOIDP, VOIDP, VOIDP]),
    AXObserverRemoveNotification: fn(axLib, 'AXObserverRemoveNotification', 'int32_t', [VOIDP, VOIDP, VOIDP]),
    AXObserverGetRunLoopSource: fn(axLib, 'AXObserverGetRunLoopSource', VOIDP, [VOIDP]),
    kAXTrustedCheckOptionPrompt: globalRef(axLib, 'kAXTrustedCheckOptionPrompt'),
  };

  // — CoreGraphics —
  const CGEventGetFlags = fn(cgLib, 'CGEventGetFlags', 'uint64_t', [VOIDP]);
  const CGEventGetIntegerValueField = fn(cgLib, 'CGEventGetIntegerValueField', 'int64_t', [VOIDP, 'uint32_t']);
  const CGEventKeyboardSetUnicodeString = fn(cgLib, 'CGEventKeyboardSetUnicodeString', 'void', [VOIDP, 'ulong', VOIDP]);
  const CGRectMakeWithDictionaryRepresentation = fn(cgLib, 'CGRectMakeWithDictionaryRepresentation', 'bool', [VOIDP, OUT_CGRECT]);
  const CGGetActiveDisplayList = fn(cgLib, 'CGGetActiveDisplayList', 'int32_t', ['uint32_t', VOIDP, OUT_U32]);
  const CGDisplayCopyDisplayMode = fn(cgLib, 'CGDisplayCopyDisplayMode', VOIDP, ['uint32_t']);
  const CGDisplayModeGetWidth = fn(cgLib, 'CGDisplayModeGetWidth', 'size_t', [VOIDP]);
  const CGDisplayModeGetPixelWidth = fn(cgLib, 'CGDisplayModeGetPixelWidth', 'size_t', [VOIDP]);
  const CGDisplayModeRelease = fn(cgLib, 'CGDisplayModeRelease', 'void', [VOIDP]);
  const cg: CoreGraphicsApi = {
    CGEventCreate: fn(cgLib, 'CGEventCreate', VOIDP, [VOIDP]),
    CGEventCreateMouseEvent: fn(cgLib, 'CGEventCreateMouseEvent', VOIDP, [VOIDP, 'uint32_t', CGPointT, 'uint32_t']),
    CGEventCreateKeyboardEvent: fn(cgLib, 'CGEventCreateKeyboardEvent', VOIDP, [VOIDP, 'uint16_t', 'bool']),
    CGEventCreateScrollWheelEvent2: fn(cgLib, 'CGEventCreateScrollWheelEvent2', VOIDP, [VOIDP, 'uint32_t', 'uint32_t', 'int32_t', 'int32_t', 'int32_t']),
    CGEventPost: fn(cgLib, 'CGEventPost', 'void', ['uint32_t', VOIDP]),
    CGEventGetLocation: fn(cgLib, 'CGEventGetLocation', CGPointT, [VOIDP]) as (event: Ref) => CGPoint,
    CGEventGetType: fn(cgLib, 'CGEventGetType', 'uint32_t', [VOIDP]),
    CGEventGetFlags: (event) => BigInt(CGEventGetFlags(event)),
    CGEventSetFlags: fn(cgLib, 'CGEventSetFlags', 'void', [VOIDP, 'uint64_t']),
    CGEventGetIntegerValueField: (event, field) => BigInt(CGEventGetIntegerValueField(event, field)),
    CGEventSetIntegerValueField: fn(cgLib, 'CGEventSetIntegerValueField', 'void', [VOIDP, 'uint32_t', 'int64_t']),
    CGEventKeyboardSetUnicodeString: (event, utf16) => CGEventKeyboardSetUnicodeString(event, utf16.length / 2, utf16),
    CGWarpMouseCursorPosition: fn(cgLib, 'CGWarpMouseCursorPosition', 'int32_t', [CGPointT]),
    CGEventTapCreate: fn(cgLib, 'CGEventTapCreate', VOIDP, ['uint32_t', 'uint32_t', 'uint32_t', 'uint64_t', VOIDP, VOIDP]),
    CGEventTapEnable: fn(cgLib, 'CGEventTapEnable', 'void', [VOIDP, 'bool']),
    CGEventTapIsEnabled: fn(cgLib, 'CGEventTapIsEnabled', 'bool', [VOIDP]),
    CGWindowListCopyWindowInfo: fn(cgLib, 'CGWindowListCopyWindowInfo', VOIDP, ['uint32_t', 'uint32_t']),
    CGRectMakeWithDictionaryRepresentation: (dict) => {
      const out: Partial<CGRect> = {};
      return CGRectMakeWithDictionaryRepresentation(dict, out) ? (out as CGRect) : null;
    },
    CGMainDisplayID: fn(cgLib, 'CGMainDisplayID', 'uint32_t', []),
    CGGetActiveDisplayList: (max) => {
      const ids = Buffer.alloc(4 * max);
      const count = [0];
      if ((CGGetActiveDisplayList(max, ids, count) as number) !== 0) return [];
      return Array.from({ length: count[0] }, (_, i) => ids.readUInt32LE(i * 4));
    },
    CGDisplayBounds: fn(cgLib, 'CGDisplayBounds', CGRectT, ['uint32_t']) as (display: number) => CGRect,
    CGDisplayScale: (display) => {
      const mode = CGDisplayCopyDisplayMode(display) as NullableRef;
      if (mode === null) return 1;
      try {
        const points = Number(CGDisplayModeGetWidth(mode));
        const pixels = Number(CGDisplayModeGetPixelWidth(mode));
        return points > 0 && pixels > 0 ? pixels / points : 1;
      } finally {
        CGDisplayModeRelease(mode);
      }
    },
    windowInfoKeys: Object.fromEntries(WINDOW_INFO_KEYS.map((key) => [key, globalRef(cgLib, key)])) as Record<WindowInfoKey, Ref>,
    CGPreflightScreenCaptureAccess: fn(cgLib, 'CGPreflightScreenCaptureAccess', 'bool', []),
    CGRequestScreenCaptureAccess: fn(cgLib, 'CGRequestScreenCaptureAccess', 'bool', []),
  };

  // — Objective-C runtime: AppKit must be loaded for NSWorkspace/NSRunningApplication to exist —
  let appKitLoaded = false;
  const objc_getClass = fn(objcLib, 'objc_getClass', VOIDP, ['str']);
  const msg = (result: unknown, args: unknown[]): NativeFn => fn(objcLib, 'objc_msgSend', result, [VOIDP, VOIDP, ...args]);
  const msgBoolU64 = msg('uint8_t', ['ulong']);
  const msgBool = msg('uint8_t', []);
  const objc: ObjcApi = {
    objc_getClass: (name) => {
      if (!appKitLoaded) {
        koffi.load(FRAMEWORKS.appKit);
        appKitLoaded = true;
      }
      return objc_getClass(name) as NullableRef;
    },
    sel_registerName: fn(objcLib, 'sel_registerName', VOIDP, ['str']),
    objc_autoreleasePoolPush: fn(objcLib, 'objc_autoreleasePoolPush', VOIDP, []),
    objc_autoreleasePoolPop: fn(objcLib, 'objc_autoreleasePoolPop', 'void', [VOIDP]),
    msgSend_id: msg(VOIDP, []),
    msgSend_id_i32: msg(VOIDP, ['int32_t']),
    msgSend_id_u64: msg(VOIDP, ['ulong']),
    msgSend_u64: ((f: NativeFn) => (r: Ref, s: Ref) => Number(f(r, s)))(msg('ulong', [])),
    msgSend_i64: ((f: NativeFn) => (r: Ref, s: Ref) => Number(f(r, s)))(msg('long', [])),
    msgSend_i32: msg('int32_t', []),
    msgSend_cstr: msg('const char *', []),
    msgSend_bool_u64: (receiver, selector, arg) => msgBoolU64(receiver, selector, arg) !== 0,
    msgSend_bool: (receiver, selector) => msgBool(receiver, selector) !== 0,
  };

  // — libproc: int proc_listallpids(void *, int) → count; int proc_pidinfo(int, int, uint64_t,
  // void *, int) → bytes; int proc_pidpath(int, void *, uint32_t) → length —
  const proc_listallpids = fn(systemLib, 'proc_listallpids', 'int', [VOIDP, 'int']);
  const proc_pidinfo = fn(systemLib, 'proc_pidinfo', 'int', ['int', 'int', 'uint64_t', VOIDP, 'int']);
  const proc_pidpath = fn(systemLib, 'proc_pidpath', 'int', ['int', VOIDP, 'uint32_t']);
  const proc: LibprocApi = {
    proc_listallpids: () => {
      for (let capacity = 4096; ; capacity *= 2) {
        const buffer = Buffer.alloc(capacity * 4);
        const count = proc_listallpids(buffer, buffer.length) as number;
        if (count < 0) return [];
        // A full buffer may have cut the list: ask again with room to spare.
        if (count < capacity || capacity >= 1 << 20) return Array.from({ length: Math.min(count, capacity) }, (_, i) => buffer.readInt32LE(i * 4)).filter((pid) => pid > 0);
      }
    },
    proc_bsdinfo: (pid) => {
      const buffer = Buffer.alloc(PROC_BSDINFO_SIZE);
      return (proc_pidinfo(pid, PROC_PIDTBSDINFO, 0, buffer, PROC_BSDINFO_SIZE) as number) === PROC_BSDINFO_SIZE ? decodeProcBsdInfo(buffer) : null;
    },
    proc_pidpath: (pid) => {
      const buffer = Buffer.alloc(PROC_PIDPATHINFO_MAXSIZE);
      const length = proc_pidpath(pid, buffer, PROC_PIDPATHINFO_MAXSIZE) as number;
      return length > 0 ? buffer.subarray(0, length).toString('utf8') : null;
    },
  };

  // — HIToolbox: Boolean (unsigned char) IsSecureEventInputEnabled(void) —
  const IsSecureEventInputEnabled = fn(carbonLib, 'IsSecureEventInputEnabled', 'uint8_t', []);
  // — Text Input Sources and UnicodeUtilities (HIToolbox/CarbonCore through the Carbon umbrella):
  // TISInputSourceRef TISCopyCurrentKeyboardLayoutInputSource(void) (Copy rule);
  // void *TISGetInputSourceProperty(TISInputSourceRef, CFStringRef) (Get rule: a CFDataRef here);
  // UInt8 LMGetKbdType(void); OSStatus UCKeyTranslate(const UCKeyboardLayout *, UInt16 keyCode,
  // UInt16 keyAction, UInt32 modifierKeyState, UInt32 keyboardType, OptionBits options,
  // UInt32 *deadKeyState, UniCharCount maxLength, UniCharCount *actualLength, UniChar *chars).
  // UniCharCount is unsigned long (MacTypes.h); the in/out pointers are given zeroed Buffers.
  // TextInputSources.h: the API is not thread safe and a UI application must call it on the main
  // thread (recent macOS traps off it in dispatch_assert_queue, per crash reports). pressKey runs on the JS thread of
  // Electron's main process (or of node), the process's main thread; the guard's tap worker
  // binds this module too but never reads the layout. —
  const kUCKeyActionDisplay = 3;
  const kUCKeyTranslateNoDeadKeysMask = 1;
  /** UCKeyTranslate's modifierKeyState is EventModifiers >> 8: shiftKey (0x0200) → 0x02. */
  const SHIFT_KEY_STATE = 0x02;
  const UNICHARS = 4;
  /**
   * The layout reader, bound apart: a symbol these frameworks do not export on some macOS would
   * make koffi throw, and that must cost the layout-aware letters (the US key codes are kept),
   * not the whole binding. The table (128 keys, two UCKeyTranslate each) is read again only when
   * the input source's ID or the keyboard type changes: a layout switch is seen at the next
   * press. Never run on a Mac yet.
   */
  const bindLayoutReader = (): (() => LayoutKey[] | null) | undefined => {
    try {
      const TISCopyCurrentKeyboardLayoutInputSource = fn(carbonLib, 'TISCopyCurrentKeyboardLayoutInputSource', VOIDP, []);
      const TISGetInputSourceProperty = fn(carbonLib, 'TISGetInputSourceProperty', VOIDP, [VOIDP, VOIDP]);
      const LMGetKbdType = fn(carbonLib, 'LMGetKbdType', 'uint8_t', []);
      const UCKeyTranslate = fn(carbonLib, 'UCKeyTranslate', 'int32_t', [VOIDP, 'uint16_t', 'uint16_t', 'uint32_t', 'uint32_t', 'uint32_t', VOIDP, 'ulong', VOIDP, VOIDP]);
      const CFDataGetBytePtr = fn(cfLib, 'CFDataGetBytePtr', VOIDP, [VOIDP]);
      const unicodeKeyLayoutData = globalRef(carbonLib, 'kTISPropertyUnicodeKeyLayoutData');
      const inputSourceId = globalRef(carbonLib, 'kTISPropertyInputSourceID');
      /** The last table read, for the input source ID and keyboard type it was read under. */
      let last: { sourceId: string; keyboardType: number; keys: LayoutKey[] | null } | null = null;
      const sourceIdOf = (source: Ref): string | null => {
        const id = TISGetInputSourceProperty(source, inputSourceId) as NullableRef; // Get rule: not ours to release
        return id === null || id === 0n ? null : cf.CFStringGetCharacters(id, cf.CFStringGetLength(id)).toString('utf16le');
      };
      const readKeys = (source: Ref, keyboardType: number): LayoutKey[] | null => {
        const data = TISGetInputSourceProperty(source, unicodeKeyLayoutData) as NullableRef;
        const layout = data === null || data === 0n ? null : (CFDataGetBytePtr(data) as NullableRef);
        if (layout === null || layout === 0n) return null;
        const translate = (keycode: number, modifierKeyState: number): string => {
          const deadKeyState = Buffer.alloc(4);
          const length = Buffer.alloc(8);
          const chars = Buffer.alloc(UNICHARS * 2);
          const status = UCKeyTranslate(layout, keycode, kUCKeyActionDisplay, modifierKeyState, keyboardType, kUCKeyTranslateNoDeadKeysMask, deadKeyState, UNICHARS, length, chars) as number;
          if (status !== 0) return '';
          const units = Math.min(UNICHARS, Number(length.readBigUInt64LE(0)));
          return chars.toString('utf16le', 0, units * 2);
        };
        const keys: LayoutKey[] = [];
        for (let keycode = 0; keycode < 128; keycode++) keys.push({ keycode, plain: translate(keycode, 0), shifted: translate(keycode, SHIFT_KEY_STATE) });
        return keys;
      };
      return () => {
        const source = TISCopyCurrentKeyboardLayoutInputSource() as NullableRef;
        if (source === null || source === 0n) return null;
        try {
          const sourceId = sourceIdOf(source);
          const keyboardType = LMGetKbdType() as number;
          if (last !== null && sourceId !== null && last.sourceId === sourceId && last.keyboardType === keyboardType) return last.keys;
          const keys = readKeys(source, keyboardType);
          last = sourceId === null ? null : { sourceId, keyboardType, keys };
          return keys;
        } finally {
          cf.CFRelease(source);
        }
      };
    } catch (error) {
      console.error(`tandem: the keyboard layout cannot be read (${error instanceof Error ? error.message : String(error)}): letters are pressed on their US key positions`);
      return undefined;
    }
  };

  const readLayout = bindLayoutReader();
  const hiToolbox: HIToolboxApi = {
    IsSecureEventInputEnabled: () => (IsSecureEventInputEnabled() as number) !== 0,
    ...(readLayout ? { keyboardLayoutKeys: readLayout } : {}),
  };

  const callbacks: NativeCallbacks = {
    registerEventTapCallback: (callback) => koffi.register(callback, koffi.pointer(TapCallback)),
    registerObserverCallback: (callback) => koffi.register(callback, koffi.pointer(ObserverCallback)),
    unregister: (registered) => koffi.unregister(registered),
  };

  return { cf, ax, cg, objc, proc, hiToolbox, callbacks };
}
