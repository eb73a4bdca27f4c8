// The accessibility bus connection: low-level D-Bus calls (no proxy objects: they introspect
// every node, ~4 ms each), each bound to the caller's deadline and abort signal, because a
// frozen app never answers. The wire work is our own lean client (native/linux/dbusClient.ts).

import { TandemError } from '../../core/errors.js';
import type { Progress } from '../../core/progress.js';
import { A11Y_LAUNCHER, DBUS_DAEMON, IFACE, REGISTRY_BUS_NAME, REGISTRY_PATH } from '../../../native/linux/atspiProtocol.js';
import { DbusClient } from '../../../native/linux/dbusClient.js';
import { DbusVariant, type DbusMessage } from '../../../native/linux/dbusWire.js';
import { mapAtspiError } from './atspiErrors.js';

export type { DbusMessage } from '../../../native/linux/dbusWire.js';

export interface AtspiCall {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: unknown[];
}

/** Opens a connection to the bus at `address`, failing with a permission error that names it. */
async function openBus(address: string, label: string, timeoutMs: number): Promise<DbusClient> {
  try {
    return await DbusClient.connect(address, timeoutMs);
  } catch (error) {
    throw new TandemError('permission', `Cannot reach the ${label} at ${address}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export class AtspiBus {
  private closed = false;
  private readonly registeredEvents = new Set<string>();
  private readonly matchRules = new Set<string>();

  private constructor(private readonly bus: DbusClient) {
    // A broken connection must never crash the server: later calls fail with its reason.
    bus.onClose((reason) => {
      if (!this.closed) console.error(`tandem: accessibility bus error: ${reason.message}`);
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
      const reply = await session.call({ ...A11Y_LAUNCHER, member: 'GetAddress' }, { deadline: Date.now() + timeoutMs });
      a11yAddress = String(reply.body[0] ?? '');
    } catch (error) {
      throw new TandemError('permission', `The accessibility bus launcher (org.a11y.Bus) did not answer: ${mapAtspiError(error, { what: 'find the accessibility bus' }).message} Install at-spi2-core and make sure accessibility is not disabled.`);
    } finally {
      session.close();
    }
    if (!a11yAddress) throw new TandemError('permission', 'org.a11y.Bus.GetAddress returned no address: accessibility is disabled in this session.');
    return new AtspiBus(await openBus(a11yAddress, 'accessibility bus', timeoutMs));
  }

  /** One method call; rejects with a TandemError (mapped D-Bus error, timeout or cancel). */
  async call(request: AtspiCall, progress: Progress, what: string): Promise<unknown[]> {
    try {
      const reply = await this.rawCall(request, progress);
      return reply.body;
    } catch (error) {
      throw mapAtspiError(error, { what });
    }
  }

  /**
   * Like call() but leaves D-Bus errors unmapped (for callers that branch on the error name).
   * The call fails with a NoReply error at the progress deadline and with the abort reason on
   * cancel: a frozen app never answers.
   */
  async rawCall(request: AtspiCall, progress: Progress): Promise<DbusMessage> {
    if (this.closed) throw new TandemError('internal', 'The accessibility bus connection is closed.');
    const broken = this.bus.broken;
    if (broken) throw new TandemError('app-gone', `The accessibility bus connection broke: ${broken.message}`);
    return this.bus.call(request, { deadline: progress.deadline, signal: progress.signal });
  }

  async getProperty(destination: string, path: string, iface: string, property: string, progress: Progress, what: string): Promise<unknown> {
    const [variant] = await this.call(
      { destination, path, interface: IFACE.properties, member: 'Get', signature: 'ss', body: [iface, property] },
      progress,
      what,
    );
    return variant instanceof DbusVariant ? variant.value : undefined;
  }

  /** Properties.GetAll of one interface: property name → value. */
  async getAllProperties(destination: string, path: string, iface: string, progress: Progress, what: string): Promise<Record<string, unknown>> {
    const [all] = await this.call({ destination, path, interface: IFACE.properties, member: 'GetAll', signature: 's', body: [iface] }, progress, what);
    const values: Record<string, unknown> = {};
    for (const [name, variant] of Object.entries((all ?? {}) as Record<string, unknown>)) {
      values[name] = variant instanceof DbusVariant ? variant.value : undefined;
    }
    return values;
  }

  async setProperty(destination: string, path: string, iface: string, property: string, signature: string, value: unknown, progress: Progress, what: string): Promise<void> {
    await this.call(
      { destination, path, interface: IFACE.properties, member: 'Set', signature: 'ssv', body: [iface, property, new DbusVariant(signature, value)] },
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

  /** Every signal the connection receives; returns the unsubscriber. */
  onMessage(listener: (message: DbusMessage) => void): () => void {
    return this.bus.onSignal(listener);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.bus.close();
  }
}
