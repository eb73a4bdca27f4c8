// What the guard's worker thread and the engine's thread share about one event tap, in a
// SharedArrayBuffer, so that either side can act without waiting for the other's event loop:
//
// - who may touch the tap: the worker owns it while it lives; if the worker dies, hangs or is
//   terminated with the tap still enabled, the person's input would wait on a callback nobody
//   services until macOS gives up on the tap (its timeout, per event). So the engine's thread can
//   take the tap over and disable it itself, and from that moment the callback (should it still
//   run) passes every event. A compare-and-swap on one word decides who tears down, so the tap
//   is never disabled by one thread while the other frees it.
// - the tap's pointer (published by the worker once created), for that takeover;
// - how many of Tandem's own events the tap has seen pass, one half of the paced-input barrier
//   (macBarrier.ts): an event counted here has left the window server's session stage.

/** Who owns the tap: its state word. */
export const TapState = {
  /** The worker owns the tap (or has not created it yet). */
  live: 0,
  /** The worker is disabling and invalidating it; it frees it after `disabled`. */
  workerTeardown: 1,
  /** The engine's thread took it over: the worker must not touch the tap any more. */
  takenOver: 2,
  /** Disabled and invalidated by the worker (it may already be freed: never touch it again). */
  disabled: 3,
} as const;
export type TapStateValue = (typeof TapState)[keyof typeof TapState];

const STATE = 0;
const OURS_SEEN = 1;
const BYTES = 16;

export class TapShared {
  private readonly words: Int32Array;
  private readonly pointer: BigInt64Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(BYTES)) {
    this.words = new Int32Array(buffer, 0, 2);
    this.pointer = new BigInt64Array(buffer, 8, 1);
  }

  state(): TapStateValue {
    return Atomics.load(this.words, STATE) as TapStateValue;
  }

  /** The tap's pointer once the worker created it, else null. */
  get tap(): bigint | null {
    const value = Atomics.load(this.pointer, 0);
    return value === 0n ? null : value;
  }

  /** Worker: the tap exists (it may take events from that moment on (?), before it is enabled). */
  publish(tap: bigint): void {
    Atomics.store(this.pointer, 0, tap);
  }

  /** Worker: claims the teardown. False when the engine's thread took the tap over (hands off). */
  beginWorkerTeardown(): boolean {
    return Atomics.compareExchange(this.words, STATE, TapState.live, TapState.workerTeardown) === TapState.live;
  }

  /** Worker: the tap is disabled and invalidated; from now on only the worker may free it. */
  markDisabled(): void {
    Atomics.store(this.words, STATE, TapState.disabled);
  }

  /**
   * Engine's thread: takes the tap over unless the worker already tears it down. Returns the
   * state found ('live' means the takeover succeeded and the caller must disable the tap).
   */
  takeOver(): TapStateValue {
    const found = Atomics.compareExchange(this.words, STATE, TapState.live, TapState.takenOver) as TapStateValue;
    return found;
  }

  /** Tap callback: one of Tandem's own (marked) events went through the tap. */
  countOurs(): void {
    Atomics.add(this.words, OURS_SEEN, 1);
  }

  /** How many of Tandem's own events the tap has seen since it was created. */
  get oursSeen(): number {
    return Atomics.load(this.words, OURS_SEEN);
  }
}
