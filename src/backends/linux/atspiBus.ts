// The accessibility bus connection: low-level D-Bus calls (no proxy objects: they introspect
// every node, ~4 ms each) raced against the caller's deadline and abort signal, because
// dbus-next calls have no timeout of their own and a frozen app never answers.

import dbus from 'dbus-next';
import type { Message as DbusMessage, MessageBus } from 'dbus-next';
import { TandemError } from '../../core/errors.js';
import type { Progress } from '../../core/progress.js';
import { A11Y_LAUNCHER, DBUS_DAEMON, IFACE, REGISTRY_BUS_NAME, REGISTRY_PATH } from '../../../native/linux/atspiProtocol.js';
import { CALL_TIMEOUT_ERROR, mapAtspiError } from './atspiErrors.js';

const { Message, Variant } = dbus;

export interface AtspiCall {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: unknown[];
}

/** Error value shaped like a DBusError so mapAtspiError treats a local timeout like NoReply. */
class CallTimeout extends Error {
  readonly type = CALL_TIMEOUT_ERROR;
  readonly text: string;
  constructor(member: string) {
    super(`no reply to ${member} before the deadline`);
    this.text = this.message;
  }
}

/** Opens a dbus-next bus at `address` and waits until its Hello was answered. */
async function openBus(address: string, label: string, timeoutMs: number): Promise<MessageBus> {
  const bus = dbus.sessionBus({ busAddress: address });
  // An 'error' event without a listener would throw out of the socket handler and end the process.
  bus.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      fail(new Error(`no answer from ${label} within ${timeoutMs} ms`));
    }, timeoutMs);
    const fail = (error: unknown): void => {
      clearTimeout(timer);
      bus.removeListener('connect', done);
      try {
        bus.disconnect();
      } catch {
        // already closed
      }
      reject(new TandemError('permission', `Cannot reach the ${label} at ${address}: ${error instanceof Error ? error.message : String(error)}`));
    };
    const done = (): void => {
      clearTimeout(timer);
      bus.removeListener('error', fail);
      resolve();
    };
    bus.once('connect', done);
    bus.once('error', fail);
  });
  return bus;
}

export class AtspiBus {
  private readonly bus: MessageBus;
  private closed = false;
  private readonly registeredEvents = new Set<string>();
  private readonly matchRules = new Set<string>();
  /** The reason the connection broke, when it did. */
  private broken: Error | null = null;

  private constructor(bus: MessageBus) {
    this.bus = bus;
    // A stream error must never crash the server: remember it, later calls fail with it.
    bus.on('error', (error: unknown) => {
      this.broken = error instanceof Error ? error : new Error(String(error));
      console.error(`tandem: accessibility bus error: ${this.broken.message}`);
    });
  }

  /**
   * Session bus → org.a11y.Bus.GetAddress → the accessibility bus. `env` supplies
   * DBUS_SESSION_BUS_ADDRESS (defaults to this process's).
   */
  static async connect(env: NodeJS.ProcessEnv = process.env, timeoutMs = 5000): Promise<AtspiBus> {
    const sessionAddress = env.DBUS_SESSION_BUS_ADDRESS;
    if (!sessionAddress) {
      throw new TandemError('permission', 'No D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set, so the accessibility bus cannot be found.');
    }
    const session = await openBus(sessionAddress, 'D-Bus session bus', timeoutMs);
    let a11yAddress: string;
    try {
      const reply = await raceDeadline(
        session.call(new Message({ ...A11Y_LAUNCHER, member: 'GetAddress' })),
        Date.now() + timeoutMs,
        undefined,
        'GetAddress',
      );
      a11yAddress = String(reply?.body[0] ?? '');
    } catch (error) {
      throw new TandemError('permission', `The accessibility bus launcher (org.a11y.Bus) did not answer: ${mapAtspiError(error, { what: 'find the accessibility bus' }).message} Install at-spi2-core and make sure accessibility is not disabled.`);
    } finally {
      session.disconnect();
    }
    if (!a11yAddress) throw new TandemError('permission', 'org.a11y.Bus.GetAddress returned no address: accessibility is disabled in this session.');
    return new AtspiBus(await openBus(a11yAddress, 'accessibility bus', timeoutMs));
  }

  /** One method call; rejects with a TandemError (mapped D-Bus error, timeout or cancel). */
  async call(request: AtspiCall, progress: Progress, what: string): Promise<unknown[]> {
    try {
      const reply = await this.rawCall(request, progress);
      return reply?.body ?? [];
    } catch (error) {
      throw mapAtspiError(error, { what });
    }
  }

  /** Like call() but leaves D-Bus errors unmapped (for callers that branch on the error name). */
  async rawCall(request: AtspiCall, progress: Progress): Promise<DbusMessage | null> {
    if (this.closed) throw new TandemError('internal', 'The accessibility bus connection is closed.');
    if (this.broken) throw new TandemError('app-gone', `The accessibility bus connection broke: ${this.broken.message}`);
    const message = new Message({
      destination: request.destination,
      path: request.path,
      interface: request.interface,
      member: request.member,
      signature: request.signature,
      body: request.body,
    });
    return raceDeadline(this.bus.call(message), progress.deadline, progress.signal, request.member);
  }

  async getProperty(destination: string, path: string, iface: string, property: string, progress: Progress, what: string): Promise<unknown> {
    const [variant] = await this.call(
      { destination, path, interface: IFACE.properties, member: 'Get', signature: 'ss', body: [iface, property] },
      progress,
      what,
    );
    return (variant as { value?: unknown } | undefined)?.value;
  }

  async setProperty(destination: string, path: string, iface: string, property: string, signature: string, value: unknown, progress: Progress, what: string): Promise<void> {
    await this.call(
      { destination, path, interface: IFACE.properties, member: 'Set', signature: 'ssv', body: [iface, property, new Variant(signature, value)] },
      progress,
      what,
    );
  }

  /** Pid of a connection on the accessibility bus. */
  async pidOf(busName: string, progress: Progress): Promise<number> {
    const [pid] = await this.call(
      { ...DBUS_DAEMON, member: 'GetConnectionUnixProcessID', signature: 's', body: [busName] },
      progress,
      `find the process of ${busName}`,
    );
    return Number(pid);
  }

  /**
   * Registry.RegisterEvent, once per event per connection. Toolkits only emit (and GTK3 only
   * publishes its /org/a11y/atspi/cache object) once some client registered for events.
   */
  async registerEvent(event: string, progress: Progress): Promise<void> {
    if (this.registeredEvents.has(event)) return;
    await this.call(
      { destination: REGISTRY_BUS_NAME, path: REGISTRY_PATH, interface: IFACE.registry, member: 'RegisterEvent', signature: 'sass', body: [event, [], ''] },
      progress,
      `register for ${event} events`,
    );
    this.registeredEvents.add(event);
  }

  /** org.freedesktop.DBus.AddMatch, once per rule. */
  async addMatch(rule: string, progress: Progress): Promise<void> {
    if (this.matchRules.has(rule)) return;
    await this.call({ ...DBUS_DAEMON, member: 'AddMatch', signature: 's', body: [rule] }, progress, 'listen for accessibility events');
    this.matchRules.add(rule);
  }

  /** Every message the connection receives (signals included); returns the unsubscriber. */
  onMessage(listener: (message: DbusMessage) => void): () => void {
    this.bus.on('message', listener);
    return () => this.bus.removeListener('message', listener);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.bus.disconnect();
    } catch {
      // already closed
    }
  }
}

/**
 * One abort listener per signal, however many calls are in flight on it (a snapshot runs
 * hundreds in parallel; a listener each would trip Node's leak warning).
 */
const abortWaiters = new WeakMap<AbortSignal, Set<(reason: Error) => void>>();

function onAbort(signal: AbortSignal, waiter: (reason: Error) => void): () => void {
  let waiters = abortWaiters.get(signal);
  if (!waiters) {
    const created = new Set<(reason: Error) => void>();
    waiters = created;
    abortWaiters.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        abortWaiters.delete(signal);
        for (const notify of created) notify(abortReason(signal));
      },
      { once: true },
    );
  }
  waiters.add(waiter);
  return () => waiters.delete(waiter);
}

/** Resolves with `promise` unless the deadline passes or the signal aborts first. */
export function raceDeadline<T>(promise: Promise<T>, deadline: number, signal: AbortSignal | undefined, member: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const stopWaiting = signal
      ? onAbort(signal, (reason) => {
          clearTimeout(timer);
          reject(reason);
        })
      : () => true;
    const timer = setTimeout(() => {
      stopWaiting();
      reject(new CallTimeout(member));
    }, Math.max(0, deadline - Date.now()));
    promise.then(
      (value) => {
        clearTimeout(timer);
        stopWaiting();
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        stopWaiting();
        reject(error);
      },
    );
  });
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new TandemError('cancelled', 'The action was cancelled.');
}

export function isCallTimeout(error: unknown): boolean {
  return error instanceof TandemError && error.code === 'timeout';
}
