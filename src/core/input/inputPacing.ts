// Paced input: synthetic events are sent in small batches, and a batch is only sent once the
// app has handled all but a small window of what came before (docs/architecture.md, "act means
// consumed"). Without it a long text is written at once, the app takes seconds to chew through
// it, and a cancel, the watchdog or a dead server all leave a backlog that keeps typing into the
// person's app. The backend supplies the proof of consumption (a ConsumptionBarrier: Linux asks
// the receiving X client for a _NET_WM_PING answer); the policy — window, drain, when an app
// counts as not responding — lives here once for every OS.
//
// Some apps answer the barrier before they have applied what came before it (LibreOffice
// answers the window manager's ping from its event loop while its own queue still holds the
// keys: measured, a cancelled answer came with ~200 of 3,000 characters in the document and all
// of them two seconds later). For typed text an InsertionCounter, where the backend has one,
// adds a second bound: characters typed but not yet inserted into the app's text (as the app
// itself reports them) stay within a small window too.

import { TandemError } from '../errors.js';
import { throwIfAborted, type Progress } from '../progress.js';

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

/**
 * Characters an app has inserted into its text since the counter was made, as the app reports
 * them (Linux: the lengths of its accessibility text-changed:insert events). Only counts, never
 * the text: a secret field's content is never read.
 */
export interface InsertionCounter {
  inserted(): number;
  /** Resolves at the app's next insertion (or when the counter is closed). */
  next(): Promise<void>;
  close(): void;
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
  /** With an InsertionCounter: typed characters not yet inserted, at most, before the next batch… */
  maxUninserted: number;
  /**
   * …unless the app inserted nothing for this long since the last insertion or batch: the text
   * goes where no insertion is reported (a key that is a shortcut, a widget that tells nothing),
   * and the barrier alone paces.
   */
  insertionQuietMs: number;
  /** A counter that saw no insertion at all this long into typing is not used for the rest of it. */
  insertionProofMs: number;
}

export const DEFAULT_PACING: PacingOptions = {
  maxInFlight: 3,
  // An app may legitimately spend seconds in a click handler; GNOME's window manager calls an
  // app hung after 5 s without a ping answer, and so do we.
  notRespondingMs: 5_000,
  drainIdleMs: 250,
  drainCapMs: 1_000,
  reportEvery: 500,
  // Four batches of eight keys: enough that an app inserting steadily never waits for us.
  maxUninserted: 32,
  insertionQuietMs: 150,
  insertionProofMs: 1_000,
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
  /** Epoch ms of the last sign of life: a batch handled, a character inserted, or the stream's start. */
  private lastProgressAt = Date.now();
  private readonly startedAt = Date.now();
  /** Characters sent (the `chars` of each batch), and what the counter said when last read. */
  private sentChars = 0;
  private lastSentAt = 0;
  private seenInserted = 0;
  private lastInsertionAt = 0;
  private insertions: InsertionCounter | null;

  constructor(
    private readonly barrier: ConsumptionBarrier,
    private readonly progress: Progress,
    private readonly total: number,
    private readonly options: PacingOptions = DEFAULT_PACING,
    insertions?: InsertionCounter,
  ) {
    this.insertions = insertions ?? null;
  }

  /** Units the app has been proven to have handled so far. */
  get handled(): number {
    return this.handledUnits;
  }

  /**
   * Writes one batch of `units` events (write() sends them) once the window has room; `chars`
   * of them are characters the app should insert into its text (for the InsertionCounter).
   */
  async send(units: number, write: () => void, chars = 0): Promise<void> {
    await this.checkAbort();
    while (this.inFlight.length >= this.options.maxInFlight) await this.waitOldest();
    // An abort while waiting is taken by checkAbort, right after.
    await this.awaitInsertions(this.options.maxUninserted, Infinity, this.options.insertionQuietMs, true);
    await this.checkAbort();
    write();
    this.sentUnits += units;
    this.sentChars += chars;
    this.lastSentAt = Date.now();
    const answer = this.barrier.mark(units);
    // Awaited in order later; a connection lost meanwhile must not be an unhandled rejection.
    answer.catch(() => {});
    this.inFlight.push({ units, answer });
  }

  /** Resolves once every batch sent has been handled (drains and throws on abort). */
  async finish(): Promise<void> {
    while (this.inFlight.length > 0) await this.waitOldest();
    // Every character inserted, or the app went quiet: an `ok` leaves nothing queued behind it.
    await this.awaitInsertions(0, Infinity, this.options.insertionQuietMs, true);
    await this.checkAbort();
  }

  /**
   * Waits until at most `limit` characters sent are not yet inserted. Gives up ('quiet') when
   * the app inserted nothing for `quietMs` since its last insertion or our last batch, or at
   * `capAt`; 'abort' when abortable and the progress was aborted.
   */
  private async awaitInsertions(limit: number, capAt: number, quietMs: number, abortable: boolean): Promise<'caught-up' | 'quiet' | 'abort'> {
    const counter = this.insertions;
    if (!counter) return 'caught-up';
    for (;;) {
      const inserted = counter.inserted();
      if (inserted !== this.seenInserted) {
        this.seenInserted = inserted;
        this.lastInsertionAt = this.lastProgressAt = Date.now();
      }
      if (this.sentChars - inserted <= limit) return 'caught-up';
      if (inserted === 0 && Date.now() - this.startedAt >= this.options.insertionProofMs) {
        // Nothing inserted at all: the app reports no insertions for this text; the barrier paces.
        this.progress.log('the app reports no text insertions for this typing: paced by its answers to pings only');
        this.dropCounter();
        return 'quiet';
      }
      const waitMs = Math.min(Math.max(this.lastInsertionAt, this.lastSentAt) + quietMs, capAt) - Date.now();
      if (waitMs <= 0) return 'quiet';
      const outcome = await this.within(counter.next(), waitMs, abortable);
      if (outcome === 'abort') return 'abort';
    }
  }

  /** Stops listening for insertions (the counter proved useless; its owner may close it again). */
  private dropCounter(): void {
    this.insertions?.close();
    this.insertions = null;
  }

  private async checkAbort(): Promise<void> {
    if (!this.progress.signal.aborted) return;
    await this.drain();
    throwIfAborted(this.progress);
  }

  /** Waits for the oldest batch, the not-responding timer, or an abort (then drains and throws). */
  private async waitOldest(): Promise<void> {
    const batch = this.inFlight[0];
    const outcome = await this.within(batch.answer, this.notRespondingInMs(), true);
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
      const outcome = await this.within(batch.answer, Math.min(this.options.drainIdleMs, giveUpAt - Date.now()), false);
      if (outcome !== 'done') break;
      this.settle(batch);
    }
    // Then the characters the app has queued but not inserted yet, within the same bounds.
    const inserting = await this.awaitInsertions(0, giveUpAt, this.options.drainIdleMs, false);
    const uninserted = this.insertions && inserting !== 'caught-up' ? Math.max(0, this.sentChars - this.insertions.inserted()) : 0;
    const unhandled = Math.max(this.sentUnits - this.handledUnits, uninserted);
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

  /**
   * `promise` (a batch's answer, the counter's next insertion) against a timer and, when
   * abortable, the abort signal. A rejection (the display connection lost) is passed on.
   */
  private within(promise: Promise<unknown>, timeoutMs: number, abortable: boolean): Promise<'done' | 'timeout' | 'abort'> {
    return new Promise((resolve, reject) => {
      const signal = this.progress.signal;
      const timer = setTimeout(() => done('timeout'), timeoutMs);
      const onAbort = (): void => done('abort');
      const done = (outcome: 'done' | 'timeout' | 'abort' | Error): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      if (abortable) {
        if (signal.aborted) return done('abort');
        signal.addEventListener('abort', onAbort, { once: true });
      }
      promise.then(
        () => done('done'),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }

}
