// Proof that a macOS app has handled the input Tandem posted to it (core/input/inputPacing.ts's
// ConsumptionBarrier), in two steps:
//
// 1. The events left the window server's session stage: the guard's own event tap sits there
//    and counts Tandem's marked events as they pass (TapShared.oursSeen). An event counted has
//    been routed on towards the app; one not counted may still sit in the window server.
// 2. An accessibility round trip to the receiving app (AXRole of its application element).
//    AppKit answers AX requests on the app's main thread, from the same run loop that takes in
//    the app's events: NSApplication dequeues and dispatches every event already queued before
//    it runs the run loop again, and only a run-loop turn services the AX request. So an answer
//    to a request sent after the events reached the app means the app has dispatched them (?):
//    not guaranteed by any Apple document, reasoned from how AppKit's event loop is built, and
//    measured by the macOS e2e suite (after a cancel, ≤ 5 characters may still arrive).
//
// Considered and not used: AXValueChanged / AXSelectedTextChanged observers (notifications are
// coalesced, are not sent for keys that change no text — shortcuts, arrows — and a secure field
// must not be watched); reading the field's value until the text is there (same, and it reads
// what the person may not want read); CGEventPostToPid (events then skip the session taps, so
// step 1 would see nothing, and background delivery is unconfirmed (?)).
//
// An app that does not answer AX at all (no accessibility support) cannot prove anything: when
// the receiver has not answered a single request for a second, the barrier paces at a fixed rate
// instead, saying so (like Linux without _NET_WM_PING), and the desktop remembers the pid. After
// a first answer, an app that stops answering is busy or hung: the barrier keeps asking, and the
// pacer calls it not responding after its limit.

import { TandemError } from '../../core/errors.js';
import type { BarrierOutcome, ConsumptionBarrier } from '../../core/input/inputPacing.js';
import type { MacNative, NullableRef, Ref } from '../../../native/macos/macNative.js';
import { AXErrorCode } from './axErrors.js';

export interface OwnEventCount {
  /** Tandem's own counted events posted so far (CGEventInput.countedPosted). */
  posted(): number;
  /** …and how many of them the guard's tap has seen pass; null when no tap is up. */
  seen(): number | null;
}

export interface AxBarrierOptions {
  /** AX messaging timeout of the barrier's own app element, in seconds: the longest the engine's thread blocks per try. */
  messagingTimeoutS: number;
  /** Pause between two tries while the app does not answer. */
  retryMs: number;
  /** Longest wait for the tap to see the events; past it the tap is taken not to see them at all. */
  tapWaitMs: number;
  /** Where no receiver can answer: this long per batch. */
  fixedPaceMs: number;
  /** No answer at all for this long since the first request: the receiver is taken not to speak AX. */
  silentMs: number;
}

export const DEFAULT_AX_BARRIER: AxBarrierOptions = { messagingTimeoutS: 0.25, retryMs: 10, tapWaitMs: 250, fixedPaceMs: 8, silentMs: 1_000 };

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface AxBarrierHooks {
  log(message: string): void;
  /** The tap did not see Tandem's events within tapWaitMs: step 1 is skipped from now on. */
  onTapBlind(): void;
  /** The receiver answered no AX request for silentMs: the barrier went to a fixed pace. */
  onSilent(pid: number): void;
}

export class AxInputBarrier implements ConsumptionBarrier {
  private app: Ref | null;
  private role: Ref | null;
  private closed = false;
  /** The receiver answered at least once: from then on silence means busy, not "no AX". */
  private answered = false;
  /** When the first request went unanswered (epoch ms), until one is answered. */
  private silentSince: number | null = null;
  /** Marks answer one after the other, in the order they were placed. */
  private chain: Promise<unknown> = Promise.resolve();
  private readonly postedBase: number;
  private readonly seenBase: number | null;

  /** `receiver` is the pid of the app the input goes to (null: unknown → a fixed pace, logged). */
  constructor(
    private readonly native: Pick<MacNative, 'ax' | 'cf'>,
    private readonly receiver: number | null,
    private readonly own: OwnEventCount | null,
    private readonly hooks: AxBarrierHooks,
    private readonly options: AxBarrierOptions = DEFAULT_AX_BARRIER,
  ) {
    this.postedBase = own?.posted() ?? 0;
    this.seenBase = own?.seen() ?? null;
    const { ax, cf } = native;
    this.app = receiver === null ? null : ax.AXUIElementCreateApplication(receiver);
    this.role = this.app === null ? null : cf.CFStringCreateWithCString('AXRole');
    if (this.app !== null) ax.AXUIElementSetMessagingTimeout(this.app, options.messagingTimeoutS);
    if (this.app === null || this.role === null) {
      hooks.log('the app receiving the input is not known: input is sent at a fixed pace, not paced by what the app has taken in');
      this.dispose();
    }
  }

  /** Whether marks are proven by the app (false: fixed pace). */
  get confirmed(): boolean {
    return this.app !== null;
  }

  mark(_units: number): Promise<BarrierOutcome> {
    const posted = this.own?.posted();
    const answer = this.chain.then(() => this.answer(posted));
    this.chain = answer.catch(() => undefined);
    return answer;
  }

  /** Releases the app element; marks still waiting resolve 'gone'. Idempotent. */
  close(): void {
    this.closed = true;
    this.dispose();
  }

  private dispose(): void {
    const { cf } = this.native;
    if (this.app !== null) cf.CFRelease(this.app);
    if (this.role !== null) cf.CFRelease(this.role);
    this.app = this.role = null;
  }

  private async answer(posted: number | undefined): Promise<BarrierOutcome> {
    if (this.app === null) {
      await delay(this.options.fixedPaceMs);
      return 'handled';
    }
    if (posted !== undefined) await this.tapSaw(posted);
    for (;;) {
      if (this.closed || this.app === null) return 'gone';
      const error = this.roundTrip();
      if (error === AXErrorCode.cannotComplete) {
        this.silentSince ??= Date.now();
        if (!this.answered && Date.now() - this.silentSince >= this.options.silentMs) {
          this.hooks.log(`pid ${this.receiver} does not answer accessibility requests: input is sent at a fixed pace, not paced by what the app has taken in`);
          this.hooks.onSilent(this.receiver!);
          this.dispose();
          await delay(this.options.fixedPaceMs);
          return 'handled';
        }
        // Busy (or hung): ask again; the pacer decides when that counts as not responding.
        await delay(this.options.retryMs);
        continue;
      }
      this.answered = true;
      if (error === AXErrorCode.invalidUIElement) return 'gone';
      if (error === AXErrorCode.apiDisabled) throw new TandemError('permission', 'Accessibility was turned off for Tandem while it was sending input.', { reason: 'accessibility-off' });
      // Any other answer, success or not, came from the app's run loop: it is past the events.
      return 'handled';
    }
  }

  /** Waits (bounded) until the guard's tap has seen the own events posted before the mark. */
  private async tapSaw(posted: number): Promise<void> {
    if (this.seenBase === null || !this.own) return;
    const needed = posted - this.postedBase;
    const giveUpAt = Date.now() + this.options.tapWaitMs;
    for (;;) {
      const seen = this.own.seen();
      if (seen === null || seen - this.seenBase >= needed) return;
      if (Date.now() >= giveUpAt) {
        this.hooks.onTapBlind();
        return;
      }
      await delay(1);
    }
  }

  private roundTrip(): number {
    if (this.app === null || this.role === null) return AXErrorCode.invalidUIElement;
    const out: NullableRef[] = [null];
    const error = this.native.ax.AXUIElementCopyAttributeValue(this.app, this.role, out);
    if (error === AXErrorCode.success && out[0] !== null) this.native.cf.CFRelease(out[0]);
    return error;
  }
}
