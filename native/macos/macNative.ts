// The macOS C surface Tandem uses, as a plain TypeScript interface. The koffi implementation is
// in koffiMacNative.ts (loaded lazily, darwin only); unit tests implement the same interface
// with a fake so the pure logic above it (CF decoding, ownership, tree walking, event plans) is
// tested on Linux. Function names are the C names so a reader can check each against Apple's
// headers. Pointers are BigInt (koffi 3) or null; `Ref` is never null once a call succeeded.

import type { ProcBsdInfo } from './procBsdInfo.js';

export type { ProcBsdInfo } from './procBsdInfo.js';
export type Ref = bigint;
export type NullableRef = bigint | null;

export interface CGPoint {
  x: number;
  y: number;
}

export interface CGSize {
  width: number;
  height: number;
}

export interface CGRect {
  origin: CGPoint;
  size: CGSize;
}

export interface CoreFoundationApi {
  CFRelease(ref: Ref): void;
  CFRetain(ref: Ref): Ref;
  CFGetTypeID(ref: Ref): number;
  CFHash(ref: Ref): number;
  CFEqual(a: Ref, b: Ref): boolean;
  CFStringGetTypeID(): number;
  CFNumberGetTypeID(): number;
  CFBooleanGetTypeID(): number;
  CFArrayGetTypeID(): number;
  CFDictionaryGetTypeID(): number;
  CFNullGetTypeID(): number;
  /** UTF-8 in, +1 CFString out (null on failure). */
  CFStringCreateWithCString(text: string): NullableRef;
  CFStringGetLength(ref: Ref): number;
  /** Copies UTF-16 code units [0, length) into a new Buffer. */
  CFStringGetCharacters(ref: Ref, length: number): Buffer;
  CFNumberIsFloatType(ref: Ref): boolean;
  /** kCFNumberFloat64Type (6) read into a double; null when the conversion was lossy/failed. */
  CFNumberGetFloat64(ref: Ref): number | null;
  /** kCFNumberSInt64Type (4). */
  CFNumberGetSInt64(ref: Ref): number | null;
  /** +1 CFNumber holding a double (kCFNumberFloat64Type). */
  CFNumberCreateFloat64(value: number): NullableRef;
  CFBooleanGetValue(ref: Ref): boolean;
  CFArrayGetCount(ref: Ref): number;
  /** Get rule: the value belongs to the array. */
  CFArrayGetValueAtIndex(ref: Ref, index: number): NullableRef;
  /** +1 array of CF objects with kCFTypeArrayCallBacks (the array retains its values). */
  CFArrayCreate(values: readonly Ref[]): NullableRef;
  CFDictionaryGetCount(ref: Ref): number;
  /** Get rule. */
  CFDictionaryGetValue(ref: Ref, key: Ref): NullableRef;
  /** +1 dictionary with kCFTypeDictionaryKeyCallBacks / ValueCallBacks. */
  CFDictionaryCreate(keys: readonly Ref[], values: readonly Ref[]): NullableRef;
  /** Get rule; never null on a thread. */
  CFRunLoopGetCurrent(): Ref;
  CFRunLoopAddSource(runLoop: Ref, source: Ref, mode: Ref): void;
  CFRunLoopRemoveSource(runLoop: Ref, source: Ref, mode: Ref): void;
  /** 1 finished, 2 stopped, 3 timed out, 4 handled a source. */
  CFRunLoopRunInMode(mode: Ref, seconds: number, returnAfterSourceHandled: boolean): number;
  /** +1 run loop source for a mach port (event taps). */
  CFMachPortCreateRunLoopSource(port: Ref, order: number): NullableRef;
  CFMachPortInvalidate(port: Ref): void;
  readonly kCFBooleanTrue: Ref;
  readonly kCFBooleanFalse: Ref;
  readonly kCFRunLoopDefaultMode: Ref;
  readonly kCFRunLoopCommonModes: Ref;
}

/** AXError values are plain numbers (0 = success); see src/backends/macos/axErrors.ts. */
export interface AccessibilityApi {
  AXIsProcessTrusted(): boolean;
  AXIsProcessTrustedWithOptions(options: NullableRef): boolean;
  /** +1 */
  AXUIElementCreateApplication(pid: number): NullableRef;
  /** +1 */
  AXUIElementCreateSystemWide(): NullableRef;
  AXUIElementGetTypeID(): number;
  AXValueGetTypeID(): number;
  /** Copy rule: out[0] is +1 when the result is 0. */
  AXUIElementCopyAttributeValue(element: Ref, attribute: Ref, out: NullableRef[]): number;
  /** Copy rule: out[0] is a +1 CFArray, one slot per requested attribute (errors as AXValue type 5 / kCFNull). */
  AXUIElementCopyMultipleAttributeValues(element: Ref, attributes: Ref, options: number, out: NullableRef[]): number;
  AXUIElementCopyActionNames(element: Ref, out: NullableRef[]): number;
  AXUIElementSetAttributeValue(element: Ref, attribute: Ref, value: Ref): number;
  AXUIElementIsAttributeSettable(element: Ref, attribute: Ref, out: boolean[]): number;
  AXUIElementPerformAction(element: Ref, action: Ref): number;
  /** Takes a float (not a double) in seconds. */
  AXUIElementSetMessagingTimeout(element: Ref, seconds: number): number;
  AXUIElementGetPid(element: Ref, out: number[]): number;
  /** Takes floats. Copy rule: out[0] is the +1 element at that point (global top-left points). */
  AXUIElementCopyElementAtPosition(element: Ref, x: number, y: number, out: NullableRef[]): number;
  /** Private (?): maps an AX window to its CGWindowID. Absent → null function. */
  _AXUIElementGetWindow: ((element: Ref, out: number[]) => number) | null;
  AXValueGetType(value: Ref): number;
  /** +1 AXValue wrapping a CFRange (kAXValueCFRangeType), e.g. for AXSelectedTextRange. */
  AXValueCreateRange(location: number, length: number): NullableRef;
  /** Reads an AXValue of `type` into `buffer` (CGPoint/CGSize 16 B, CGRect 32 B). */
  AXValueGetValue(value: Ref, type: number, buffer: Buffer): boolean;
  /** Observer callback gets (observer, element, notification, refcon). Returns the registered pointer. */
  AXObserverCreate(pid: number, callback: Ref, out: NullableRef[]): number;
  AXObserverAddNotification(observer: Ref, element: Ref, notification: Ref, refcon: NullableRef): number;
  AXObserverRemoveNotification(observer: Ref, element: Ref, notification: Ref): number;
  /** Get rule. */
  AXObserverGetRunLoopSource(observer: Ref): NullableRef;
  readonly kAXTrustedCheckOptionPrompt: Ref;
}

export const WINDOW_INFO_KEYS = [
  'kCGWindowNumber',
  'kCGWindowOwnerPID',
  'kCGWindowOwnerName',
  'kCGWindowName',
  'kCGWindowBounds',
  'kCGWindowLayer',
  'kCGWindowIsOnscreen',
] as const;
export type WindowInfoKey = (typeof WINDOW_INFO_KEYS)[number];

export interface CoreGraphicsApi {
  /** +1 */
  CGEventCreate(source: NullableRef): NullableRef;
  CGEventCreateMouseEvent(source: NullableRef, type: number, point: CGPoint, button: number): NullableRef;
  CGEventCreateKeyboardEvent(source: NullableRef, keycode: number, down: boolean): NullableRef;
  CGEventCreateScrollWheelEvent2(source: NullableRef, units: number, wheelCount: number, wheel1: number, wheel2: number, wheel3: number): NullableRef;
  CGEventPost(location: number, event: Ref): void;
  CGEventGetLocation(event: Ref): CGPoint;
  CGEventGetType(event: Ref): number;
  CGEventGetFlags(event: Ref): bigint;
  CGEventSetFlags(event: Ref, flags: bigint): void;
  CGEventGetIntegerValueField(event: Ref, field: number): bigint;
  CGEventSetIntegerValueField(event: Ref, field: number, value: bigint): void;
  /** UTF-16 code units; macOS keeps at most 20 of them. */
  CGEventKeyboardSetUnicodeString(event: Ref, utf16: Buffer): void;
  CGWarpMouseCursorPosition(point: CGPoint): number;
  /** +1 CFMachPort, or null when not allowed. `callback` is a koffi-registered CGEventTapCallBack. */
  CGEventTapCreate(location: number, placement: number, options: number, mask: bigint, callback: Ref, userInfo: NullableRef): NullableRef;
  CGEventTapEnable(tap: Ref, enable: boolean): void;
  CGEventTapIsEnabled(tap: Ref): boolean;
  /** +1 CFArray of CFDictionary. */
  CGWindowListCopyWindowInfo(option: number, relativeToWindow: number): NullableRef;
  CGRectMakeWithDictionaryRepresentation(dict: Ref): CGRect | null;
  CGMainDisplayID(): number;
  CGGetActiveDisplayList(max: number): number[];
  CGDisplayBounds(display: number): CGRect;
  /** Backing pixels per point of the display's current mode (CGDisplayCopyDisplayMode). */
  CGDisplayScale(display: number): number;
  CGPreflightScreenCaptureAccess(): boolean;
  /** The CFString keys of window-info dictionaries, read from CoreGraphics' exported globals. */
  readonly windowInfoKeys: Record<WindowInfoKey, Ref>;
  CGRequestScreenCaptureAccess(): boolean;
}

/** The Objective-C runtime, one typed objc_msgSend per signature (never variadic). */
export interface ObjcApi {
  objc_getClass(name: string): NullableRef;
  sel_registerName(name: string): Ref;
  objc_autoreleasePoolPush(): Ref;
  objc_autoreleasePoolPop(pool: Ref): void;
  /** id objc_msgSend(id, SEL) */
  msgSend_id(receiver: Ref, selector: Ref): NullableRef;
  /** id objc_msgSend(id, SEL, int32) */
  msgSend_id_i32(receiver: Ref, selector: Ref, arg: number): NullableRef;
  /** id objc_msgSend(id, SEL, NSUInteger) */
  msgSend_id_u64(receiver: Ref, selector: Ref, arg: number): NullableRef;
  /** NSUInteger objc_msgSend(id, SEL) */
  msgSend_u64(receiver: Ref, selector: Ref): number;
  /** NSInteger objc_msgSend(id, SEL) */
  msgSend_i64(receiver: Ref, selector: Ref): number;
  /** int32 objc_msgSend(id, SEL) (pid_t) */
  msgSend_i32(receiver: Ref, selector: Ref): number;
  /** const char * objc_msgSend(id, SEL) (UTF8String) */
  msgSend_cstr(receiver: Ref, selector: Ref): string | null;
  /** BOOL objc_msgSend(id, SEL, NSUInteger) (activateWithOptions:) — BOOL read as uint8. */
  msgSend_bool_u64(receiver: Ref, selector: Ref, arg: number): boolean;
  /** BOOL objc_msgSend(id, SEL) (terminate, forceTerminate) — BOOL read as uint8. */
  msgSend_bool(receiver: Ref, selector: Ref): boolean;
}

/** libproc (libSystem): the process table, read without any permission for the user's own processes. */
export interface LibprocApi {
  /** Every pid on the system (proc_listallpids). */
  proc_listallpids(): number[];
  /** proc_pidinfo(PROC_PIDTBSDINFO): null when the process is gone or not readable. */
  proc_bsdinfo(pid: number): ProcBsdInfo | null;
  /** The executable's path (proc_pidpath), or null. */
  proc_pidpath(pid: number): string | null;
}

/** Carbon's HIToolbox: what the input guard must know before it holds the person's input. */
export interface HIToolboxApi {
  /**
   * Boolean IsSecureEventInputEnabled(void): true while a password field or Terminal's Secure
   * Keyboard Entry hides keys from event taps — Esc included, so the guard could not hear a cancel.
   */
  IsSecureEventInputEnabled(): boolean;
  /**
   * What each virtual keycode (0–127) types on the current keyboard layout, plain and with
   * Shift (TISCopyCurrentKeyboardLayoutInputSource, kTISPropertyUnicodeKeyLayoutData,
   * UCKeyTranslate); null where the layout has no Unicode key layout data. Optional: a
   * binding without it presses the ANSI keycodes.
   */
  keyboardLayoutKeys?(): LayoutKey[] | null;
}

/** One key of the current keyboard layout: its virtual keycode and the characters it types. */
export interface LayoutKey {
  keycode: number;
  plain: string;
  shifted: string;
}

/** Callbacks C keeps: register them (koffi trampolines) and unregister when done. */
export interface NativeCallbacks {
  /** CGEventTapCallBack: CGEventRef (*)(CGEventTapProxy, CGEventType, CGEventRef, void *). */
  registerEventTapCallback(fn: (proxy: NullableRef, type: number, event: NullableRef, info: NullableRef) => NullableRef): Ref;
  /** AXObserverCallback: void (*)(AXObserverRef, AXUIElementRef, CFStringRef, void *). */
  registerObserverCallback(fn: (observer: NullableRef, element: NullableRef, notification: NullableRef, refcon: NullableRef) => void): Ref;
  unregister(registered: Ref): void;
}

export interface MacNative {
  readonly callbacks: NativeCallbacks;
  readonly cf: CoreFoundationApi;
  readonly ax: AccessibilityApi;
  readonly cg: CoreGraphicsApi;
  readonly objc: ObjcApi;
  readonly proc: LibprocApi;
  readonly hiToolbox: HIToolboxApi;
}

// — constants (values from Apple's headers; see docs/macos.md) —

export const kCFStringEncodingUTF8 = 0x08000100;
export const kCFNumberSInt64Type = 4;
export const kCFNumberFloat64Type = 6;

export const kAXValueCGPointType = 1;
export const kAXValueCGSizeType = 2;
export const kAXValueCGRectType = 3;
export const kAXValueCFRangeType = 4;
export const kAXValueAXErrorType = 5;

export const CFRunLoopRunResult = { finished: 1, stopped: 2, timedOut: 3, handledSource: 4 } as const;

export const CGEventType = {
  leftMouseDown: 1,
  leftMouseUp: 2,
  rightMouseDown: 3,
  rightMouseUp: 4,
  mouseMoved: 5,
  leftMouseDragged: 6,
  rightMouseDragged: 7,
  keyDown: 10,
  keyUp: 11,
  flagsChanged: 12,
  scrollWheel: 22,
  otherMouseDown: 25,
  otherMouseUp: 26,
  otherMouseDragged: 27,
  tapDisabledByTimeout: 0xfffffffe,
  tapDisabledByUserInput: 0xffffffff,
} as const;

export const CGMouseButton = { left: 0, right: 1, center: 2 } as const;

export const CGEventField = {
  mouseEventClickState: 1,
  keyboardEventAutorepeat: 8,
  keyboardEventKeycode: 9,
  eventSourceUnixProcessID: 41,
  eventSourceUserData: 42,
  eventSourceStateID: 45,
} as const;

export const CGEventTapLocation = { hid: 0, session: 1, annotatedSession: 2 } as const;
export const kCGHeadInsertEventTap = 0;
export const kCGEventTapOptionDefault = 0;
export const kCGScrollEventUnitLine = 1;

export const CGEventFlag = {
  shift: 0x20000n,
  control: 0x40000n,
  alternate: 0x80000n,
  command: 0x100000n,
  secondaryFn: 0x800000n,
} as const;

export const kCGWindowListOptionOnScreenOnly = 1;
export const kCGWindowListExcludeDesktopElements = 16;
export const kCGNullWindowID = 0;
