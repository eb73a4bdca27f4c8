// Settling after an action: the app is quiet once its bus connection has sent no accessibility
// event for quietMs. Events arrive within a few ms of a UI change, so no fixed sleep is needed.

import type { DbusMessage } from './atspiBus.js';
import type { SettleOutcome } from '../../core/desktop.js';
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
  }
}
