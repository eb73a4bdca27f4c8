// A fake MacNative for unit tests on Linux: an in-memory CoreFoundation object heap with real
// reference counting, an AX element tree, and recorded CGEvents. It is strict where macOS would
// crash: CFRelease(NULL), releasing an object whose count is already 0, or touching a freed
// object throw, so ownership bugs fail the tests instead of passing silently. Never shipped.

import type {
  CGPoint,
  LayoutKey,
  MacNative,
  NullableRef,
  Ref,
  WindowInfoKey,
} from '../../native/macos/macNative.js';
import { WINDOW_INFO_KEYS } from '../../native/macos/macNative.js';
import type { ProcBsdInfo } from '../../native/macos/procBsdInfo.js';

/** A process in the fake's process table (libproc), with what AppKit says of it when it is an app. */
export interface FakeProcess extends ProcBsdInfo {
  path?: string;
  /** NSRunningApplication: 0 regular, 1 accessory, 2 prohibited; undefined = AppKit does not know it. */
  activationPolicy?: number;
  localizedName?: string;
}

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'dictionary' | 'null' | 'axvalue' | 'element' | 'event' | 'port' | 'source' | 'observer' | 'runloop';

interface FakeObject {
  kind: Kind;
  count: number;
  /** Objects the fake itself holds for ever (constants, elements of the fake apps). */
  permanent: boolean;
  value?: unknown;
  items?: Ref[];
  entries?: Array<[Ref, Ref]>;
}

export interface FakeElement {
  role?: string;
  subrole?: string;
  title?: string;
  value?: string | number;
  description?: string;
  position?: CGPoint;
  size?: { width: number; height: number };
  enabled?: boolean;
  focused?: boolean;
  selected?: boolean;
  windowId?: number;
  children?: FakeElement[];
  settable?: string[];
  actions?: string[];
  /** Every AX call on this element fails with this error. */
  error?: number;
}

/**
 * One app's input as the fake window server delivers it: events wait in `inbox` and are handled
 * one after the other, `msPerEvent` each; a `hung` app handles none. The app answers an AX
 * request only when its inbox is empty (AppKit services AX between events), and never when
 * `axSilent` (an app without accessibility support).
 */
export interface AppInput {
  msPerEvent: number;
  hung: boolean;
  axSilent: boolean;
  inbox: Array<{ event: PostedEvent; arrivedAt: number }>;
  handled: PostedEvent[];
  busyUntil: number;
}

export interface PostedEvent {
  type: number;
  keyDown?: boolean;
  keycode?: number;
  location?: CGPoint;
  button?: number;
  flags: bigint;
  fields: Map<number, bigint>;
  unicode?: string;
  scroll?: { units: number; count: number; w1: number; w2: number; w3: number };
  tapLocation: number;
}

const TYPE_IDS: Record<string, number> = { string: 7, number: 22, boolean: 21, array: 19, dictionary: 18, null: 16, axvalue: 501, element: 502 };

export class FakeMacNative implements MacNative {
  private readonly heap = new Map<Ref, FakeObject>();
  private nextRef = 0x1000n;
  private readonly elementRefs = new Map<FakeElement, Ref>();
  private readonly elementsByRef = new Map<Ref, FakeElement>();
  readonly apps = new Map<number, FakeElement>();
  readonly reads: Array<{ element: FakeElement; attribute: string }> = [];
  readonly performed: Array<{ element: FakeElement; action: string }> = [];
  readonly written: Array<{ element: FakeElement; attribute: string; value: unknown }> = [];
  readonly posted: PostedEvent[] = [];
  /** Every AXUIElementSetMessagingTimeout, in order: it holds for that reference only (AXUIElement.h). */
  readonly messagingTimeouts: Array<{ element: FakeElement; ref: Ref; seconds: number }> = [];
  readonly registered = new Map<Ref, (...args: never[]) => unknown>();
  readonly unregistered: Ref[] = [];
  readonly runLoopSources = new Set<Ref>();
  trusted = true;
  /** What each AXIsProcessTrustedWithOptions call asked: true when its options held kAXTrustedCheckOptionPrompt → kCFBooleanTrue. */
  readonly trustPrompts: boolean[] = [];
  /** CGPreflightScreenCaptureAccess's answer. */
  screenRecordingGranted = true;
  screenRecordingRequests = 0;
  /** The system-wide element; its AXFocusedApplication is the app of `focusedPid`. */
  readonly systemWide: FakeElement = {};
  focusedPid: number | null = null;
  tapAllowed = true;
  observerAllowed = true;
  /** Called on each CFRunLoopRunInMode (to fire observer callbacks in tests). */
  onRunLoop: (() => void) | null = null;
  cursor: CGPoint = { x: 10, y: 20 };
  /**
   * Like Apple Silicon's CoreFoundation: equal short strings and small numbers come back as the
   * same pointer, with +1 each time (interned / cached values). Off by default.
   */
  internValues = false;
  private readonly interned = new Map<string, Ref>();
  tapEnabled = false;
  /** The current keyboard layout's keys (keyboardLayoutKeys); null: a layout without Unicode key data. */
  keyboardLayout: LayoutKey[] | null = null;
  /** How often the keyboard layout was read (Text Input Source calls on a Mac). */
  layoutReads = 0;
  /** IsSecureEventInputEnabled: a password field (or Terminal's Secure Keyboard Entry) hides keys from taps. */
  secureInput = false;
  /** The callback of the last tap created (the window server calls it for every event while enabled). */
  private tapCallback: Ref | null = null;
  /** Apps' input: what reached each pid, and how fast it handles it (see deliver / processInput). */
  readonly appInput = new Map<number, AppInput>();
  /** Events delivered to no app (no focused pid). */
  readonly undelivered: PostedEvent[] = [];
  invalidatedPorts: Ref[] = [];

  private alloc(kind: Kind, data: Partial<FakeObject> = {}, permanent = false): Ref {
    const ref = this.nextRef;
    this.nextRef += 0x10n;
    this.heap.set(ref, { kind, count: 1, permanent, ...data });
    return ref;
  }

  private object(ref: NullableRef, what: string): FakeObject {
    if (ref === null || ref === 0n) throw new Error(`${what}: NULL`);
    const object = this.heap.get(ref);
    if (!object) throw new Error(`${what}: unknown pointer ${ref}`);
    if (object.count <= 0) throw new Error(`${what}: use after free of ${object.kind} ${ref}`);
    return object;
  }

  private retain(ref: Ref): Ref {
    this.object(ref, 'retain').count++;
    return ref;
  }

  private release(ref: NullableRef): void {
    const object = this.object(ref, 'CFRelease');
    object.count--;
    if (object.count === 0) {
      if (object.permanent) throw new Error(`CFRelease: over-release of a ${object.kind} the system owns (${ref})`);
      for (const item of object.items ?? []) this.release(item);
      for (const [k, v] of object.entries ?? []) {
        this.release(k);
        this.release(v);
      }
    }
  }

  /** Non-permanent objects still alive, and permanent ones whose count differs from 1: leaks. */
  leaks(): string[] {
    const leaks: string[] = [];
    for (const [ref, object] of this.heap) {
      if (object.permanent ? object.count !== 1 : object.count !== 0) leaks.push(`${object.kind} ${ref} count ${object.count}${object.permanent ? ' (permanent)' : ''}`);
    }
    return leaks;
  }

  /** Count of objects a caller received with +1 ownership (created here, non-permanent). */
  createdCount(): number {
    return [...this.heap.values()].filter((o) => !o.permanent).length;
  }

  string(text: string, permanent = false): Ref {
    if (!permanent && text.length <= 7) return this.intern(`s:${text}`, () => this.alloc('string', { value: text }));
    return this.alloc('string', { value: text }, permanent);
  }

  private number(value: number): Ref {
    if (Number.isInteger(value) && Math.abs(value) < 256) return this.intern(`n:${value}`, () => this.alloc('number', { value }));
    return this.alloc('number', { value });
  }

  /** The cached object again (+1) while it lives, when interning is on; else a new one. */
  private intern(key: string, create: () => Ref): Ref {
    if (!this.internValues) return create();
    const cached = this.interned.get(key);
    if (cached !== undefined && this.heap.get(cached)!.count > 0) return this.retain(cached);
    const ref = create();
    this.interned.set(key, ref);
    return ref;
  }

  private boolRef(value: boolean): Ref {
    return value ? this.cf.kCFBooleanTrue : this.cf.kCFBooleanFalse;
  }

  private axValue(type: number, data: number[]): Ref {
    return this.alloc('axvalue', { value: { type, data } });
  }

  private array(items: Ref[], adoptItems: boolean): Ref {
    // The array retains its items; when the caller hands over +1 items, drop that extra count.
    for (const item of items) this.retain(item);
    if (adoptItems) for (const item of items) this.release(item);
    return this.alloc('array', { items });
  }

  elementRef(element: FakeElement): Ref {
    let ref = this.elementRefs.get(element);
    if (ref === undefined) {
      ref = this.alloc('element', { value: element }, true);
      this.elementRefs.set(element, ref);
      this.elementsByRef.set(ref, element);
    }
    return ref;
  }

  /**
   * A new +1 reference to `element`, as AX hands out for a hit test or a parent: another pointer
   * than the tree's, equal to it only by CFEqual and CFHash.
   */
  private freshElementRef(element: FakeElement): Ref {
    const ref = this.alloc('element', { value: element });
    this.elementsByRef.set(ref, element);
    return ref;
  }

  private sameElement(ref: Ref): Ref {
    const element = this.heap.get(ref)?.kind === 'element' ? this.elementsByRef.get(ref) : undefined;
    return element ? this.elementRef(element) : ref;
  }

  elementOf(ref: Ref): FakeElement {
    const element = this.elementsByRef.get(ref);
    if (!element) throw new Error(`not an element: ${ref}`);
    this.object(ref, 'element');
    return element;
  }

  addApp(pid: number, app: FakeElement): void {
    this.apps.set(pid, app);
  }

  /** The element holding `element` in one of the apps' trees (the application holds its windows). */
  private parentOf(element: FakeElement): FakeElement | null {
    const search = (node: FakeElement): FakeElement | null => {
      for (const child of node.children ?? []) {
        if (child === element) return node;
        const found = search(child);
        if (found) return found;
      }
      return null;
    };
    for (const app of this.apps.values()) {
      const found = search(app);
      if (found) return found;
    }
    return null;
  }

  private stringOf(ref: Ref): string {
    const object = this.object(ref, 'string');
    if (object.kind !== 'string') throw new Error(`expected a CFString, got ${object.kind}`);
    return object.value as string;
  }

  /** +1 value of an attribute, or an AXError. */
  private attribute(element: FakeElement, name: string): { error: number; value: NullableRef } {
    this.reads.push({ element, attribute: name });
    if (element.error) return { error: element.error, value: null };
    const has = (v: unknown): boolean => v !== undefined;
    switch (name) {
      case 'AXRole':
        return has(element.role) ? { error: 0, value: this.string(element.role!) } : { error: -25205, value: null };
      case 'AXSubrole':
        return has(element.subrole) ? { error: 0, value: this.string(element.subrole!) } : { error: -25212, value: null };
      case 'AXTitle':
        return has(element.title) ? { error: 0, value: this.string(element.title!) } : { error: -25212, value: null };
      case 'AXDescription':
        return has(element.description) ? { error: 0, value: this.string(element.description!) } : { error: -25212, value: null };
      case 'AXValue':
        if (!has(element.value)) return { error: -25212, value: null };
        return { error: 0, value: typeof element.value === 'number' ? this.number(element.value) : this.string(element.value as string) };
      case 'AXPosition':
        return element.position ? { error: 0, value: this.axValue(1, [element.position.x, element.position.y]) } : { error: -25212, value: null };
      case 'AXSize':
        return element.size ? { error: 0, value: this.axValue(2, [element.size.width, element.size.height]) } : { error: -25212, value: null };
      case 'AXEnabled':
        return { error: 0, value: this.retain(this.boolRef(element.enabled ?? true)) };
      case 'AXFocused':
        return { error: 0, value: this.retain(this.boolRef(element.focused ?? false)) };
      case 'AXSelected':
        return has(element.selected) ? { error: 0, value: this.retain(this.boolRef(element.selected!)) } : { error: -25205, value: null };
      case 'AXFocusedApplication': {
        const app = element === this.systemWide && this.focusedPid !== null ? this.apps.get(this.focusedPid) : undefined;
        return app ? { error: 0, value: this.retain(this.elementRef(app)) } : { error: -25212, value: null };
      }
      case 'AXParent': {
        const parent = this.parentOf(element);
        return parent ? { error: 0, value: this.freshElementRef(parent) } : { error: -25212, value: null };
      }
      case 'AXChildren':
      case 'AXWindows': {
        const children = (element.children ?? []).filter((c) => name === 'AXChildren' || c.role === 'AXWindow');
        return { error: 0, value: this.array(children.map((c) => this.elementRef(c)), false) };
      }
      default:
        return { error: -25205, value: null };
    }
  }

  private eventObject(data: Partial<PostedEvent>): Ref {
    return this.alloc('event', { value: { flags: 0n, fields: new Map<number, bigint>(), tapLocation: -1, ...data } });
  }

  private event(ref: Ref): PostedEvent {
    const object = this.object(ref, 'event');
    if (object.kind !== 'event') throw new Error('expected a CGEvent');
    return object.value as PostedEvent;
  }

  /** A CGEvent as the tap would receive it (for tap tests); the caller releases it. */
  makeEvent(data: Partial<PostedEvent>): Ref {
    return this.eventObject(data);
  }

  readonly hiToolbox: MacNative['hiToolbox'] = {
    IsSecureEventInputEnabled: () => this.secureInput,
    keyboardLayoutKeys: () => {
      this.layoutReads++;
      return this.keyboardLayout;
    },
  };

  readonly callbacks: MacNative['callbacks'] = {
    registerEventTapCallback: (fn) => {
      const ref = this.alloc('source', {}, true);
      this.registered.set(ref, fn as never);
      return ref;
    },
    registerObserverCallback: (fn) => {
      const ref = this.alloc('source', {}, true);
      this.registered.set(ref, fn as never);
      return ref;
    },
    unregister: (ref) => {
      if (!this.registered.delete(ref)) throw new Error('unregister of an unknown callback');
      this.unregistered.push(ref);
    },
  };

  readonly cf: MacNative['cf'] = {
    CFRelease: (ref) => this.release(ref),
    CFRetain: (ref) => this.retain(ref),
    CFGetTypeID: (ref) => TYPE_IDS[this.object(ref, 'CFGetTypeID').kind] ?? 999,
    CFHash: (ref) => Number(this.sameElement(ref) % 100000n),
    CFEqual: (a, b) => this.sameElement(a) === this.sameElement(b),
    CFStringGetTypeID: () => TYPE_IDS.string,
    CFNumberGetTypeID: () => TYPE_IDS.number,
    CFBooleanGetTypeID: () => TYPE_IDS.boolean,
    CFArrayGetTypeID: () => TYPE_IDS.array,
    CFDictionaryGetTypeID: () => TYPE_IDS.dictionary,
    CFNullGetTypeID: () => TYPE_IDS.null,
    CFStringCreateWithCString: (text) => this.string(text),
    CFStringGetLength: (ref) => this.stringOf(ref).length,
    CFStringGetCharacters: (ref, length) => Buffer.from(this.stringOf(ref).slice(0, length), 'utf16le'),
    CFNumberIsFloatType: (ref) => !Number.isInteger(this.object(ref, 'number').value),
    CFNumberGetFloat64: (ref) => this.object(ref, 'number').value as number,
    CFNumberGetSInt64: (ref) => Math.trunc(this.object(ref, 'number').value as number),
    CFNumberCreateFloat64: (value) => this.number(value),
    CFBooleanGetValue: (ref) => ref === this.cf.kCFBooleanTrue,
    CFArrayGetCount: (ref) => this.object(ref, 'array').items!.length,
    CFArrayGetValueAtIndex: (ref, i) => this.object(ref, 'array').items![i] ?? null,
    CFArrayCreate: (values) => this.array([...values], false),
    CFDictionaryGetCount: (ref) => this.object(ref, 'dict').entries!.length,
    CFDictionaryGetValue: (ref, key) => {
      const wanted = this.stringOf(key);
      return this.object(ref, 'dict').entries!.find(([k]) => this.stringOf(k) === wanted)?.[1] ?? null;
    },
    CFDictionaryCreate: (keys, values) => {
      keys.forEach((k) => this.retain(k));
      values.forEach((v) => this.retain(v));
      return this.alloc('dictionary', { entries: keys.map((k, i) => [k, values[i]] as [Ref, Ref]) });
    },
    CFRunLoopGetCurrent: () => this.runLoop,
    CFRunLoopAddSource: (_rl, source) => {
      this.runLoopSources.add(source);
    },
    CFRunLoopRemoveSource: (_rl, source) => {
      this.runLoopSources.delete(source);
    },
    CFRunLoopRunInMode: () => {
      this.onRunLoop?.();
      return 3;
    },
    CFMachPortCreateRunLoopSource: (port) => {
      this.object(port, 'port');
      return this.alloc('source');
    },
    CFMachPortInvalidate: (port) => {
      this.object(port, 'port');
      this.invalidatedPorts.push(port);
    },
    kCFBooleanTrue: this.alloc('boolean', { value: true }, true),
    kCFBooleanFalse: this.alloc('boolean', { value: false }, true),
    kCFRunLoopDefaultMode: this.alloc('string', { value: 'kCFRunLoopDefaultMode' }, true),
    kCFRunLoopCommonModes: this.alloc('string', { value: 'kCFRunLoopCommonModes' }, true),
  };

  private readonly runLoop = this.alloc('runloop', {}, true);

  readonly ax: MacNative['ax'] = {
    AXIsProcessTrusted: () => this.trusted,
    AXIsProcessTrustedWithOptions: (options) => {
      // The dictionary must be alive during the call (a use after free throws here).
      const prompt = options === null ? null : this.cf.CFDictionaryGetValue(options, this.ax.kAXTrustedCheckOptionPrompt);
      this.trustPrompts.push(prompt === this.cf.kCFBooleanTrue);
      return this.trusted;
    },
    AXUIElementCreateApplication: (pid) => {
      const app = this.apps.get(pid);
      if (!app) return this.retain(this.elementRef({ error: -25202 }));
      return this.retain(this.elementRef(app));
    },
    AXUIElementCreateSystemWide: () => this.retain(this.elementRef(this.systemWide)),
    AXUIElementGetTypeID: () => TYPE_IDS.element,
    AXValueGetTypeID: () => TYPE_IDS.axvalue,
    AXUIElementCopyAttributeValue: (element, attribute, out) => {
      const el = this.elementOf(element);
      const pid = [...this.apps].find(([, app]) => app === el)?.[0];
      if (pid !== undefined && this.appInput.has(pid)) {
        // The app answers from its main thread: only between events, never when it speaks no AX.
        const input = this.processInput(pid);
        if (input.axSilent || input.hung || input.inbox.length > 0) return -25204;
      }
      const result = this.attribute(el, this.stringOf(attribute));
      out[0] = result.value;
      return result.error;
    },
    AXUIElementCopyMultipleAttributeValues: (element, attributes, _options, out) => {
      const el = this.elementOf(element);
      if (el.error) return el.error;
      const names = this.object(attributes, 'names').items!.map((n) => this.stringOf(n));
      const values = names.map((name) => {
        const { error, value } = this.attribute(el, name);
        return error === 0 && value !== null ? value : this.axValue(5, [error]);
      });
      out[0] = this.array(values, true);
      return 0;
    },
    AXUIElementCopyActionNames: (element, out) => {
      out[0] = this.array((this.elementOf(element).actions ?? []).map((a) => this.string(a)), true);
      return 0;
    },
    AXUIElementSetAttributeValue: (element, attribute, value) => {
      const el = this.elementOf(element);
      const name = this.stringOf(attribute);
      if (el.error) return el.error;
      if (!(el.settable ?? []).includes(name)) return -25205;
      const object = this.object(value, 'value');
      this.written.push({ element: el, attribute: name, value: object.kind === 'boolean' ? value === this.cf.kCFBooleanTrue : object.value });
      return 0;
    },
    AXUIElementIsAttributeSettable: (element, attribute, out) => {
      out[0] = (this.elementOf(element).settable ?? []).includes(this.stringOf(attribute));
      return 0;
    },
    AXUIElementPerformAction: (element, action) => {
      const el = this.elementOf(element);
      if (el.error) return el.error;
      const name = this.stringOf(action);
      if (!(el.actions ?? []).includes(name)) return -25206;
      this.performed.push({ element: el, action: name });
      return 0;
    },
    AXUIElementSetMessagingTimeout: (element, seconds) => {
      this.object(element, 'timeout');
      this.messagingTimeouts.push({ element: this.elementOf(element), ref: element, seconds });
      return seconds > 0 ? 0 : -25201;
    },
    AXUIElementGetPid: (element, out) => {
      const pid = this.pidOf(this.elementOf(element));
      if (pid === undefined) return -25202;
      out[0] = pid;
      return 0;
    },
    AXUIElementCopyElementAtPosition: (element, x, y, out) => {
      this.object(element, 'element at position');
      const asked = this.elementOf(element);
      if (asked.error !== undefined) return asked.error;
      // Asked of an app, the test stays in that app (AXUIElement.h); the system-wide element asks every app.
      const hit = this.elementAt(x, y, asked === this.systemWide ? undefined : asked);
      if (!hit) return -25212;
      out[0] = this.freshElementRef(hit);
      return 0;
    },
    _AXUIElementGetWindow: (element, out) => {
      const id = this.elementOf(element).windowId;
      if (!id) return -25205;
      out[0] = id;
      return 0;
    },
    AXValueGetType: (ref) => (this.object(ref, 'axvalue').value as { type: number }).type,
    AXValueCreateRange: (location, length) => this.axValue(4, [location, length]),
    AXValueGetValue: (ref, type, buffer) => {
      const { type: actual, data } = this.object(ref, 'axvalue').value as { type: number; data: number[] };
      if (actual !== type) return false;
      if (type === 5) buffer.writeInt32LE(data[0], 0);
      else if (type === 4) data.forEach((d, i) => buffer.writeBigInt64LE(BigInt(d), i * 8));
      else data.forEach((d, i) => buffer.writeDoubleLE(d, i * 8));
      return true;
    },
    AXObserverCreate: (pid, callback, out) => {
      if (!this.observerAllowed || !this.apps.has(pid)) return -25204;
      if (!this.registered.has(callback)) throw new Error('AXObserverCreate with an unregistered callback');
      out[0] = this.alloc('observer', { value: { callback, source: this.alloc('source', {}, true), notifications: new Set<string>() } });
      return 0;
    },
    AXObserverAddNotification: (observer, _element, notification) => {
      (this.object(observer, 'observer').value as { notifications: Set<string> }).notifications.add(this.stringOf(notification));
      return 0;
    },
    AXObserverRemoveNotification: (observer, _element, notification) => {
      (this.object(observer, 'observer').value as { notifications: Set<string> }).notifications.delete(this.stringOf(notification));
      return 0;
    },
    AXObserverGetRunLoopSource: (observer) => (this.object(observer, 'observer').value as { source: Ref }).source,
    kAXTrustedCheckOptionPrompt: this.alloc('string', { value: 'AXTrustedCheckOptionPrompt' }, true),
  };

  /** An app's input model (created on first use: instant handling). */
  inputOf(pid: number): AppInput {
    let input = this.appInput.get(pid);
    if (!input) {
      input = { msPerEvent: 0, hung: false, axSilent: false, inbox: [], handled: [], busyUntil: 0 };
      this.appInput.set(pid, input);
    }
    return input;
  }

  /** Moves what the app has had time to handle from its inbox to `handled`. */
  processInput(pid: number, now = Date.now()): AppInput {
    const input = this.inputOf(pid);
    while (input.inbox.length > 0 && !input.hung) {
      const { event, arrivedAt } = input.inbox[0];
      const readyAt = Math.max(arrivedAt, input.busyUntil) + input.msPerEvent;
      if (readyAt > now) break;
      input.busyUntil = readyAt;
      input.handled.push(event);
      input.inbox.shift();
    }
    return input;
  }

  /** The text an app has taken in (the unicode strings of the key downs it handled). */
  typedInto(pid: number): string {
    return this.processInput(pid).handled.filter((e) => e.keyDown && e.unicode !== undefined).map((e) => e.unicode).join('');
  }

  /** A person's key (no marker), posted like hardware input (kCGEventSourceStateID 45 = HID system state): through the tap, then to the focused app. */
  humanKey(keycode: number, flags = 0n, unicode?: string): void {
    for (const keyDown of [true, false]) this.route({ type: keyDown ? 10 : 11, keyDown, keycode, flags, fields: new Map([[45, 1n], [41, 0n]]), unicode, tapLocation: 0 });
  }

  /**
   * The window server: an event goes through the session tap while one is enabled (a moment
   * later, on the tap's thread), then — unless the tap swallowed it — to the focused app.
   */
  private route(event: PostedEvent): void {
    setImmediate(() => {
      const callback = this.tapEnabled && this.tapCallback !== null ? (this.registered.get(this.tapCallback) as unknown as ((p: null, t: number, e: Ref, i: null) => Ref | null) | undefined) : undefined;
      if (callback) {
        const ref = this.eventObject({ ...event, fields: new Map(event.fields) });
        const passed = callback(null, event.type, ref, null);
        this.release(ref);
        if (passed === null) return;
      }
      if (this.focusedPid === null) {
        this.undelivered.push(event);
        return;
      }
      this.inputOf(this.focusedPid).inbox.push({ event, arrivedAt: Date.now() });
    });
  }

  /** The deepest element of any app whose frame holds the point (what AX hit-testing answers). */
  private elementAt(x: number, y: number, within?: FakeElement): FakeElement | null {
    const inside = (el: FakeElement): boolean =>
      !!el.position && !!el.size && x >= el.position.x && y >= el.position.y && x < el.position.x + el.size.width && y < el.position.y + el.size.height;
    const deepest = (el: FakeElement): FakeElement | null => {
      for (const child of el.children ?? []) {
        const hit = deepest(child);
        if (hit) return hit;
      }
      return inside(el) ? el : null;
    };
    for (const app of within ? [within] : this.apps.values()) {
      const hit = deepest(app);
      if (hit) return hit;
    }
    return null;
  }

  /** The app (pid) an element belongs to, for AXUIElementGetPid on any element of its tree. */
  pidOf(element: FakeElement): number | undefined {
    const within = (root: FakeElement): boolean => root === element || (root.children ?? []).some(within);
    for (const [pid, app] of this.apps) if (within(app)) return pid;
    return undefined;
  }

  /** Fires the observer callback registered through AXObserverCreate (as the run loop would). */
  fireObserver(observer: Ref, notification = 'AXValueChanged'): void {
    const { callback } = this.object(observer, 'observer').value as { callback: Ref };
    const fn = this.registered.get(callback) as unknown as (o: Ref, e: Ref | null, n: Ref, r: Ref | null) => void;
    const name = this.string(notification);
    fn(observer, null, name, null);
    this.release(name);
  }

  liveObservers(): Ref[] {
    return [...this.heap].filter(([, o]) => o.kind === 'observer' && o.count > 0).map(([ref]) => ref);
  }

  windowList: Array<Record<string, unknown>> = [];
  displays = [{ id: 1, bounds: { origin: { x: 0, y: 0 }, size: { width: 1440, height: 900 } }, scale: 2 }];

  readonly cg: MacNative['cg'] = {
    CGEventCreate: () => this.eventObject({ type: 0, location: { ...this.cursor } }),
    CGEventCreateMouseEvent: (_src, type, point, button) => this.eventObject({ type, location: { ...point }, button }),
    CGEventCreateKeyboardEvent: (_src, keycode, down) => this.eventObject({ type: down ? 10 : 11, keyDown: down, keycode }),
    CGEventCreateScrollWheelEvent2: (_src, units, count, w1, w2, w3) => this.eventObject({ type: 22, scroll: { units, count, w1, w2, w3 } }),
    CGEventPost: (location, ref) => {
      const event = this.event(ref);
      const copy = { ...event, fields: new Map(event.fields), tapLocation: location };
      this.posted.push(copy);
      this.route(copy);
    },
    CGEventGetLocation: (ref) => this.event(ref).location ?? { x: 0, y: 0 },
    CGEventGetType: (ref) => this.event(ref).type,
    CGEventGetFlags: (ref) => this.event(ref).flags,
    CGEventSetFlags: (ref, flags) => {
      this.event(ref).flags = flags;
    },
    CGEventGetIntegerValueField: (ref, field) => {
      const event = this.event(ref);
      if (field === 9) return BigInt(event.keycode ?? 0);
      return event.fields.get(field) ?? 0n;
    },
    CGEventSetIntegerValueField: (ref, field, value) => {
      this.event(ref).fields.set(field, value);
    },
    CGEventKeyboardSetUnicodeString: (ref, utf16) => {
      this.event(ref).unicode = utf16.toString('utf16le');
    },
    CGWarpMouseCursorPosition: (point) => {
      this.cursor = { ...point };
      return 0;
    },
    CGEventTapCreate: (_location, _placement, _options, _mask, callback) => {
      if (!this.registered.has(callback)) throw new Error('CGEventTapCreate with an unregistered callback');
      if (!this.tapAllowed) return null;
      this.tapCallback = callback;
      return this.alloc('port');
    },
    CGEventTapEnable: (tap, enable) => {
      this.object(tap, 'tap');
      this.tapEnabled = enable;
    },
    CGEventTapIsEnabled: () => this.tapEnabled,
    CGWindowListCopyWindowInfo: () => {
      const dicts = this.windowList.map((entry) => {
        const keys: Ref[] = [];
        const values: Ref[] = [];
        for (const [key, value] of Object.entries(entry)) {
          keys.push(this.string(key));
          if (typeof value === 'string') values.push(this.string(value));
          else if (typeof value === 'number') values.push(this.number(value));
          else if (typeof value === 'boolean') values.push(this.retain(this.boolRef(value)));
          else values.push(this.alloc('dictionary', { value, entries: [] }));
        }
        const dict = this.cf.CFDictionaryCreate(keys, values)!;
        keys.forEach((k) => this.release(k));
        values.forEach((v) => this.release(v));
        return dict;
      });
      return this.array(dicts, true);
    },
    CGRectMakeWithDictionaryRepresentation: (dict) => {
      const r = this.object(dict, 'bounds').value as { X: number; Y: number; Width: number; Height: number } | undefined;
      return r ? { origin: { x: r.X, y: r.Y }, size: { width: r.Width, height: r.Height } } : null;
    },
    CGMainDisplayID: () => 1,
    CGGetActiveDisplayList: () => this.displays.map((d) => d.id),
    CGDisplayBounds: (id) => this.displays.find((d) => d.id === id)!.bounds,
    CGDisplayScale: (id) => this.displays.find((d) => d.id === id)!.scale,
    CGPreflightScreenCaptureAccess: () => this.screenRecordingGranted,
    CGRequestScreenCaptureAccess: () => {
      this.screenRecordingRequests++;
      return this.screenRecordingGranted;
    },
    windowInfoKeys: Object.fromEntries(WINDOW_INFO_KEYS.map((key) => [key, this.string(key, true)])) as Record<WindowInfoKey, Ref>,
  };

  /** The process table libproc reads. */
  processes: FakeProcess[] = [];

  readonly proc: MacNative['proc'] = {
    proc_listallpids: () => this.processes.map((p) => p.pid),
    proc_bsdinfo: (pid) => {
      const found = this.processes.find((p) => p.pid === pid);
      return found ? { pid: found.pid, ppid: found.ppid, uid: found.uid, comm: found.comm, name: found.name, startMs: found.startMs } : null;
    },
    proc_pidpath: (pid) => this.processes.find((p) => p.pid === pid)?.path ?? null,
  };

  // A sliver of the Objective-C runtime: NSRunningApplication by pid (activationPolicy,
  // localizedName, bundleIdentifier) over the process table. Objects are plain tagged numbers.
  private readonly selectors = new Map<string, bigint>();
  private readonly objcObjects = new Map<bigint, { kind: 'class' } | { kind: 'app'; process: FakeProcess } | { kind: 'string'; text: string }>();
  private nextObjc = 0x7000_0000n;
  private objcObject(value: { kind: 'class' } | { kind: 'app'; process: FakeProcess } | { kind: 'string'; text: string }): bigint {
    const ref = (this.nextObjc += 0x10n);
    this.objcObjects.set(ref, value);
    return ref;
  }
  private selector(ref: bigint): string {
    for (const [name, value] of this.selectors) if (value === ref) return name;
    throw new Error(`unknown selector ${ref}`);
  }
  private readonly runningApplicationClass = this.objcObject({ kind: 'class' });

  readonly objc: MacNative['objc'] = {
    objc_getClass: (name) => (name === 'NSRunningApplication' ? this.runningApplicationClass : null),
    sel_registerName: (name) => {
      if (!this.selectors.has(name)) this.selectors.set(name, BigInt(this.selectors.size + 1));
      return this.selectors.get(name)!;
    },
    objc_autoreleasePoolPush: () => 2n,
    objc_autoreleasePoolPop: () => undefined,
    msgSend_id: (receiver, selector) => {
      const object = this.objcObjects.get(receiver);
      if (object?.kind !== 'app') return null;
      const name = this.selector(selector);
      if (name === 'localizedName' && object.process.localizedName !== undefined) return this.objcObject({ kind: 'string', text: object.process.localizedName });
      return null;
    },
    msgSend_id_i32: (receiver, selector, pid) => {
      if (receiver !== this.runningApplicationClass || this.selector(selector) !== 'runningApplicationWithProcessIdentifier:') return null;
      const process = this.processes.find((p) => p.pid === pid && p.activationPolicy !== undefined);
      return process ? this.objcObject({ kind: 'app', process }) : null;
    },
    msgSend_id_u64: () => null,
    msgSend_u64: () => 0,
    msgSend_i64: (receiver, selector) => {
      const object = this.objcObjects.get(receiver);
      return object?.kind === 'app' && this.selector(selector) === 'activationPolicy' ? object.process.activationPolicy! : 0;
    },
    msgSend_i32: () => 0,
    msgSend_cstr: (receiver) => {
      const object = this.objcObjects.get(receiver);
      return object?.kind === 'string' ? object.text : null;
    },
    msgSend_bool_u64: () => false,
    msgSend_bool: () => false,
  };
}
