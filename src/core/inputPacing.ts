// Paced input: synthetic events are sent in small batches, and a batch is only sent once the
// app has handled all but a small window of what came before (DESIGN.md, "act means
// consumed"). Without it a long text is written at once, the app takes seconds to chew through
// it, and a cancel, the watchdog or a dead server all leave a backlog that keeps typing into the
// person's app. The backend supplies the proof of consumption (a ConsumptionBarrier: Linux asks
// the receiving X client for a _NET_WM_PING answer); the policy — window, drain, when an app
// counts as not responding — lives here once for every OS.

import { TandemError } from './errors.js';
import { throwIfAborted, type Progress } from './progress.js';

/** What a barrier learnt about the events sent before it. */
export type BarrierOutcome = 'handled' | 'gone';

export interface ConsumptionBarrier {
  /**
   * Placed after every event sent so far (`units` of them since the previous mark). Resolves
   * 'handled' once the app receiving them has handled them all, 'gone' when the receiver went
   * away (its window closed: nothing is left to handle). Rejects only when the connection to the
   * display is lost.
   */
  mark(units: number): Promise<BarrierOutcome>;
}

export interface PacingOptions {
  /** Batches in flight (sent, not yet proven handled). Their units bound what a cancel leaves behind. */
  maxInFlight: number;
  /** No batch handled for this long: the app is not taking in its input ('not-responding'). */
  notRespondingMs: number;
  /** After a cancel, stop waiting for in-flight batches once none was handled for this long… */
  drainIdleMs: number;
  /** …or after this long in all. */
  drainCapMs: number;
  /** Report progress (Progress.reportInput) every this many units handled. */
  reportEvery: number;
}

export const DEFAULT_PACING: PacingOptions = {
  maxInFlight: 3,
  // An app may legitimately spend seconds in a click handler; GNOME's window manager calls an
  // app hung after 5 s without a ping answer, and so do we.
  notRespondingMs: 5_000,
  drainIdleMs: 250,
  drainCapMs: 1_000,
  reportEvery: 500,
};

interface Batch {
  units: number;
  answer: Promise<BarrierOutcome>;
}

/**
 * One paced stream of input for one primitive (a text, a key, a click). `send` writes a batch
 * once there is room in the window; `finish` waits for the last batch. When progress is aborted
 * (Esc, watchdog, client cancel), nothing more is sent: what is in flight is drained (bounded),
 * then the abort reason is thrown — after that, nothing this stream sent is still on its way.
 */
export class InputPacer {
  private readonly inFlight: Batch[] = [];
  private sentUnits = 0;
  private handledUnits = 0;
  private reportedAt = 0;
  /** Epoch ms of the last sign of life: a batch handled, or the stream's start. */
  private lastProgressAt = Date.now();

  constructor(
    private readonly barrier: ConsumptionBarrier,
    private readonly progress: Progress,
    private readonly total: number,
    private readonly options: PacingOptions = DEFAULT_PACING,
  ) {}

  /** Units the app has been proven to have handled so far. */
  get handled(): number {
    return this.handledUnits;
  }

  /** Writes one batch of `units` events (write() sends them) once the window has room. */
  async send(units: number, write: () => void): Promise<void> {
    await this.checkAbort();
    while (this.inFlight.length >= this.options.maxInFlight) await this.waitOldest();
    await this.checkAbort();
    write();
    this.sentUnits += units;
    const answer = this.barrier.mark(units);
    // Awaited in order later; a connection lost meanwhile must not be an unhandled rejection.
    answer.catch(() => {});
    this.inFlight.push({ units, answer });
  }

  /** Resolves once every batch sent has been handled (drains and throws on abort). */
  async finish(): Promise<void> {
    while (this.inFlight.length > 0) await this.waitOldest();
    await this.checkAbort();
  }

  private async checkAbort(): Promise<void> {
    if (!this.progress.signal.aborted) return;
    await this.drain();
    throwIfAborted(this.progress);
  }

  /** Waits for the oldest batch, the not-responding timer, or an abort (then drains and throws). */
  private async waitOldest(): Promise<void> {
    const batch = this.inFlight[0];
    const outcome = await this.race(batch, () => this.notRespondingInMs());
    if (outcome === 'abort') {
      await this.drain();
      throwIfAborted(this.progress);
    }
    if (outcome === 'timeout') throw this.notResponding();
    this.settle(batch);
  }

  /** After an abort: give what is in flight a bounded chance to be handled, sending nothing. */
  private async drain(): Promise<void> {
    const giveUpAt = Date.now() + this.options.drainCapMs;
    while (this.inFlight.length > 0) {
      const batch = this.inFlight[0];
      const left = giveUpAt - Date.now();
      if (left <= 0) break;
      const outcome = await this.race(batch, () => Math.min(this.options.drainIdleMs, giveUpAt - Date.now()), false);
      if (outcome !== 'handled') break;
      this.settle(batch);
    }
    const unhandled = this.sentUnits - this.handledUnits;
    if (unhandled === 0) return;
    // A secret's size is told nowhere, not even as a count of keys left.
    if (this.progress.secretInput) this.progress.log('stopped before the app had taken in all the input');
    else this.progress.log(`stopped with ${unhandled} input event${unhandled === 1 ? '' : 's'} the app had not yet taken in`);
  }

  private settle(batch: Batch): void {
    this.inFlight.shift();
    this.handledUnits += batch.units;
    this.lastProgressAt = Date.now();
    if (this.progress.reportInput && !this.progress.secretInput && this.handledUnits - this.reportedAt >= this.options.reportEvery) {
      this.reportedAt = this.handledUnits;
      this.progress.reportInput(this.handledUnits, this.total);
    }
  }

  private notRespondingInMs(): number {
    return Math.max(0, this.lastProgressAt + this.options.notRespondingMs - Date.now());
  }

  private notResponding(): TandemError {
    if (this.progress.secretInput) {
      return new TandemError('not-responding', `The app stopped taking in input for ${this.options.notRespondingMs} ms. Nothing more was sent.`);
    }
    return new TandemError(
      'not-responding',
      `The app stopped taking in input: it handled ${this.handledUnits} of ${this.total} input events, then nothing for ${this.options.notRespondingMs} ms. Nothing more was sent.`,
      { handled: this.handledUnits, sent: this.sentUnits, total: this.total },
    );
  }

  /** The batch's answer against a timer and (unless draining) the abort signal. */
  private race(batch: Batch, timeoutMs: () => number, abortable = true): Promise<'handled' | 'timeout' | 'abort'> {
    return new Promise((resolve, reject) => {
      const signal = this.progress.signal;
      const timer = setTimeout(() => done('timeout'), timeoutMs());
      const onAbort = (): void => done('abort');
      const done = (outcome: 'handled' | 'timeout' | 'abort' | Error): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      if (abortable) {
        if (signal.aborted) return done('abort');
        signal.addEventListener('abort', onAbort, { once: true });
      }
      batch.answer.then(
        () => done('handled'),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }
}
