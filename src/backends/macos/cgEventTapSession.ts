// The guard's event tap itself: created on the calling thread's run loop, pumped in short
// slices, torn down exactly once. Written against the MacNative interface so it runs in the tap
// worker on a Mac and against a fake binding in unit tests. The tap callback never throws into
// native code: a throw there would return NULL and silently eat the person's event, so any
// failure passes the event through instead (fail open).

import type { MacNative, NullableRef, Ref } from '../../../native/macos/macNative.js';
import { CFRunLoopRunResult, CGEventField, CGEventTapLocation, CGEventType, kCGEventTapOptionDefault, kCGHeadInsertEventTap } from '../../../native/macos/macNative.js';
import { decideTapEvent, GUARDED_EVENT_MASK } from './cgEventTapPolicy.js';

const TAP_DISABLED_TYPES = new Set<number>([CGEventType.tapDisabledByTimeout, CGEventType.tapDisabledByUserInput]);

export type TapMessage =
  | { type: 'ready' }
  | { type: 'failed'; reason: string; cause: 'tap' | 'load' }
  | { type: 'escape' }
  | { type: 'human'; kind: 'key' | 'pointer' }
  | { type: 'reenabled'; cause: 'timeout' | 'user-input' }
  | { type: 'released'; reason: 'release' | 'watchdog' | 'heartbeat-lost' | 'error' };

export interface TapSessionOptions {
  marker: bigint;
  /** Seconds per CFRunLoopRunInMode slice. */
  sliceSeconds: number;
  /** The tap releases itself when no heartbeat came for this long (main thread stuck or gone). */
  heartbeatTimeoutMs: number;
  /** Absolute cap on how long the person can be locked out, whatever the main thread does. */
  maxLifetimeMs: number;
  now?: () => number;
}

export class EventTapSession {
  private tap: Ref | null = null;
  private source: Ref | null = null;
  private runLoop: Ref | null = null;
  private callback: Ref | null = null;
  private startedAt = 0;
  private lastHeartbeat = 0;
  private done = false;

  constructor(
    private readonly native: MacNative,
    private readonly options: TapSessionOptions,
    private readonly send: (message: TapMessage) => void,
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  get active(): boolean {
    return this.tap !== null && !this.done;
  }

  /** Creates and enables the tap on the current thread's run loop. Sends 'ready' or 'failed'. */
  start(): boolean {
    if (this.done) return false; // released before it started: never create the tap
    const { cf, cg, callbacks } = this.native;
    this.startedAt = this.lastHeartbeat = this.now();
    this.callback = callbacks.registerEventTapCallback((_proxy, type, event) => this.onEvent(type, event));
    const tap = cg.CGEventTapCreate(CGEventTapLocation.session, kCGHeadInsertEventTap, kCGEventTapOptionDefault, GUARDED_EVENT_MASK, this.callback, null);
    if (tap === null) {
      this.teardown();
      this.send({ type: 'failed', cause: 'tap', reason: 'CGEventTapCreate returned NULL: this process is not trusted for Accessibility (or input monitoring is denied).' });
      return false;
    }
    this.tap = tap;
    const source = cf.CFMachPortCreateRunLoopSource(tap, 0);
    if (source === null) {
      this.teardown();
      this.send({ type: 'failed', cause: 'tap', reason: 'CFMachPortCreateRunLoopSource returned NULL.' });
      return false;
    }
    this.source = source;
    this.runLoop = cf.CFRunLoopGetCurrent();
    cf.CFRunLoopAddSource(this.runLoop, source, cf.kCFRunLoopCommonModes);
    cg.CGEventTapEnable(tap, true);
    this.send({ type: 'ready' });
    return true;
  }

  private onEvent(type: number, event: NullableRef): NullableRef {
    try {
      const { cg } = this.native;
      // Tap-disabled notices carry no real event: decide on the type alone, read no fields.
      const readable = event !== null && !TAP_DISABLED_TYPES.has(type);
      const decision = decideTapEvent({
        type,
        keycode: readable && (type === CGEventType.keyDown || type === CGEventType.keyUp) ? Number(cg.CGEventGetIntegerValueField(event, CGEventField.keyboardEventKeycode)) : -1,
        flags: readable ? cg.CGEventGetFlags(event) : 0n,
        userData: readable ? cg.CGEventGetIntegerValueField(event, CGEventField.eventSourceUserData) : 0n,
      }, this.options.marker);
      switch (decision.action) {
        case 'pass':
          return event;
        case 'reenable':
          // macOS disabled the tap (a slow callback, or secure input): turn it back on.
          if (this.tap !== null && !this.done) cg.CGEventTapEnable(this.tap, true);
          this.send({ type: 'reenabled', cause: type === CGEventType.tapDisabledByTimeout ? 'timeout' : 'user-input' });
          return event;
        case 'escape':
          this.send({ type: 'escape' });
          return null;
        case 'swallow':
          this.send({ type: 'human', kind: decision.kind });
          return null;
      }
    } catch {
      return event; // fail open: never eat the person's input because of our bug
    }
  }

  heartbeat(): void {
    this.lastHeartbeat = this.now();
  }

  /** Runs one run-loop slice; returns false once the session is over (then it is torn down). */
  pump(): boolean {
    if (this.done) return false;
    const now = this.now();
    if (now - this.startedAt > this.options.maxLifetimeMs) {
      this.stop('watchdog');
      return false;
    }
    if (now - this.lastHeartbeat > this.options.heartbeatTimeoutMs) {
      this.stop('heartbeat-lost');
      return false;
    }
    const { cf } = this.native;
    const result = cf.CFRunLoopRunInMode(cf.kCFRunLoopDefaultMode, this.options.sliceSeconds, false);
    if (result === CFRunLoopRunResult.stopped) {
      this.stop('error');
      return false;
    }
    return true;
  }

  /** Disables, removes and releases the tap once; sends 'released'. Idempotent. */
  stop(reason: 'release' | 'watchdog' | 'heartbeat-lost' | 'error'): void {
    if (this.done) return;
    this.teardown();
    this.send({ type: 'released', reason });
  }

  private teardown(): void {
    this.done = true;
    const { cf, cg, callbacks } = this.native;
    const steps: Array<() => void> = [];
    if (this.tap !== null) {
      const tap = this.tap;
      steps.push(() => cg.CGEventTapEnable(tap, false));
    }
    if (this.source !== null && this.runLoop !== null) {
      const [source, runLoop] = [this.source, this.runLoop];
      steps.push(() => cf.CFRunLoopRemoveSource(runLoop, source, cf.kCFRunLoopCommonModes));
    }
    if (this.tap !== null) {
      const tap = this.tap;
      steps.push(() => cf.CFMachPortInvalidate(tap));
    }
    if (this.source !== null) {
      const source = this.source;
      steps.push(() => cf.CFRelease(source));
    }
    if (this.tap !== null) {
      const tap = this.tap;
      steps.push(() => cf.CFRelease(tap));
    }
    if (this.callback !== null) {
      const callback = this.callback;
      steps.push(() => callbacks.unregister(callback));
    }
    this.tap = this.source = this.runLoop = this.callback = null;
    // Every step runs even if one throws: a half-removed tap must still be disabled and freed.
    for (const step of steps) {
      try {
        step();
      } catch (error) {
        console.error('[tandem] event tap teardown step failed:', error);
      }
    }
  }
}
