// One X connection with a promise API over the `x11` package's callbacks. Every request that
// waits for a reply also fails as soon as the connection is gone, so nothing hangs when the X
// server dies or the session ends.

import x11 from 'x11';
import type { XClient, XDisplay, XError, XEvent, XScreen } from 'x11';

export class X11ConnectionError extends Error {
  constructor(message: string, readonly xError?: XError) {
    super(message);
    this.name = 'X11ConnectionError';
  }
}

export class X11Connection {
  private closedError: Error | null = null;
  private readonly pending = new Set<(error: Error) => void>();
  private readonly atomCache = new Map<string, number>();
  private readonly eventListeners = new Set<(event: XEvent) => void>();
  private readonly closeListeners = new Set<(error: Error) => void>();
  /** Events this connection selected on the root window (a client has one mask per window). */
  private rootEventMask = 0;

  private constructor(
    readonly client: XClient,
    readonly display: XDisplay,
    readonly name: string,
  ) {
    const onGone = (): void => this.markClosed(new X11ConnectionError(`The X display ${name} closed the connection.`));
    client.on('error', (error: XError) => {
      if (typeof error.error !== 'number') {
        // A socket error, not an X protocol error: the connection is unusable.
        console.error(`[x11] ${name}: ${error.message}`);
        onGone();
        return;
      }
      // Errors of requests sent without a callback (void requests) land here. They are expected
      // in a few places (a window that vanished between two requests): log, never crash.
      console.error(`[x11] ${name}: X error ${error.error} (${error.message}) major ${error.majorOpcode} minor ${error.minorOpcode}`);
    });
    client.on('end', onGone);
    client.stream?.on('close', onGone);
    client.on('event', (event: XEvent) => {
      for (const listener of this.eventListeners) {
        try {
          listener(event);
        } catch (error) {
          console.error('[x11] event listener failed:', error);
        }
      }
    });
  }

  static open(displayName: string, timeoutMs = 3000): Promise<X11Connection> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        reject(new X11ConnectionError(`The X display ${displayName} did not answer within ${timeoutMs} ms.`));
      }, timeoutMs);
      let client: XClient;
      try {
        client = x11.createClient({ display: displayName, shm: false }, (error, display) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (error) reject(new X11ConnectionError(`Cannot connect to the X display ${displayName}: ${error.message}`));
          else resolve(new X11Connection(client, display, displayName));
        });
        // Until the handshake is done the package reports a failed connect through the callback;
        // a later stray 'error' must not become an unhandled exception.
        client.on('error', () => {});
      } catch (error) {
        settled = true;
        clearTimeout(timer);
        reject(new X11ConnectionError(`Cannot connect to the X display ${displayName}: ${(error as Error).message}`));
      }
    });
  }

  get screen(): XScreen {
    return this.display.screen[0];
  }

  get root(): number {
    return this.screen.root;
  }

  get closed(): boolean {
    return this.closedError !== null;
  }

  /** Runs one callback-style request; rejects on an X error or when the connection goes away. */
  request<T>(send: (callback: (error: XError | null | undefined, result: T) => boolean) => void): Promise<T> {
    if (this.closedError) return Promise.reject(this.closedError);
    return new Promise<T>((resolve, reject) => {
      const onClosed = (error: Error): void => reject(error);
      this.pending.add(onClosed);
      try {
        send((error, result) => {
          this.pending.delete(onClosed);
          if (error) reject(new X11ConnectionError(`X error ${error.error} (${error.message ?? 'unknown'})`, error));
          else resolve(result);
          // true tells the package the error was handled (no 'error' event).
          return true;
        });
      } catch (error) {
        this.pending.delete(onClosed);
        reject(error);
      }
    });
  }

  /** Round trip: every request sent so far has been processed once this resolves. */
  sync(): Promise<void> {
    return this.request<void>((callback) => this.client.sync((error) => callback(error, undefined)));
  }

  async atom(name: string): Promise<number> {
    const cached = this.atomCache.get(name);
    if (cached !== undefined) return cached;
    const atom = await this.request<number>((callback) => this.client.InternAtom(false, name, callback));
    this.atomCache.set(name, atom);
    return atom;
  }

  /** Property as raw bytes (null when absent). type 0 = AnyPropertyType. */
  async property(window: number, name: string, maxBytes = 65536): Promise<{ type: number; format: number; data: Buffer } | null> {
    const atom = await this.atom(name);
    const reply = await this.request<{ type: number; format: number; data: Buffer }>((callback) =>
      this.client.GetProperty(0, window, atom, 0, 0, Math.ceil(maxBytes / 4), callback),
    );
    if (!reply.type) return null;
    return reply;
  }

  async cardinals(window: number, name: string): Promise<number[]> {
    const reply = await this.property(window, name);
    if (!reply || reply.format !== 32) return [];
    const values: number[] = [];
    for (let offset = 0; offset + 4 <= reply.data.length; offset += 4) values.push(reply.data.readUInt32LE(offset));
    return values;
  }

  /** A UTF8_STRING / STRING property as text ('' when absent). */
  async text(window: number, name: string): Promise<string> {
    const reply = await this.property(window, name);
    if (!reply || reply.format !== 8) return '';
    const utf8 = await this.atom('UTF8_STRING');
    return reply.data.toString(reply.type === utf8 ? 'utf8' : 'latin1');
  }

  /**
   * Adds event types to what this connection selects on the root window. Everyone who selects
   * root events on this connection goes through here: a second ChangeWindowAttributes with its
   * own mask would replace the first.
   */
  addRootEventMask(bits: number): void {
    if ((this.rootEventMask & bits) === bits) return;
    this.rootEventMask |= bits;
    this.client.ChangeWindowAttributes(this.root, { eventMask: this.rootEventMask });
  }

  onEvent(listener: (event: XEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /**
   * Calls `listener` once when the connection goes away (the server closed it, a socket error,
   * or close()). Returns the unsubscribe.
   */
  onClosed(listener: (error: Error) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Sends a hand-built request (extension requests the package lacks). */
  sendRaw(request: Buffer): void {
    if (this.closedError) throw this.closedError;
    this.client.seq_num++;
    this.client.pack_stream.put(request);
    this.client.pack_stream.submit(false);
  }

  /** Sends a hand-built request that has a reply; `parse` gets the reply body after its 8-byte header. */
  requestRaw<T>(request: Buffer, parse: (body: Buffer, headerByte: number) => T): Promise<T> {
    return this.request<T>((callback) => {
      this.client.seq_num++;
      this.client.replies[this.client.seq_num] = [parse, callback];
      this.client.pack_stream.put(request);
      this.client.pack_stream.submit(true);
    });
  }

  async close(): Promise<void> {
    if (this.closedError) return;
    this.markClosed(new X11ConnectionError(`The connection to ${this.name} was closed.`));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 500);
      try {
        this.client.close(() => {
          clearTimeout(timer);
          resolve();
        });
      } catch {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  private markClosed(error: Error): void {
    if (this.closedError) return;
    this.closedError = error;
    for (const reject of this.pending) reject(error);
    this.pending.clear();
    for (const listener of [...this.closeListeners]) {
      try {
        listener(error);
      } catch (failure) {
        console.error('[x11] close listener failed:', failure);
      }
    }
    this.closeListeners.clear();
  }
}
