// The guard's event tap itself: created on the calling thread's run loop, pumped in short
// slices, torn down exactly once. Written against the MacNative interface so it runs in the tap
// worker on a Mac and against a fake binding in unit tests. The tap callback never throws into
// native code: a throw there would return NULL and silently eat the person's event, so any
// failure passes the event through instead (fail open). Once the engine's thread has taken the
// tap over (TapShared: the worker was stuck or dying), the callback passes everything and the
// worker touches the tap no more. Failing open is never silent, though: the session ends at the
// next slice ('callback-failed') and the engine stops the call with guard-lost. Secure event
// input (a password field, Terminal's Secure Keyboard Entry) hides keys, Esc included, from the
// tap: the session refuses to start under it and ends as soon as it comes on ('secure-input').

import type { MacNative, NullableRef, Ref } from '../../../native/macos/macNative.js';
import { CFRunLoopRunResult, CGEventField, CGEventTapLocation, CGEventType, kCGEventTapOptionDefault, kCGHeadInsertEventTap } from '../../../native/macos/macNative.js';
import { decideTapEvent, GUARDED_EVENT_MASK } from './cgEventTapPolicy.js';
import { TapState, type TapShared } from './cgEventTapShared.js';

const TAP_DISABLED_TYPES = new Set<number>([CGEventType.tapDisabledByTimeout, CGEventType.tapDisabledByUserInput]);

export type TapMessage =
  | { type: 'ready' }
  | { type: 'failed'; reason: string; cause: 'tap' | 'load' | 'secure-input' }
  | { type: 'escape' }
  | { type: 'enter' }
  | { type: 'human'; kind: 'key' | 'pointer' }
  | { type: 'reenabled'; cause: 'timeout' | 'user-input' }
  | { type: 'released'; reason: TapReleaseReason };

/**
 * Why the tap came down: asked to ('release'), its lifetime cap ('lifetime'), no heartbeat from
 * the engine's thread ('heartbeat-lost'), macOS disabled it and it would not come back on
 * ('disabled'), its run loop stopped ('error'), the engine's thread took it over ('taken-over'),
 * secure event input came on ('secure-input'), or the callback threw ('callback-failed').
 */
export type TapReleaseReason = 'release' | 'lifetime' | 'heartbeat-lost' | 'disabled' | 'error' | 'taken-over' | 'secure-input' | 'callback-failed';

export interface TapSessionOptions {
  marker: bigint;
  /** Seconds per CFRunLoopRunInMode slice. */
  sliceSeconds: number;
  /** The tap releases itself when no heartbeat came for this long (main thread stuck or gone). */
  heartbeatTimeoutMs: number;
  /** Absolute cap on how long the person can be locked out, whatever the main thread does. */
  maxLifetimeMs: number;
  /** Ownership, the tap's pointer and the count of Tandem's own events seen, shared with the engine's thread. */
  shared: TapShared;
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
  /** macOS disabled the tap and CGEventTapEnable did not bring it back: the next pump ends the session. */
  private reenableFailed = false;
  /** The callback threw (it passed that event and passes every one after): the next pump ends the session. */
  private callbackFailed = false;
  /** The keycode of the last Enter that answered, until its key up is held back. */
  private enterKeycode: number | null = null;

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
    // Released, or taken over by the engine's thread, before it started: never create the tap.
    if (this.done || this.options.shared.state() !== TapState.live) return false;
    const secure = this.secureInputOn();
    if (secure !== false) {
      this.done = true;
      this.send(
        secure === true
          ? { type: 'failed', cause: 'secure-input', reason: "secure keyboard entry is on (a password field or Terminal's Secure Keyboard Entry): the event tap could not hear Esc" }
          : { type: 'failed', cause: 'load', reason: `IsSecureEventInputEnabled failed: ${secure.message}` },
      );
      return false;
    }
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
    this.options.shared.publish(tap);
    if (this.options.shared.state() === TapState.takenOver) {
      // The engine's thread gave up on this worker while the tap was being created (it may not
      // have seen the pointer): disable it here, and leave it, like the rest, to the takeover.
      cg.CGEventTapEnable(tap, false);
      cf.CFMachPortInvalidate(tap);
      this.done = true;
      return false;
    }
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

  /** True, false, or the error that kept us from knowing (then nothing may be held). */
  private secureInputOn(): boolean | Error {
    try {
      return this.native.hiToolbox.IsSecureEventInputEnabled();
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  private onEvent(type: number, event: NullableRef): NullableRef {
    try {
      // The engine's thread took the tap over, it is coming down, or a callback failed: hold nothing back.
      if (this.done || this.callbackFailed || this.options.shared.state() !== TapState.live) return event;
      const { cg } = this.native;
      // Tap-disabled notices carry no real event: decide on the type alone, read no fields.
      const readable = event !== null && !TAP_DISABLED_TYPES.has(type);
      const keycode = readable && (type === CGEventType.keyDown || type === CGEventType.keyUp) ? Number(cg.CGEventGetIntegerValueField(event, CGEventField.keyboardEventKeycode)) : -1;
      const decision = decideTapEvent({
        type,
        keycode,
        flags: readable ? cg.CGEventGetFlags(event) : 0n,
        userData: readable ? cg.CGEventGetIntegerValueField(event, CGEventField.eventSourceUserData) : 0n,
        // Whether a key down is a fresh press from the keyboard itself: only that may answer a question.
        ...(readable && type === CGEventType.keyDown
          ? {
              autorepeat: cg.CGEventGetIntegerValueField(event, CGEventField.keyboardEventAutorepeat) !== 0n,
              sourceStateId: cg.CGEventGetIntegerValueField(event, CGEventField.eventSourceStateID),
              sourcePid: cg.CGEventGetIntegerValueField(event, CGEventField.eventSourceUnixProcessID),
            }
          : {}),
      }, this.options.marker);
      switch (decision.action) {
        case 'pass':
          return event;
        case 'pass-ours':
          if (decision.counted) this.options.shared.countOurs();
          return event;
        case 'reenable':
          // macOS disabled the tap (a slow callback, or secure input): turn it back on. If it
          // stays off, the guard no longer holds anything: the next pump ends it, and the engine
          // hears of it ('released' → the call stops with guard-lost).
          if (this.tap !== null) {
            cg.CGEventTapEnable(this.tap, true);
            if (!cg.CGEventTapIsEnabled(this.tap)) {
              this.reenableFailed = true;
              return event;
            }
          }
          this.send({ type: 'reenabled', cause: type === CGEventType.tapDisabledByTimeout ? 'timeout' : 'user-input' });
          return event;
        case 'escape':
          this.send({ type: 'escape' });
          return null;
        case 'enter':
          this.send({ type: 'enter' });
          this.enterKeycode = keycode;
          return null;
        case 'swallow':
          // The release of the Enter that answered a question is part of that answer: held back,
          // but not counted as the person's other input (which the next answer would report).
          if (type === CGEventType.keyUp && keycode === this.enterKeycode) {
            this.enterKeycode = null;
            return null;
          }
          this.send({ type: 'human', kind: decision.kind });
          return null;
      }
    } catch {
      // Fail open (never eat the person's input because of our bug), but not silently: the
      // next pump ends the session and the call stops with guard-lost.
      this.callbackFailed = true;
      return event;
    }
  }

  heartbeat(): void {
    this.lastHeartbeat = this.now();
  }

  /** Runs one run-loop slice; returns false once the session is over (then it is torn down). */
  pump(): boolean {
    if (this.done) return false;
    if (this.options.shared.state() === TapState.takenOver) {
      this.stop('taken-over');
      return false;
    }
    if (this.reenableFailed) {
      this.stop('disabled');
      return false;
    }
    if (this.callbackFailed) {
      this.stop('callback-failed');
      return false;
    }
    // The tap no longer sees keys (Esc included) under secure input: the person could not cancel.
    const secure = this.secureInputOn();
    if (secure !== false) {
      this.stop(secure === true ? 'secure-input' : 'error');
      return false;
    }
    const now = this.now();
    if (now - this.startedAt > this.options.maxLifetimeMs) {
      this.stop('lifetime');
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
  stop(reason: TapReleaseReason): void {
    if (this.done) return;
    this.teardown();
    this.send({ type: 'released', reason });
  }

  private teardown(): void {
    this.done = true;
    const { cf, cg, callbacks } = this.native;
    if (this.tap !== null && !this.options.shared.beginWorkerTeardown()) {
      // Taken over: the engine's thread disables and invalidates the tap, maybe right now. Touch
      // nothing it may still use — not the tap, its source, nor the callback the tap may call.
      this.tap = this.source = this.runLoop = this.callback = null;
      return;
    }
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
      // From here only this thread may free it; a takeover after a crash leaves it alone.
      steps.push(() => this.options.shared.markDisabled());
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
