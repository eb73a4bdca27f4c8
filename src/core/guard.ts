// Guard policy: how core holds the human's keyboard and mouse while an action runs. The backend
// only blocks and reports (Desktop.engageGuard); this file decides what Esc means, how long the
// guard may be held (the watchdog), that guards never nest, and that a released guard is always
// announced — the overlay must never outlive the guard it stands for.

import type { Desktop, EngagedGuard, GuardLostKind } from './desktop.js';
import { TandemError } from './errors.js';
import type { Progress } from './progress.js';

/** 'lost': the backend's guard stopped holding the input by itself (GuardListener.onLost). */
export type GuardReleaseReason = 'done' | 'cancelled' | 'watchdog' | 'error' | 'lost';

/** Default for EngineOptions.watchdogMs: the longest the human's input may be held. */
export const DEFAULT_WATCHDOG_MS = 30_000;

/** A backend release that hangs must not keep the overlay (or the queue) waiting longer than this. */
const RELEASE_TIMEOUT_MS = 2_000;

export interface GuardHooks {
  /** Called once the backend guard really holds the input (show the overlay). */
  onEngaged(): void;
  /** Called exactly once after onEngaged, when the guard has been let go (hide the overlay). */
  onReleased(reason: GuardReleaseReason): void;
  log(message: string): void;
}

/** How the person answered a question asked while the guard held their input. */
export type PersonAnswer = 'enter' | 'esc' | 'watchdog';

/** One engagement of the guard: aborts its signal on Esc or when the watchdog fires. */
export class GuardSession {
  /** Human key/pointer events swallowed while engaged (Esc not counted). */
  humanInputBlocked = 0;
  watchdogFired = false;
  escapePressed = false;
  /** Why the backend lost the guard by itself (GuardListener.onLost), when it did. */
  lostReason: string | null = null;
  /** Times the guard stopped holding for a moment and came back (GuardListener.onInputLeaked): the person's input in those gaps went through. */
  inputLeakedCount = 0;
  private readonly controller = new AbortController();
  private backend: EngagedGuard | null = null;
  private engagedAnnounced = false;
  private releasing: Promise<void> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private watchdogMs = 0;
  /** Epoch ms at which the watchdog fires. */
  private watchdogDeadline = Number.POSITIVE_INFINITY;
  private markReleased!: () => void;
  /** The question waiting for the person's Enter or Esc (askPerson), if any. */
  private question: ((answer: PersonAnswer) => void) | null = null;
  /** Resolves once the guard is down, whoever released it. */
  readonly whenReleased = new Promise<void>((resolve) => (this.markReleased = resolve));

  constructor(
    private readonly hooks: GuardHooks,
    private readonly onFinished: () => void,
  ) {}

  /**
   * Aborted with TandemError('cancelled') on Esc, TandemError('watchdog') when time runs out,
   * TandemError('guard-lost') when the backend stopped holding the input by itself.
   */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get released(): boolean {
    return this.releasing !== null;
  }

  /** Lets go of the input; idempotent; never throws; resolves once the guard is down. */
  release(reason: GuardReleaseReason): Promise<void> {
    this.releasing ??= this.doRelease(reason);
    return this.releasing;
  }

  /** @internal used by GuardPolicy */
  startWatchdog(watchdogMs: number): void {
    this.watchdogMs = watchdogMs;
    this.watchdogDeadline = Date.now() + watchdogMs;
    this.watchdog = setTimeout(() => this.fireWatchdog(), watchdogMs);
  }

  /**
   * Fires the watchdog now if its time has come. Reads bounded by the same deadline can return
   * (cut short) a moment before the watchdog's timer runs: a call must not then report success.
   */
  fireWatchdogIfDue(): void {
    if (Date.now() >= this.watchdogDeadline) this.fireWatchdog();
  }

  /** Fires the watchdog now: the call's own deadline (a background call's) has passed. */
  fireWatchdogNow(): void {
    this.fireWatchdog();
  }

  /** @internal used by GuardPolicy.linger: milliseconds left before the watchdog, and its timer stopped. */
  stopWatchdog(): number {
    clearTimeout(this.watchdog);
    return Math.max(0, this.watchdogDeadline - Date.now());
  }

  /**
   * Waits for the person's word: their plain Enter ('enter') or Esc ('esc') on a real device —
   * the guard holds their input, so no synthetic key can answer — or the watchdog ('watchdog'),
   * which then aborts the signal as a refusal ('declined'), not as a slow action. An Esc that
   * answers is not a cancel: the signal stays as it was, and it is no late Esc for the next
   * call. Rejects with the signal's reason if the guard goes (lost, released) meanwhile.
   */
  askPerson(): Promise<PersonAnswer> {
    if (this.released || this.controller.signal.aborted) return Promise.reject(abortReason(this.controller.signal));
    if (this.question) return Promise.reject(new TandemError('internal', 'A question is already waiting for the person.'));
    return new Promise<PersonAnswer>((resolve, reject) => {
      const onAbort = (): void => {
        this.question = null;
        reject(abortReason(this.controller.signal));
      };
      this.controller.signal.addEventListener('abort', onAbort, { once: true });
      this.question = (answer) => {
        this.question = null;
        this.controller.signal.removeEventListener('abort', onAbort);
        resolve(answer);
      };
    });
  }

  private fireWatchdog(): void {
    if (this.released || this.controller.signal.aborted) return;
    clearTimeout(this.watchdog);
    this.watchdogFired = true;
    const seconds = Math.round(this.watchdogMs / 100) / 10;
    this.hooks.log(`watchdog: ${seconds} s passed, giving the keyboard and mouse back`);
    const asking = this.question;
    if (asking) {
      asking('watchdog');
      this.controller.abort(
        new TandemError('declined', `The person did not answer within the ${seconds} s watchdog, so nothing was pressed and Tandem gave the keyboard and mouse back.`, { reason: 'watchdog' }),
      );
      void this.release('error');
      return;
    }
    this.controller.abort(
      new TandemError('watchdog', `The ${seconds} s watchdog fired: the action took too long, so Tandem gave the keyboard and mouse back and stopped.`),
    );
    // Release now, not when the hung step unwinds: the person gets their input back on time.
    void this.release('watchdog');
  }

  /** @internal the backend listener */
  escape(): void {
    if (this.released || this.controller.signal.aborted) return;
    if (this.question) {
      this.hooks.log('Esc pressed: the person refused');
      this.question('esc');
      return;
    }
    this.escapePressed = true;
    this.hooks.log('Esc pressed: cancelling');
    this.controller.abort(new TandemError('cancelled', 'Cancelled: the person pressed Esc.', { by: 'person' }));
    void this.release('cancelled');
  }

  /**
   * @internal the backend listener: the guard no longer holds the person's input (its thread
   * died, it released itself, its display connection closed). Whatever runs must stop at once —
   * carrying on would act on a desktop the person is using — so the signal aborts with
   * 'guard-lost' and the rest (overlay, restore) follows the usual release path.
   */
  lost(reason: string, kind?: GuardLostKind): void {
    if (this.released) return;
    this.lostReason = reason;
    this.hooks.log(`the input guard stopped holding the keyboard and mouse (${reason}): stopping, nothing more is sent`);
    if (!this.controller.signal.aborted) {
      // details.reason is the kind when there is one (its own next move), else the fact itself.
      const details = kind ? { reason: kind, cause: reason } : { cause: reason };
      this.controller.abort(
        new TandemError('guard-lost', `Tandem lost its hold on the person's keyboard and mouse (${reason}), so it stopped at once: nothing more was sent after that moment.`, details),
      );
    }
    void this.release('lost');
  }

  /** @internal the backend listener: the guard let go for a moment and holds again. */
  inputLeaked(): void {
    if (this.released) return;
    this.inputLeakedCount++;
    this.hooks.log("the input guard stopped holding for a moment and holds again: the person's input in that gap went through");
  }

  /** @internal the backend listener: plain Enter answers a question; otherwise it is input like any other. */
  enter(): void {
    if (this.released) return;
    if (!this.question) {
      this.humanInput();
      return;
    }
    this.hooks.log('Enter pressed: the person allowed it');
    this.question('enter');
  }

  /** @internal the backend listener */
  humanInput(): void {
    if (!this.released) this.humanInputBlocked++;
  }

  /** @internal called when the backend guard is up */
  attach(backend: EngagedGuard): void {
    this.backend = backend;
    if (this.released) {
      // Released (watchdog) while the backend was still engaging: take the late guard down too.
      void safeRelease(backend, this.hooks);
      return;
    }
    this.engagedAnnounced = true;
    this.hooks.onEngaged();
  }

  private async doRelease(reason: GuardReleaseReason): Promise<void> {
    clearTimeout(this.watchdog);
    try {
      if (this.backend) await safeRelease(this.backend, this.hooks);
    } finally {
      this.onFinished();
      if (this.engagedAnnounced) this.hooks.onReleased(reason);
      this.markReleased();
    }
  }
}

async function safeRelease(backend: EngagedGuard, hooks: GuardHooks): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      backend.release(),
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          hooks.log(`guard release did not finish within ${RELEASE_TIMEOUT_MS} ms; continuing`);
          resolve();
        }, RELEASE_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    hooks.log(`guard release failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** An Esc pressed while a finished call's grace period still held the guard. */
export interface LateEscape {
  /** What the finished call did, e.g. 'click_and_traverse: clicked [PushButton] "OK" at 10,20'. */
  call: string;
}

/** Longest late-Esc grace period: the guard outlives a call by it, and the overlay waits for it. */
export const MAX_GRACE_MS = 10_000;

/**
 * Owns the one guard a desktop can have. Engaging while engaged is a bug and throws, except
 * over a lingering grace period: the next engage waits for it to end.
 */
export class GuardPolicy {
  private active: GuardSession | null = null;
  private lingering: GuardSession | null = null;
  private lateEscape: LateEscape | null = null;

  constructor(
    private readonly desktop: Desktop,
    /** Read at each engagement: the person's setting applies from the next call on. */
    private readonly watchdogMs: number | (() => number) = DEFAULT_WATCHDOG_MS,
  ) {}

  get engaged(): boolean {
    return this.active !== null;
  }

  /**
   * Engages the backend guard and starts the watchdog (which also covers a hanging engage):
   * `watchdogMs` when the call gives its own (the settings it started with), else the policy's.
   * Throws when the backend cannot engage; nothing was announced then.
   */
  async engage(progress: Progress, hooks: GuardHooks, watchdogMs?: number): Promise<GuardSession> {
    await this.idle();
    if (this.active) {
      throw new TandemError('internal', 'The input guard is already engaged: transactions must never nest.');
    }
    const session = new GuardSession(hooks, () => {
      if (this.active === session) this.active = null;
    });
    this.active = session;
    session.startWatchdog(watchdogMs ?? (typeof this.watchdogMs === 'function' ? this.watchdogMs() : this.watchdogMs));
    const engageSignal = AbortSignal.any([progress.signal, session.signal]);
    const engaging = this.desktop.engageGuard(
      { onEscape: () => session.escape(), onEnter: () => session.enter(), onHumanInput: () => session.humanInput(), onLost: (reason, kind) => session.lost(reason, kind), onInputLeaked: () => session.inputLeaked() },
      { signal: engageSignal, deadline: progress.deadline, log: progress.log },
    );
    let backend: EngagedGuard;
    try {
      backend = await abortable(engaging, engageSignal);
    } catch (error) {
      // A backend that engages after we gave up must still be let go.
      engaging.then((late) => safeRelease(late, hooks), () => {});
      await session.release('error');
      throw error;
    }
    session.attach(backend);
    if (session.released) throw session.signal.reason;
    return session;
  }

  /**
   * Keeps a finished call's guard up for `ms` more, so that a late Esc (the person saw something
   * go wrong at the last moment) still counts, without holding back the call's answer. An Esc
   * in that time releases the guard at once and is kept for takeLateEscape().
   */
  linger(session: GuardSession, ms: number, call: string): void {
    if (session.released) return;
    this.lingering = session;
    // The call is over: the grace period ends at the watchdog's time at the latest, quietly (a
    // watchdog firing now would mislabel a finished call).
    const timer = setTimeout(() => void session.release('done'), Math.min(ms, session.stopWatchdog()));
    const onAbort = (): void => {
      clearTimeout(timer);
      if (session.escapePressed) this.lateEscape = { call };
    };
    session.signal.addEventListener('abort', onAbort, { once: true });
    void session.whenReleased.then(() => {
      clearTimeout(timer);
      session.signal.removeEventListener('abort', onAbort);
      if (this.lingering === session) this.lingering = null;
    });
  }

  /** Resolves when no grace period holds the guard. */
  async idle(): Promise<void> {
    while (this.lingering) await this.lingering.whenReleased;
  }

  /** The Esc pressed during the last grace period, once: the next action must not run. */
  takeLateEscape(): LateEscape | null {
    const late = this.lateEscape;
    this.lateEscape = null;
    return late;
  }

  /**
   * Waits out a grace period, then refuses the call about to run if the person pressed Esc in
   * it: whatever the next call is (an action, a launch, a close), they said stop.
   */
  async refuseAfterLateEscape(): Promise<void> {
    await this.idle();
    const late = this.takeLateEscape();
    if (late) {
      throw new TandemError('cancelled', `Not run: the person pressed Esc just after the previous action had finished (${late.call}).`, { by: 'person', lateEscapeAfter: late.call });
    }
  }

  /** Ends a grace period now (the engine is closing). */
  async endLinger(): Promise<void> {
    await this.lingering?.release('done');
  }
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The abort reason as a TandemError ('cancelled' when something else aborted the signal). */
export function abortReason(signal: AbortSignal): TandemError {
  const reason: unknown = signal.reason;
  if (reason instanceof TandemError) return reason;
  return new TandemError('cancelled', 'The action was cancelled (the client went away).', { by: 'caller' });
}
