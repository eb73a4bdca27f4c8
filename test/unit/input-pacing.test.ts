// The pacing policy over a barrier the test answers by hand: what is in flight stays bounded, a
// cancel sends nothing more and waits for what was in flight, a silent app is called out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TandemError, isTandemError } from '../../src/core/errors.js';
import { DEFAULT_PACING, InputPacer, type BarrierOutcome, type ConsumptionBarrier, type InsertionCounter, type PacingOptions } from '../../src/core/input/inputPacing.js';
import { createProgress } from '../../src/core/progress.js';

const FAST: PacingOptions = {
  ...DEFAULT_PACING,
  maxInFlight: 3,
  notRespondingMs: 400,
  drainIdleMs: 80,
  drainCapMs: 300,
  reportEvery: 10,
  maxUninserted: 16,
  insertionQuietMs: 60,
  insertionProofMs: 250,
};

/** A barrier whose marks the test answers (or the "app" answers after `handleMs`). */
class ManualBarrier implements ConsumptionBarrier {
  readonly pending: Array<{ units: number; answer: (outcome: BarrierOutcome) => void }> = [];
  marks = 0;
  maxPending = 0;
  constructor(private readonly handleMs?: number) {}
  mark(units: number): Promise<BarrierOutcome> {
    this.marks++;
    return new Promise((resolve) => {
      const entry = { units, answer: resolve };
      this.pending.push(entry);
      this.maxPending = Math.max(this.maxPending, this.pending.length);
      if (this.handleMs !== undefined) {
        setTimeout(() => {
          this.pending.splice(this.pending.indexOf(entry), 1);
          resolve('handled');
        }, this.handleMs * this.pending.length);
      }
    });
  }
  answerOldest(outcome: BarrierOutcome = 'handled'): void {
    this.pending.shift()?.answer(outcome);
  }
}

const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function sendAll(pacer: InputPacer, batches: number, units: number, written: number[]): Promise<void> {
  for (let i = 0; i < batches; i++) await pacer.send(units, () => written.push(i));
  await pacer.finish();
}

describe('paced input', () => {
  it('should never have more batches in flight than the window, and finish once all are handled', async () => {
    const barrier = new ManualBarrier(2);
    const written: number[] = [];
    await sendAll(new InputPacer(barrier, createProgress({ timeoutMs: 5_000 }), 200, FAST), 20, 10, written);
    assert.equal(written.length, 20);
    assert.equal(barrier.maxPending, 3, 'at most three batches unanswered at any time');
    assert.equal(barrier.pending.length, 0, 'finish() waited for the last one');
  });

  it('should hold the next batch back until the oldest is handled', async () => {
    const barrier = new ManualBarrier();
    const written: number[] = [];
    const pacer = new InputPacer(barrier, createProgress({ timeoutMs: 5_000 }), 50, FAST);
    const sending = sendAll(pacer, 5, 10, written);
    await tick();
    assert.deepEqual(written, [0, 1, 2], 'three batches, then it waits');
    barrier.answerOldest();
    await tick();
    assert.deepEqual(written, [0, 1, 2, 3]);
    barrier.answerOldest();
    barrier.answerOldest();
    barrier.answerOldest();
    await tick();
    assert.deepEqual(written, [0, 1, 2, 3, 4]);
    barrier.answerOldest();
    await sending;
    assert.equal(pacer.handled, 50);
  });

  it('should stop sending on abort, wait for what is in flight, then throw the abort reason', async () => {
    const barrier = new ManualBarrier();
    const controller = new AbortController();
    const written: number[] = [];
    const pacer = new InputPacer(barrier, createProgress({ timeoutMs: 5_000, signal: controller.signal }), 1_000, FAST);
    const sending = sendAll(pacer, 100, 10, written);
    await tick();
    controller.abort(new TandemError('cancelled', 'Esc'));
    let settled = false;
    void sending.catch(() => (settled = true));
    await tick();
    assert.equal(settled, false, 'still draining the three batches in flight');
    barrier.answerOldest();
    barrier.answerOldest();
    barrier.answerOldest();
    await assert.rejects(sending, (error: unknown) => isTandemError(error, 'cancelled'));
    assert.deepEqual(written, [0, 1, 2], 'nothing was written after the abort');
    assert.equal(pacer.handled, 30, 'the drained batches count as handled');
  });

  it('should give up draining when the app stops answering, and say how much it left behind', async () => {
    const barrier = new ManualBarrier();
    const controller = new AbortController();
    const logs: string[] = [];
    const pacer = new InputPacer(barrier, createProgress({ timeoutMs: 5_000, signal: controller.signal, log: (line) => logs.push(line), reportInput: () => {} }), 100, FAST);
    const sending = sendAll(pacer, 10, 10, []);
    await tick();
    const abortedAt = Date.now();
    controller.abort(new TandemError('watchdog', 'too long'));
    await assert.rejects(sending, (error: unknown) => isTandemError(error, 'watchdog'));
    const waited = Date.now() - abortedAt;
    assert.ok(waited >= FAST.drainIdleMs - 5 && waited < FAST.drainCapMs + 100, `drained for ${waited} ms`);
    assert.ok(logs.some((line) => line.includes('30 input events the app had not yet taken in')), logs.join('\n'));
  });

  it('should tell nothing of the size of secret input: no count in logs, errors or progress', async () => {
    const barrier = new ManualBarrier();
    const controller = new AbortController();
    const logs: string[] = [];
    const reports: number[] = [];
    const progress = { ...createProgress({ timeoutMs: 5_000, signal: controller.signal, log: (line) => logs.push(line), reportInput: (done) => reports.push(done) }), secretInput: true };
    const pacer = new InputPacer(barrier, progress, 100, { ...FAST, reportEvery: 1 });
    const sending = sendAll(pacer, 10, 10, []);
    await tick();
    barrier.answerOldest();
    await tick();
    controller.abort(new TandemError('cancelled', 'Esc'));
    await assert.rejects(sending);
    assert.deepEqual(reports, [], 'no progress');
    assert.ok(logs.every((line) => !/\d/.test(line)), logs.join('\n'));
    const silent = new InputPacer(new ManualBarrier(), { ...createProgress({ timeoutMs: 5_000 }), secretInput: true }, 60, FAST);
    const stuck = sendAll(silent, 2, 30, []);
    await assert.rejects(stuck, (error: unknown) => isTandemError(error, 'not-responding') && !/\d+ of \d+/.test(error.message) && error.details === undefined);
  });

  it('should report an app that takes nothing in as not responding, with how much it handled', async () => {
    const barrier = new ManualBarrier();
    const pacer = new InputPacer(barrier, createProgress({ timeoutMs: 5_000 }), 60, FAST);
    const sending = sendAll(pacer, 6, 10, []);
    await tick();
    barrier.answerOldest();
    await assert.rejects(sending, (error: unknown) => {
      assert.ok(isTandemError(error, 'not-responding'));
      assert.deepEqual(error.details, { handled: 10, sent: 40, total: 60 });
      return true;
    });
  });

  it('should count a receiver that went away as handled', async () => {
    const barrier = new ManualBarrier();
    const pacer = new InputPacer(barrier, createProgress({ timeoutMs: 5_000 }), 10, FAST);
    const sending = sendAll(pacer, 1, 10, []);
    await tick();
    barrier.answerOldest('gone');
    await sending;
    assert.equal(pacer.handled, 10);
  });

  it('should report progress as the app takes the input in, never ahead of it', async () => {
    const barrier = new ManualBarrier(1);
    const reports: Array<[number, number]> = [];
    const pacer = new InputPacer(barrier, createProgress({ timeoutMs: 5_000, reportInput: (done, total) => reports.push([done, total]) }), 40, FAST);
    await sendAll(pacer, 8, 5, []);
    assert.deepEqual(reports, [
      [10, 40],
      [20, 40],
      [30, 40],
      [40, 40],
    ]);
  });

  describe('with an insertion counter (an app that answers pings before it applies its keys)', () => {
    /** The app's text: it inserts what it was sent only when the test says so (or never). */
    class ManualInsertions implements InsertionCounter {
      count = 0;
      closed = false;
      private waiters: Array<() => void> = [];
      inserted(): number {
        return this.count;
      }
      next(): Promise<void> {
        return new Promise((resolve) => this.waiters.push(resolve));
      }
      insert(chars: number): void {
        this.count += chars;
        const waiters = this.waiters;
        this.waiters = [];
        for (const wake of waiters) wake();
      }
      close(): void {
        this.closed = true;
        this.insert(0);
      }
    }
    /** Pings answered at once: only the counter holds the typing back. */
    const eager: ConsumptionBarrier = { mark: () => Promise.resolve('handled') };
    const typeBatches = async (pacer: InputPacer, batches: number, chars: number, written: number[]): Promise<void> => {
      for (let i = 0; i < batches; i++) await pacer.send(chars, () => written.push(i), chars);
      await pacer.finish();
    };

    it('should keep typed-but-not-inserted characters within the window while the app keeps inserting', async () => {
      const insertions = new ManualInsertions();
      const written: number[] = [];
      const pacer = new InputPacer(eager, createProgress({ timeoutMs: 5_000 }), 80, FAST, insertions);
      const typing = typeBatches(pacer, 10, 8, written);
      let most = 0;
      for (let step = 0; step < 40 && written.length < 10; step++) {
        await tick(10);
        most = Math.max(most, written.length * 8 - insertions.count);
        insertions.insert(Math.min(4, written.length * 8 - insertions.count));
      }
      while (insertions.count < 80) {
        await tick(5);
        insertions.insert(Math.min(8, written.length * 8 - insertions.count));
      }
      await typing;
      assert.equal(written.length, 10);
      assert.ok(most <= FAST.maxUninserted + 8, `at most the window and one batch uninserted (saw ${most})`);
    });

    it('should answer only once every character is inserted', async () => {
      const insertions = new ManualInsertions();
      const pacer = new InputPacer(eager, createProgress({ timeoutMs: 5_000 }), 8, FAST, insertions);
      let finished = false;
      const typing = typeBatches(pacer, 1, 8, []).then(() => (finished = true));
      await tick(20);
      insertions.insert(5);
      await tick(20);
      assert.equal(finished, false, '3 characters still queued in the app');
      insertions.insert(3);
      await typing;
      assert.equal(finished, true);
    });

    it('should write nothing after an abort and wait (bounded) for the app to insert what it queued', async () => {
      const insertions = new ManualInsertions();
      const controller = new AbortController();
      const written: number[] = [];
      const pacer = new InputPacer(eager, createProgress({ timeoutMs: 5_000, signal: controller.signal }), 800, FAST, insertions);
      const typing = typeBatches(pacer, 100, 8, written);
      await tick(20);
      const sentBeforeAbort = written.length;
      assert.ok(sentBeforeAbort * 8 <= FAST.maxUninserted + 8, `held back by the counter (${sentBeforeAbort} batches)`);
      controller.abort(new TandemError('cancelled', 'Esc'));
      let settled = false;
      void typing.catch(() => (settled = true));
      await tick(20);
      assert.equal(settled, false, 'waiting for the app to insert what it had queued');
      insertions.insert(sentBeforeAbort * 8);
      await assert.rejects(typing, (error: unknown) => isTandemError(error, 'cancelled'));
      assert.equal(written.length, sentBeforeAbort, 'nothing written after the abort');
    });

    it('should go on (paced by pings) where the keys insert nothing for a while, and drop a counter that never saw an insertion', async () => {
      const insertions = new ManualInsertions();
      const logs: string[] = [];
      const written: number[] = [];
      const pacer = new InputPacer(eager, createProgress({ timeoutMs: 5_000, log: (line) => logs.push(line) }), 80, FAST, insertions);
      await typeBatches(pacer, 10, 8, written);
      assert.equal(written.length, 10, 'all typed, nothing hung');
      assert.ok(insertions.closed, 'the useless counter was let go');
      assert.ok(logs.some((line) => line.includes('no text insertions')), logs.join('\n'));
    });
  });
});
