// A D-Bus client connection over a Unix socket: EXTERNAL authentication, Hello, method calls
// with a deadline and an abort signal, and every incoming signal to listeners.
//
// Why our own and not dbus-next: see dbusWire.ts (the per-call CPU cost). Besides the codec,
// two things matter when an accessibility snapshot sends hundreds of calls at once: messages
// written in the same tick leave in one socket write (dbus-next wrote each one separately),
// and a frozen app's calls time out through one timer per distinct deadline, not one per call.

import net from 'node:net';
import { DbusWireError, FLAG_NO_REPLY_EXPECTED, MESSAGE_TYPE, decodeMessage, encodeMessage, messageLength, type DbusMessage } from './dbusWire.js';

export const DBUS_ERROR = {
  disconnected: 'org.freedesktop.DBus.Error.Disconnected',
  noReply: 'org.freedesktop.DBus.Error.NoReply',
  unknownMethod: 'org.freedesktop.DBus.Error.UnknownMethod',
} as const;

/** A failed call: `type` is the D-Bus error name, `text` its message (as the error reply said). */
export class DbusCallError extends Error {
  constructor(readonly type: string, readonly text: string) {
    super(text ? `${type}: ${text}` : type);
  }
}

export interface DbusCallRequest {
  destination?: string;
  path: string;
  interface?: string;
  member: string;
  signature?: string;
  body?: readonly unknown[];
}

export interface CallLimits {
  /** Epoch ms after which the call fails with NoReply. */
  deadline: number;
  /** Aborting rejects the call with the signal's reason. */
  signal?: AbortSignal;
}

interface Pending {
  resolve: (message: DbusMessage) => void;
  reject: (error: unknown) => void;
  member: string;
  deadline: number;
  signal?: AbortSignal;
}

interface SocketAddress {
  path: string;
  label: string;
}

/** `unix:path=…` and `unix:abstract=…` entries of a D-Bus address list, in order. */
export function parseUnixAddresses(address: string): SocketAddress[] {
  const found: SocketAddress[] = [];
  for (const entry of address.split(';')) {
    const colon = entry.indexOf(':');
    if (colon < 0 || entry.slice(0, colon) !== 'unix') continue;
    const keys = new Map<string, string>();
    for (const pair of entry.slice(colon + 1).split(',')) {
      const eq = pair.indexOf('=');
      if (eq > 0) keys.set(pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1)));
    }
    const path = keys.get('path');
    const abstract = keys.get('abstract');
    if (path) found.push({ path, label: path });
    else if (abstract) found.push({ path: `\0${abstract}`, label: `@${abstract}` });
  }
  return found;
}

export class DbusClient {
  private serial = 0;
  private readonly pending = new Map<number, Pending>();
  /** Serials by deadline: one timer per distinct deadline. */
  private readonly byDeadline = new Map<number, { timer: NodeJS.Timeout; serials: Set<number> }>();
  /** Serials by abort signal: one listener per signal. */
  private readonly bySignal = new Map<AbortSignal, { onAbort: () => void; serials: Set<number> }>();
  private readonly listeners = new Set<(message: DbusMessage) => void>();
  private readonly closeListeners = new Set<(reason: Error) => void>();
  private buffered: Buffer | null = null;
  private corked = false;
  private failure: Error | null = null;
  /** Our unique name on the bus, once Hello was answered. */
  uniqueName = '';

  private constructor(private readonly socket: net.Socket) {
    socket.setNoDelay?.(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('the bus closed the connection')));
  }

  /** Connects, authenticates and says Hello; rejects within timeoutMs. */
  static async connect(address: string, timeoutMs: number): Promise<DbusClient> {
    const candidates = parseUnixAddresses(address);
    if (candidates.length === 0) throw new Error(`no unix:path or unix:abstract entry in the bus address "${address}"`);
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    for (const candidate of candidates) {
      let socket: net.Socket | null = null;
      try {
        socket = await openSocket(candidate.path, deadline);
        const leftover = await authenticate(socket, deadline);
        const client = new DbusClient(socket);
        if (leftover.length > 0) client.onData(leftover);
        const hello = await client.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'Hello' }, { deadline });
        client.uniqueName = String(hello.body[0] ?? '');
        return client;
      } catch (error) {
        socket?.destroy();
        lastError = new Error(`${candidate.label}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    throw lastError;
  }

  /** The reply to one method call; an error reply rejects with DbusCallError. */
  call(request: DbusCallRequest, limits: CallLimits): Promise<DbusMessage> {
    if (this.failure) return Promise.reject(new DbusCallError(DBUS_ERROR.disconnected, this.failure.message));
    if (limits.signal?.aborted) return Promise.reject(abortReason(limits.signal));
    const serial = this.nextSerial();
    let bytes: Buffer;
    try {
      bytes = encodeMessage({ type: MESSAGE_TYPE.methodCall, serial, ...request });
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<DbusMessage>((resolve, reject) => {
      this.pending.set(serial, { resolve, reject, member: request.member, deadline: limits.deadline, signal: limits.signal });
      this.trackDeadline(serial, limits.deadline);
      if (limits.signal) this.trackSignal(serial, limits.signal);
      this.write(bytes);
    });
  }

  /** Every signal the connection receives. Returns the unsubscriber. */
  onSignal(listener: (message: DbusMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once when the connection breaks or is closed. */
  onClose(listener: (reason: Error) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  get broken(): Error | null {
    return this.failure;
  }

  /** Calls still waiting for a reply (for leak checks). */
  get pendingCalls(): number {
    return this.pending.size;
  }

  close(): void {
    this.fail(new Error('the connection was closed'));
  }

  // — internals —

  private nextSerial(): number {
    this.serial = this.serial >= 0xffffffff ? 1 : this.serial + 1;
    return this.serial;
  }

  private write(bytes: Buffer): void {
    // Everything written in this tick leaves in one writev: a snapshot queues hundreds of calls.
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(bytes);
  }

  private trackDeadline(serial: number, deadline: number): void {
    let group = this.byDeadline.get(deadline);
    if (!group) {
      const serials = new Set<number>();
      const timer = setTimeout(() => {
        this.byDeadline.delete(deadline);
        for (const expired of serials) {
          const call = this.take(expired);
          call?.reject(new DbusCallError(DBUS_ERROR.noReply, `no reply to ${call.member} before the deadline`));
        }
      }, Math.max(0, deadline - Date.now()));
      group = { timer, serials };
      this.byDeadline.set(deadline, group);
    }
    group.serials.add(serial);
  }

  private trackSignal(serial: number, signal: AbortSignal): void {
    let group = this.bySignal.get(signal);
    if (!group) {
      const serials = new Set<number>();
      const onAbort = (): void => {
        this.bySignal.delete(signal);
        for (const aborted of serials) this.take(aborted)?.reject(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      group = { onAbort, serials };
      this.bySignal.set(signal, group);
    }
    group.serials.add(serial);
  }

  /** Removes a pending call and its timer/listener bookkeeping. */
  private take(serial: number): Pending | undefined {
    const call = this.pending.get(serial);
    if (!call) return undefined;
    this.pending.delete(serial);
    const deadlineGroup = this.byDeadline.get(call.deadline);
    if (deadlineGroup?.serials.delete(serial) && deadlineGroup.serials.size === 0) {
      clearTimeout(deadlineGroup.timer);
      this.byDeadline.delete(call.deadline);
    }
    if (call.signal) {
      const signalGroup = this.bySignal.get(call.signal);
      if (signalGroup?.serials.delete(serial) && signalGroup.serials.size === 0) {
        call.signal.removeEventListener('abort', signalGroup.onAbort);
        this.bySignal.delete(call.signal);
      }
    }
    return call;
  }

  private onData(chunk: Buffer): void {
    let data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    this.buffered = null;
    let offset = 0;
    try {
      for (;;) {
        const length = messageLength(data, offset);
        if (length === null || data.length - offset < length) break;
        const message = decodeMessage(data, offset);
        offset += length;
        this.dispatch(message);
      }
    } catch (error) {
      this.fail(error instanceof DbusWireError ? new Error(`unreadable message from the bus: ${error.message}`) : (error as Error));
      return;
    }
    if (offset < data.length) {
      data = data.subarray(offset);
      // Keep a copy of a small remainder so the (possibly large) chunk can be collected.
      this.buffered = data.length < 4096 ? Buffer.from(data) : data;
    }
  }

  private dispatch(message: DbusMessage): void {
    if (message.type === MESSAGE_TYPE.methodReturn || message.type === MESSAGE_TYPE.error) {
      const call = message.replySerial === undefined ? undefined : this.take(message.replySerial);
      if (!call) return; // late reply to a call that already timed out or was aborted
      if (message.type === MESSAGE_TYPE.methodReturn) call.resolve(message);
      else call.reject(new DbusCallError(message.errorName ?? 'org.freedesktop.DBus.Error.Failed', typeof message.body[0] === 'string' ? message.body[0] : ''));
      return;
    }
    if (message.type === MESSAGE_TYPE.signal) {
      for (const listener of this.listeners) listener(message);
      return;
    }
    // A method call to us: we serve nothing, but a caller must not wait for its timeout.
    if (message.type === MESSAGE_TYPE.methodCall && !(message.flags & FLAG_NO_REPLY_EXPECTED) && message.sender) {
      this.write(encodeMessage({
        type: MESSAGE_TYPE.error,
        serial: this.nextSerial(),
        replySerial: message.serial,
        destination: message.sender,
        errorName: DBUS_ERROR.unknownMethod,
        signature: 's',
        body: [`${message.interface ?? ''}.${message.member ?? ''} is not served here`],
      }));
    }
  }

  private fail(reason: Error): void {
    if (this.failure) return;
    this.failure = reason;
    this.socket.destroy();
    for (const serial of [...this.pending.keys()]) this.take(serial)?.reject(new DbusCallError(DBUS_ERROR.disconnected, reason.message));
    for (const listener of this.closeListeners) listener(reason);
    this.closeListeners.clear();
    this.listeners.clear();
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}

function openSocket(path: string, deadline: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ path });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer before the deadline'));
    }, Math.max(0, deadline - Date.now()));
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** SASL EXTERNAL with our uid; returns bytes that arrived after the OK line. */
function authenticate(socket: net.Socket, deadline: number): Promise<Buffer> {
  const uid = process.getuid?.() ?? 0;
  const hexUid = Buffer.from(String(uid), 'ascii').toString('hex');
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const finish = (error: Error | null, leftover?: Buffer): void => {
      clearTimeout(timer);
      socket.removeListener('data', onData);
      socket.removeListener('error', onError);
      socket.removeListener('close', onClose);
      if (error) reject(error);
      else resolve(leftover!);
    };
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n');
      if (end < 0) {
        if (received.length > 512) finish(new Error('the bus sent an over-long authentication line'));
        return;
      }
      const line = received.subarray(0, end).toString('ascii');
      if (!line.startsWith('OK ')) {
        finish(new Error(`the bus refused EXTERNAL authentication for uid ${uid}: ${line}`));
        return;
      }
      socket.write('BEGIN\r\n');
      finish(null, received.subarray(end + 2));
    };
    const onError = (error: Error): void => finish(error);
    const onClose = (): void => finish(new Error('the bus closed the connection during authentication'));
    const timer = setTimeout(() => finish(new Error('no authentication answer before the deadline')), Math.max(0, deadline - Date.now()));
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
    socket.write(`\0AUTH EXTERNAL ${hexUid}\r\n`);
  });
}
