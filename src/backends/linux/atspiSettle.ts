// Settling after an action: the app is quiet once its bus connection has sent no accessibility
// event for quietMs. Events arrive within a few ms of a UI change, so no fixed sleep is needed.

import type { DbusMessage } from './atspiBus.js';
import type { SettleOutcome } from '../../core/desktop.js';
import type { InsertionCounter } from '../../core/input/inputPacing.js';
import type { Progress } from '../../core/progress.js';
import { throwIfAborted } from '../../core/progress.js';
import { IFACE, SETTLE_EVENTS } from '../../../native/linux/atspiProtocol.js';
import type { AtspiBus } from './atspiBus.js';

const EVENT_INTERFACES: ReadonlySet<string> = new Set([IFACE.eventObject, IFACE.eventWindow]);

export class AtspiSettle {
  private readonly bus: AtspiBus;
  private listening: Promise<void> | null = null;
  /** Last event time per sender bus name. */
  private readonly lastEventAt = new Map<string, number>();
  /** Events received per sender bus name (to tell whether an app changed during a read). */
  private readonly eventCounts = new Map<string, number>();
  private readonly waiters = new Set<(sender: string) => void>();
  /** Characters inserted per sender bus name (text-changed:insert lengths), for paced typing. */
  private readonly insertedChars = new Map<string, number>();
  /** Called with the sender of each insertion; with null when the connection closes (wakes all). */
  private readonly insertionWaiters = new Set<(sender: string | null) => void>();
  private unsubscribe: (() => void) | null = null;

  constructor(bus: AtspiBus) {
    this.bus = bus;
  }

  /**
   * Match rules and registrations, once per connection. Call early (at connect): events sent
   * during an action count towards the quiet period measured after it.
   */
  ensureListening(progress: Progress): Promise<void> {
    if (!this.listening) {
      this.unsubscribe = this.bus.onMessage((message) => this.onMessage(message));
      this.listening = (async () => {
        for (const iface of EVENT_INTERFACES) await this.bus.addMatch(`type='signal',interface='${iface}'`, progress);
        await Promise.all(SETTLE_EVENTS.map((event) => this.bus.registerEvent(event, progress)));
      })();
      this.listening.catch(() => {
        this.listening = null;
      });
    }
    return this.listening;
  }

  private onMessage(message: DbusMessage): void {
    if (!message.interface || !EVENT_INTERFACES.has(message.interface) || !message.sender) return;
    this.lastEventAt.set(message.sender, Date.now());
    this.eventCounts.set(message.sender, (this.eventCounts.get(message.sender) ?? 0) + 1);
    for (const waiter of this.waiters) waiter(message.sender);
    const inserted = insertedLength(message);
    if (inserted > 0) {
      this.insertedChars.set(message.sender, (this.insertedChars.get(message.sender) ?? 0) + inserted);
      for (const waiter of this.insertionWaiters) waiter(message.sender);
    }
  }

  /**
   * Counts the characters busName inserts into any of its text from now on (its
   * text-changed:insert events: a length, never the text). null until events are listened for.
   */
  insertionCounter(busName: string): InsertionCounter | null {
    if (!this.unsubscribe) return null;
    const base = this.insertedChars.get(busName) ?? 0;
    const pending = new Set<() => void>();
    const onInsertion = (sender: string | null): void => {
      if (sender !== null && sender !== busName) return;
      for (const wake of pending) wake();
      pending.clear();
    };
    this.insertionWaiters.add(onInsertion);
    return {
      inserted: () => (this.insertedChars.get(busName) ?? 0) - base,
      next: () => new Promise<void>((resolve) => pending.add(resolve)),
      close: () => {
        this.insertionWaiters.delete(onInsertion);
        for (const wake of pending) wake();
        pending.clear();
      },
    };
  }

  /** Accessibility events received from busName so far; undefined until events are listened for. */
  eventsFrom(busName: string): number | undefined {
    return this.unsubscribe ? (this.eventCounts.get(busName) ?? 0) : undefined;
  }

  async waitForQuiet(busName: string, quietMs: number, capMs: number, progress: Progress): Promise<SettleOutcome> {
    const started = Date.now();
    const capAt = Math.min(started + capMs, progress.deadline);
    await this.ensureListening({ ...progress, deadline: capAt });
    throwIfAborted(progress);
    return new Promise<SettleOutcome>((resolve, reject) => {
      let quietTimer: NodeJS.Timeout | undefined;
      const finish = (outcome: SettleOutcome | Error): void => {
        clearTimeout(quietTimer);
        clearTimeout(capTimer);
        this.waiters.delete(onEvent);
        progress.signal.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const armQuiet = (): void => {
        clearTimeout(quietTimer);
        quietTimer = setTimeout(() => finish('quiet'), quietMs);
      };
      const onEvent = (sender: string): void => {
        if (sender === busName) armQuiet();
      };
      const onAbort = (): void => {
        try {
          throwIfAborted(progress);
        } catch (error) {
          finish(error as Error);
        }
      };
      const capTimer = setTimeout(() => finish('cap'), Math.max(0, capAt - Date.now()));
      this.waiters.add(onEvent);
      progress.signal.addEventListener('abort', onAbort, { once: true });
      // Events that arrived during the action itself count: quiet is measured from the last one.
      const last = this.lastEventAt.get(busName) ?? 0;
      const sinceLast = Date.now() - last;
      if (sinceLast < quietMs) {
        quietTimer = setTimeout(() => finish('quiet'), quietMs - sinceLast);
      } else {
        armQuiet();
      }
    });
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.waiters.clear();
    for (const waiter of this.insertionWaiters) waiter(null);
    this.insertionWaiters.clear();
  }
}

/**
 * The length an object:text-changed:insert event reports (body: detail, start, length, text,
 * properties), 0 for any other event. Deletions are not subtracted: a typed key replacing a
 * selection deletes and inserts, and only the insertion is the key's.
 */
function insertedLength(message: DbusMessage): number {
  if (message.member !== 'TextChanged' || message.interface !== IFACE.eventObject) return 0;
  const [detail, , length] = message.body;
  if (typeof detail !== 'string' || !detail.startsWith('insert')) return 0;
  return typeof length === 'number' && Number.isSafeInteger(length) && length > 0 ? length : 0;
}
