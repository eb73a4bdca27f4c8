// The macOS suite's own accessibility reader, used by humanPoster.js (a separate process). It
// reads what an app shows straight from AX, with koffi declared here and not through Tandem's
// bindings, so the suite can check Tandem's answers against something Tandem did not compute:
// a text area's whole value (Tandem's tree lines cut values at 160 characters), and the AX
// identifiers Tandem's tree does not print (Calculator 15's SwiftUI buttons).

import koffi from 'koffi';

const CF = '/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation';
const AS = '/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices';
const UTF8 = 0x08000100;
/** AXValueType: kAXValueCGPointType, kAXValueCGSizeType. */
const AX_POINT = 1;
const AX_SIZE = 2;

const cf = koffi.load(CF);
const ax = koffi.load(AS);
const VOIDP = koffi.pointer(koffi.types.void);

const CFRelease = cf.func('CFRelease', 'void', [VOIDP]);
const CFGetTypeID = cf.func('CFGetTypeID', 'ulong', [VOIDP]);
const CFStringGetTypeID = cf.func('CFStringGetTypeID', 'ulong', []);
const CFArrayGetTypeID = cf.func('CFArrayGetTypeID', 'ulong', []);
const CFStringCreateWithCString = cf.func('CFStringCreateWithCString', VOIDP, [VOIDP, 'str', 'uint32_t']);
const CFStringGetLength = cf.func('CFStringGetLength', 'long', [VOIDP]);
const CFStringGetMaximumSizeForEncoding = cf.func('CFStringGetMaximumSizeForEncoding', 'long', ['long', 'uint32_t']);
const CFStringGetCString = cf.func('CFStringGetCString', 'uint8_t', [VOIDP, VOIDP, 'long', 'uint32_t']);
const CFArrayGetCount = cf.func('CFArrayGetCount', 'long', [VOIDP]);
const CFArrayGetValueAtIndex = cf.func('CFArrayGetValueAtIndex', VOIDP, [VOIDP, 'long']);
const AXValueGetTypeID = ax.func('AXValueGetTypeID', 'ulong', []);
const AXValueGetValue = ax.func('AXValueGetValue', 'uint8_t', [VOIDP, 'uint32_t', VOIDP]);
const AXUIElementCreateApplication = ax.func('AXUIElementCreateApplication', VOIDP, ['int32_t']);
const AXUIElementSetMessagingTimeout = ax.func('AXUIElementSetMessagingTimeout', 'int32_t', [VOIDP, 'float']);
const AXUIElementCopyAttributeValue = ax.func('AXUIElementCopyAttributeValue', 'int32_t', [VOIDP, VOIDP, koffi.out(koffi.pointer(VOIDP))]);

type Ref = unknown;

const names = new Map<string, Ref>();
/** The attribute name as a CFString, created once per process (never released: the process is short-lived). */
function attributeName(name: string): Ref {
  let ref = names.get(name);
  if (ref === undefined) {
    ref = CFStringCreateWithCString(null, name, UTF8);
    names.set(name, ref);
  }
  return ref;
}

/** A CFString's text; null for NULL or anything else. */
export function stringOf(ref: Ref): string | null {
  if (ref === null || Number(CFGetTypeID(ref)) !== Number(CFStringGetTypeID())) return null;
  const size = Number(CFStringGetMaximumSizeForEncoding(CFStringGetLength(ref), UTF8)) + 1;
  const buffer = Buffer.alloc(size);
  if (CFStringGetCString(ref, buffer, size, UTF8) === 0) return null;
  const end = buffer.indexOf(0);
  return buffer.toString('utf8', 0, end < 0 ? size : end);
}

/** Runs `use` on an attribute's value (+1, released afterwards); null when the read failed. */
function withAttribute<T>(element: Ref, name: string, use: (value: Ref) => T): { error: number; result: T | null } {
  const out: unknown[] = [null];
  const error = AXUIElementCopyAttributeValue(element, attributeName(name), out) as number;
  if (error !== 0 || out[0] === null) return { error, result: null };
  try {
    return { error, result: use(out[0]) };
  } finally {
    CFRelease(out[0]);
  }
}

const stringAttribute = (element: Ref, name: string): string | null => withAttribute(element, name, stringOf).result;

function pairAttribute(element: Ref, name: string, type: number): [number, number] | null {
  return withAttribute(element, name, (value) => {
    if (Number(CFGetTypeID(value)) !== Number(AXValueGetTypeID())) return null;
    const buffer = Buffer.alloc(16);
    return AXValueGetValue(value, type, buffer) !== 0 ? ([buffer.readDoubleLE(0), buffer.readDoubleLE(8)] as [number, number]) : null;
  }).result;
}

/**
 * The elements of an attribute holding an array (AXWindows, AXChildren), each retained for the
 * caller: `use` runs while the array is alive.
 */
function eachElement(element: Ref, name: string, use: (child: Ref) => void): void {
  withAttribute(element, name, (array) => {
    if (Number(CFGetTypeID(array)) !== Number(CFArrayGetTypeID())) return;
    const count = Number(CFArrayGetCount(array));
    for (let i = 0; i < count; i++) use(CFArrayGetValueAtIndex(array, i));
  });
}

export interface AxNode {
  role: string | null;
  subrole: string | null;
  title: string | null;
  description: string | null;
  identifier: string | null;
  /** AXValue when it is a string (a text area's whole text, a display's number). */
  value: string | null;
  /** Top-left screen points, as Tandem's tree prints them. */
  x: number | null;
  y: number | null;
  width: number | null;
  height: number | null;
  /** Title of the window the element is in. */
  window: string | null;
}

function nodeOf(element: Ref, window: string | null): AxNode {
  const position = pairAttribute(element, 'AXPosition', AX_POINT);
  const size = pairAttribute(element, 'AXSize', AX_SIZE);
  return {
    role: stringAttribute(element, 'AXRole'),
    subrole: stringAttribute(element, 'AXSubrole'),
    title: stringAttribute(element, 'AXTitle'),
    description: stringAttribute(element, 'AXDescription'),
    identifier: stringAttribute(element, 'AXIdentifier'),
    value: stringAttribute(element, 'AXValue'),
    x: position ? Math.round(position[0]) : null,
    y: position ? Math.round(position[1]) : null,
    width: size ? Math.round(size[0]) : null,
    height: size ? Math.round(size[1]) : null,
    window,
  };
}

function withApp<T>(pid: number, use: (app: Ref) => T): T {
  const app = AXUIElementCreateApplication(pid);
  if (app === null) throw new Error(`AXUIElementCreateApplication(${pid}) gave NULL`);
  try {
    AXUIElementSetMessagingTimeout(app, 2);
    return use(app);
  } finally {
    CFRelease(app);
  }
}

/** The app element's AXRole (the probe: "AXApplication" with error 0 when reads work). */
export function applicationRole(pid: number): { error: number; role: string | null } {
  return withApp(pid, (app) => {
    const { error, result } = withAttribute(app, 'AXRole', stringOf);
    return { error, role: result };
  });
}

/**
 * Every element of the app's windows, pre-order, at most `limit` of them. Each window's subtree
 * is walked while its AXChildren arrays are alive (children are not retained separately).
 */
export function appElements(pid: number, limit = 4000): AxNode[] {
  return withApp(pid, (app) => {
    const nodes: AxNode[] = [];
    const walk = (element: Ref, window: string | null, depth: number): void => {
      if (nodes.length >= limit || depth > 40) return;
      nodes.push(nodeOf(element, window));
      eachElement(element, 'AXChildren', (child) => walk(child, window, depth + 1));
    };
    eachElement(app, 'AXWindows', (window) => walk(window, stringAttribute(window, 'AXTitle'), 0));
    return nodes;
  });
}

/**
 * The whole AXValue of the first text area in the window whose title contains `windowTitle`
 * (TextEdit titles a document's window with its file name), or null when there is none.
 */
export function textAreaValue(pid: number, windowTitle: string): string | null {
  const area = appElements(pid).find((node) => node.role === 'AXTextArea' && node.window !== null && node.window.includes(windowTitle));
  return area ? (area.value ?? '') : null;
}
