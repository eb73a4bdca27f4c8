// Proof that an X client has handled its input: the EWMH _NET_WM_PING round trip.
//
// A client that lists _NET_WM_PING in a window's WM_PROTOCOLS answers a ping ClientMessage by
// sending it back to the root window; window managers use it to spot hung apps. Sent on the
// same connection right after XTEST input, the ping reaches the receiving client after every
// event that input generated (the X server delivers XTEST input as it processes the request,
// and one client's events arrive in order), and the client answers only once its event loop has
// reached it: GTK translates the next X event only when its own queue is empty, Qt, Chromium and
// Firefox answer from their main thread in event order. Measured on the fixture (GTK 3): the
// answer never came before the app had inserted the text typed before the ping; it came up to
// ~0.4 s later when the app's queue stayed busy (Xlib flushes the answer at the next paint or
// when the queue is empty), so pacing on it errs on the safe side.

import type { XEvent } from 'x11';
import type { BarrierOutcome, ConsumptionBarrier } from '../../core/input/inputPacing.js';
import type { Point } from '../../core/model.js';
import { sleep } from '../../core/progress.js';
import type { X11Connection } from '../../../native/linux/x11Connection.js';
import type { X11Windows } from './x11Windows.js';

/**
 * The masks clients send their ping answers to the root with: GTK and Chromium use
 * SubstructureNotify, Qt 5 StructureNotify|SubstructureRedirect (qxcbwindow.cpp) — a client
 * selecting only the first never hears Qt's answer (every input to a Qt app timed out).
 */
const ANSWER_MASKS = 0x80000 /* SubstructureNotify */ | 0x20000; /* StructureNotify */
/** Our ping ids start here, far from the window manager's own (openbox counts from 1). */
const PING_ID_BASE = 0x5a000000;
/** While waiting for an answer, check this often whether the pinged windows still exist. */
const GONE_CHECK_MS = 250;
/** Where no receiver answers pings: the X round trip, then this long per event sent. */
const FALLBACK_MS_PER_EVENT = 2;
/** WM_PROTOCOLS answers remembered (window ids are reused only after many windows). */
const SUPPORT_CACHE_LIMIT = 512;

/** The ping-capable windows of one client (process): an answer from any of them speaks for it. */
export type ReceiverGroup = readonly number[];

interface Waiter {
  /** Clients still to answer. */
  groups: ReceiverGroup[];
  resolve: (outcome: BarrierOutcome) => void;
}

export class X11WmPing {
  private listening: Promise<void> | null = null;
  private nextId = PING_ID_BASE;
  private readonly waiting = new Map<number, Waiter>();
  private readonly supportCache = new Map<number, boolean>();

  constructor(
    private readonly connection: X11Connection,
    private readonly windows: X11Windows,
  ) {
    connection.onEvent((event) => this.onEvent(event));
  }

  /** The client that receives keys now: the active window's process. [] when it answers no pings. */
  async keyReceivers(): Promise<ReceiverGroup[]> {
    const active = await this.windows.activeWindow();
    return active ? this.pingableGroups([active]) : [];
  }

  /**
   * The clients a click at `point` may reach: the one under it, and the active window's (a popup
   * menu under the point belongs to it, and a click that moves focus sends keys there).
   */
  async pointerReceivers(point: Point): Promise<ReceiverGroup[]> {
    const [under, active] = await Promise.all([this.windows.clientAt(point), this.windows.activeWindow()]);
    return this.pingableGroups([under, active].filter((window): window is number => window !== null));
  }

  /**
   * A barrier for input sent to `receivers`: handled once every one of those clients answered.
   * Where none answers pings, the X round trip and a fixed pace stand in (logged by the caller).
   */
  barrier(receivers: readonly ReceiverGroup[]): ConsumptionBarrier {
    if (receivers.length === 0) return { mark: (units) => this.fallbackMark(units) };
    return { mark: () => this.ping(receivers) };
  }

  /** For each process owning one of `seeds`: its ping-capable windows, the seed first. */
  private async pingableGroups(seeds: number[]): Promise<ReceiverGroup[]> {
    const seedPids = await Promise.all(seeds.map((window) => this.windows.windowPid(window)));
    const clients = await this.windows.clientList();
    const owners = await Promise.all(clients.map((window) => this.windows.windowPid(window)));
    const groups = new Map<number, number[]>();
    seeds.forEach((seed, index) => {
      // A window without a known owner is a client of its own.
      const key = seedPids[index] ?? -seed;
      const group = groups.get(key) ?? [];
      if (!group.includes(seed)) group.push(seed);
      groups.set(key, group);
    });
    clients.forEach((window, index) => {
      const group = owners[index] !== null ? groups.get(owners[index]!) : undefined;
      if (group && !group.includes(window)) group.push(window);
    });
    const pingable = await Promise.all(
      [...groups.values()].map(async (windows) => {
        const supported = await Promise.all(windows.map((window) => this.supportsPing(window)));
        return windows.filter((_, index) => supported[index]);
      }),
    );
    return pingable.filter((group) => group.length > 0);
  }

  private async supportsPing(window: number): Promise<boolean> {
    const cached = this.supportCache.get(window);
    if (cached !== undefined) return cached;
    const [protocols, ping] = await Promise.all([this.connection.cardinals(window, 'WM_PROTOCOLS').catch(() => [] as number[]), this.connection.atom('_NET_WM_PING')]);
    const supported = protocols.includes(ping);
    if (this.supportCache.size >= SUPPORT_CACHE_LIMIT) this.supportCache.clear();
    this.supportCache.set(window, supported);
    return supported;
  }

  private async ping(receivers: readonly ReceiverGroup[]): Promise<BarrierOutcome> {
    await this.listen();
    const [wmProtocols, netWmPing] = await Promise.all([this.connection.atom('WM_PROTOCOLS'), this.connection.atom('_NET_WM_PING')]);
    const id = this.nextId;
    this.nextId = this.nextId >= 0x7fffffff ? PING_ID_BASE : this.nextId + 1;
    const answered = new Promise<BarrierOutcome>((resolve) => this.waiting.set(id, { groups: [...receivers], resolve }));
    // Event mask 0: delivered to the client that created the window, whatever it selected.
    for (const window of receivers.flat()) this.connection.client.SendClientMessage(window, window, wmProtocols, 32, [netWmPing, id, window, 0, 0], 0);
    void this.watchForGone(id);
    return answered;
  }

  /** A window closed by the input itself never answers: a client whose pinged windows are all gone has nothing left to handle. */
  private async watchForGone(id: number): Promise<void> {
    for (;;) {
      await sleep(GONE_CHECK_MS);
      const waiter = this.waiting.get(id);
      if (!waiter) return;
      if (this.connection.closed) return this.finish(id, 'gone');
      const alive = await Promise.all(
        waiter.groups.map(async (group) => (await Promise.all(group.map((window) => this.windows.geometry(window).then(() => true, () => false)))).includes(true)),
      );
      waiter.groups = waiter.groups.filter((_, index) => alive[index]);
      if (waiter.groups.length === 0) return this.finish(id, 'gone');
    }
  }

  private async fallbackMark(units: number): Promise<BarrierOutcome> {
    await this.connection.sync();
    await sleep(units * FALLBACK_MS_PER_EVENT);
    return 'handled';
  }

  private onEvent(event: XEvent): void {
    if (event.name !== 'ClientMessage' || this.waiting.size === 0) return;
    const data = (event as XEvent & { data?: number[] }).data;
    if (!Array.isArray(data) || data.length < 3) return;
    const [, id, window] = data;
    // An answer proves its client handled everything sent before that ping, hence before every
    // earlier ping to it too (a client's events arrive, and are answered, in order).
    for (const [pending, waiter] of [...this.waiting]) {
      if (pending > id || id - pending >= 0x1000000) continue;
      waiter.groups = waiter.groups.filter((group) => !group.includes(window));
      if (waiter.groups.length === 0) this.finish(pending, 'handled');
    }
  }

  private finish(id: number, outcome: BarrierOutcome): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.waiting.delete(id);
    waiter.resolve(outcome);
  }

  /** Root Substructure/StructureNotify on this connection, once: the answers are sent to the root with them. */
  private listen(): Promise<void> {
    this.listening ??= (async () => {
      this.connection.addRootEventMask(ANSWER_MASKS);
      await this.connection.sync();
    })();
    return this.listening;
  }
}
