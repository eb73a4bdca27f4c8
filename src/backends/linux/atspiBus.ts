// The accessibility bus connection: low-level D-Bus calls (no proxy objects: they introspect
// every node, ~4 ms each), each bound to the caller's deadline and abort signal, because a
// frozen app never answers. The wire work is our own lean client (native/linux/dbusClient.ts).
//
// Calls to an app go over the app's own peer-to-peer socket when it offers one
// (Application.GetApplicationBusAddress: at-spi2-atk does): the bus daemon then routes none of
// the hundreds of messages of a snapshot, which on our two-core machines competed for the CPU
// with the app itself. Events still come through the bus (see syncEvents).

import { TandemError } from '../../core/errors.js';
import type { Progress } from '../../core/progress.js';
import { A11Y_LAUNCHER, DBUS_DAEMON, IFACE, REGISTRY_BUS_NAME, REGISTRY_PATH, ROOT_PATH } from '../../../native/linux/atspiProtocol.js';
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

/** How long opening an app's own socket may take before its calls go through the bus instead. */
const DIRECT_CONNECT_TIMEOUT_MS = 1_000;
/** How long the event barrier after a read waits for the app (see syncEvents). */
const SYNC_TIMEOUT_MS = 250;

export class AtspiBus {
  private closed = false;
  private readonly registeredEvents = new Set<string>();
  private readonly matchRules = new Set<string>();
  /** Peer-to-peer connections by app bus name; null: the app offers none (use the bus). */
  private readonly direct = new Map<string, Promise<DbusClient | null>>();

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
    const limits = { deadline: progress.deadline, signal: progress.signal };
    const direct = await this.directTo(request.destination);
    // A peer-to-peer connection routes nothing: no destination on its messages.
    if (direct) return direct.call({ ...request, destination: undefined }, limits);
    return this.bus.call(request, limits);
  }

  /**
   * Resolves once every event busName emitted before now has been received. Replies on an app's
   * own socket can overtake the events it sent through the bus; a Ping routed through the bus
   * cannot (the bus keeps one sender's messages in order), so it serves as a barrier. False
   * when the app did not answer it within SYNC_TIMEOUT_MS.
   */
  async syncEvents(busName: string, progress: Progress): Promise<boolean> {
    if (!(await this.directTo(busName))) return true;
    // An app that does not answer a Ping at once is busy or frozen: do not wait for it.
    const deadline = Math.min(progress.deadline, Date.now() + SYNC_TIMEOUT_MS);
    return this.bus
      .call({ destination: busName, path: ROOT_PATH, interface: 'org.freedesktop.DBus.Peer', member: 'Ping' }, { deadline, signal: progress.signal })
      .then(() => true, () => false);
  }

  private directTo(destination: string): Promise<DbusClient | null> {
    // Unique names (":1.42") are apps; well-known names are the registry and the daemon.
    if (!destination.startsWith(':')) return Promise.resolve(null);
    let pending = this.direct.get(destination);
    if (!pending) {
      pending = this.openDirect(destination);
      this.direct.set(destination, pending);
    }
    return pending;
  }

  private async openDirect(busName: string): Promise<DbusClient | null> {
    try {
      const reply = await this.bus.call(
        { destination: busName, path: ROOT_PATH, interface: IFACE.application, member: 'GetApplicationBusAddress' },
        { deadline: Date.now() + DIRECT_CONNECT_TIMEOUT_MS },
      );
      const address = String(reply.body[0] ?? '');
      if (!address || this.closed) return null;
      const client = await DbusClient.connect(address, DIRECT_CONNECT_TIMEOUT_MS);
      if (this.closed) {
        client.close();
        return null;
      }
      // The app quit (or the socket broke): forget the connection; a later call asks again.
      const opened = this.direct.get(busName);
      client.onClose(() => {
        if (this.direct.get(busName) === opened) this.direct.delete(busName);
      });
      return client;
    } catch {
      // No socket of its own (GTK 4, Qt) or it would not answer: the bus serves.
      return null;
    }
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
    for (const pending of this.direct.values()) void pending.then((client) => client?.close());
    this.direct.clear();
  }
}
