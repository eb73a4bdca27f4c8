// Windows, focus and cursor over EWMH (the window manager's root-window properties) and core X.

import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { QuitRequest } from '../../core/desktop.js';
import type { Frontmost, Point, Rect, WindowInfo } from '../../core/model.js';
import { sleep, throwIfAborted, type Progress } from '../../core/progress.js';
import type { ResExtension } from 'x11';
import type { X11Connection } from '../../../native/linux/x11Connection.js';

/** How long activate() polls _NET_ACTIVE_WINDOW before answering that it did not take. */
const ACTIVATE_CHECK_MS = 300;
const ACTIVATE_POLL_MS = 10;
/** EWMH source indication "pager": window managers honour it without focus-stealing checks. */
const SOURCE_PAGER = 2;

export class X11Windows {
  constructor(
    private readonly connection: X11Connection,
    private readonly resources: ResExtension | null = null,
  ) {}

  /** Managed toplevel client windows, oldest first (_NET_CLIENT_LIST). */
  async clientList(): Promise<number[]> {
    return this.connection.cardinals(this.connection.root, '_NET_CLIENT_LIST');
  }

  async activeWindow(): Promise<number | null> {
    const [window] = await this.connection.cardinals(this.connection.root, '_NET_ACTIVE_WINDOW');
    return window ? window : null;
  }

  /**
   * The process that owns a window: _NET_WM_PID when the app set it, else the X server's own
   * answer (X-Resource, from the kernel's socket credentials of a local client).
   */
  async windowPid(window: number): Promise<number | null> {
    const [pid] = await this.connection.cardinals(window, '_NET_WM_PID').catch(() => [] as number[]);
    if (pid) return pid;
    return this.ownerPid(window);
  }

  /**
   * Whether the pid a window names is the process the X server knows as its client (X-Resource:
   * the kernel's socket credentials), or — where the server cannot tell — whether the window at
   * least comes from this machine (WM_CLIENT_MACHINE, which EWMH pairs with _NET_WM_PID).
   */
  private async pidVerified(window: number, pid: number): Promise<boolean | undefined> {
    const owner = await this.ownerPid(window);
    if (owner !== null) return owner === pid;
    const machine = await this.connection.text(window, 'WM_CLIENT_MACHINE').catch(() => '');
    return machine !== '' && machine !== hostname() ? false : undefined;
  }

  private async ownerPid(window: number): Promise<number | null> {
    const resources = this.resources;
    if (!resources || resources.major < 1 || (resources.major === 1 && resources.minor < 2)) return null;
    const ids = await this.connection
      .request<Array<{ mask: number; value: number[] }>>((callback) =>
        resources.QueryClientIds([{ client: window, mask: resources.ClientIdMask.LocalClientPID }], callback),
      )
      .catch(() => []);
    const pid = ids.find((id) => id.mask & resources.ClientIdMask.LocalClientPID)?.value[0];
    return pid ? pid : null;
  }

  async windowTitle(window: number): Promise<string> {
    const title = await this.connection.text(window, '_NET_WM_NAME').catch(() => '');
    if (title) return title;
    return this.connection.text(window, 'WM_NAME').catch(() => '');
  }

  /**
   * The client area on screen, without the invisible shadow a client-side-decorated window draws
   * around itself. The window manager reparents the client into a frame, so its own x/y are
   * frame-relative: translate to the root instead.
   */
  async clientBounds(window: number): Promise<Rect | null> {
    try {
      const [origin, geometry, inset] = await Promise.all([this.rootPosition(window), this.geometry(window), this.decorationInset(window)]);
      return {
        x: origin.x + inset.left,
        y: origin.y + inset.top,
        width: Math.max(0, geometry.width - inset.left - inset.right),
        height: Math.max(0, geometry.height - inset.top - inset.bottom),
      };
    } catch {
      return null;
    }
  }

  /**
   * Where the visible window starts inside a client-side-decorated toplevel (GTK's
   * _GTK_FRAME_EXTENTS: left, right, top, bottom shadow widths); zero for ordinary windows.
   */
  async decorationInset(window: number): Promise<{ left: number; right: number; top: number; bottom: number }> {
    const [left = 0, right = 0, top = 0, bottom = 0] = await this.connection.cardinals(window, '_GTK_FRAME_EXTENTS').catch(() => [] as number[]);
    return { left, right, top, bottom };
  }

  async rootPosition(window: number): Promise<Point> {
    const reply = await this.connection.request<{ destX: number; destY: number }>((callback) =>
      this.connection.client.TranslateCoordinates(window, this.connection.root, 0, 0, callback),
    );
    return { x: reply.destX, y: reply.destY };
  }

  geometry(drawable: number): Promise<{ width: number; height: number; xPos: number; yPos: number; depth: number; borderWidth: number }> {
    return this.connection.request((callback) => this.connection.client.GetGeometry(drawable, callback));
  }

  /** The window manager's frame around a client: its ancestor that is a child of the root. */
  async frameOf(window: number): Promise<number> {
    let current = window;
    for (let depth = 0; depth < 16; depth++) {
      const tree = await this.connection.request<{ root: number; parent: number }>((callback) => this.connection.client.QueryTree(current, callback));
      if (tree.parent === tree.root || tree.parent === 0) return current;
      current = tree.parent;
    }
    return current;
  }

  /**
   * The client window (the one with WM_STATE, under the window manager's frame) at a root point,
   * or null over the desktop or an override-redirect popup (a menu, a tooltip).
   */
  async clientAt(point: Point): Promise<number | null> {
    const root = this.connection.root;
    let current = root;
    for (let depth = 0; depth < 8; depth++) {
      const { child } = await this.connection.request<{ child: number }>((callback) =>
        this.connection.client.TranslateCoordinates(root, current, Math.round(point.x), Math.round(point.y), callback),
      );
      if (!child) return null;
      if (await this.connection.property(child, 'WM_STATE', 8).catch(() => null)) return child;
      current = child;
    }
    return null;
  }

  /** The client window a click at `point` reaches, described; null over the root or a popup. */
  async windowAt(point: Point, progress: Progress): Promise<WindowInfo | null> {
    throwIfAborted(progress);
    const client = await this.clientAt(point);
    if (client === null) return null;
    const [pid, title, bounds] = await Promise.all([this.windowPid(client), this.windowTitle(client), this.clientBounds(client)]);
    return { windowId: client, pid: pid ?? 0, title, bounds, ...(pid ? { app: await processName(pid) } : {}) };
  }

  async windows(pid: number | undefined, progress: Progress): Promise<WindowInfo[]> {
    throwIfAborted(progress);
    const [list, stacking, currentDesktop, hidden] = await Promise.all([
      this.clientList(),
      // Bottom to top (EWMH); a window manager without it leaves the order unknown.
      this.connection.cardinals(this.connection.root, '_NET_CLIENT_LIST_STACKING').catch(() => [] as number[]),
      this.connection.cardinals(this.connection.root, '_NET_CURRENT_DESKTOP').catch(() => [] as number[]),
      this.connection.atom('_NET_WM_STATE_HIDDEN'),
    ]);
    const described = await Promise.all(
      list.map(async (windowId) => {
        const windowPid = await this.windowPid(windowId);
        if (pid !== undefined && windowPid !== pid) return null;
        const [title, bounds, states, desktop, app] = await Promise.all([
          this.windowTitle(windowId),
          this.clientBounds(windowId),
          this.connection.cardinals(windowId, '_NET_WM_STATE').catch(() => [] as number[]),
          this.connection.cardinals(windowId, '_NET_WM_DESKTOP').catch(() => [] as number[]),
          windowPid ? processName(windowPid) : Promise.resolve(''),
        ]);
        const stacked = stacking.indexOf(windowId);
        // 0xFFFFFFFF: on every desktop (sticky).
        const onThisDesktop = desktop[0] === undefined || currentDesktop[0] === undefined || desktop[0] === currentDesktop[0] || desktop[0] === 0xffffffff;
        const info: WindowInfo = { windowId, pid: windowPid ?? 0, title, bounds, app, onScreen: bounds !== null && !states.includes(hidden) && onThisDesktop };
        if (stacked >= 0) info.zOrder = stacking.length - 1 - stacked;
        if (windowPid) {
          const verified = await this.pidVerified(windowId, windowPid);
          if (verified !== undefined) info.pidVerified = verified;
        }
        return info;
      }),
    );
    return described.filter((info): info is WindowInfo => info !== null);
  }

  async frontmost(progress: Progress): Promise<Frontmost | null> {
    throwIfAborted(progress);
    const window = await this.activeWindow();
    if (!window) return null;
    const pid = await this.windowPid(window);
    if (!pid) return null;
    return { pid, app: await processName(pid), windowId: window };
  }

  /** Asks the window manager to activate the window, then checks that it did. */
  async activate(pid: number, windowId: number | undefined, progress: Progress): Promise<boolean> {
    throwIfAborted(progress);
    const target = windowId ?? (await this.topWindowOf(pid));
    if (!target) return false;
    const current = (await this.activeWindow()) ?? 0;
    const messageType = await this.connection.atom('_NET_ACTIVE_WINDOW');
    this.connection.client.SendClientMessage(this.connection.root, target, messageType, 32, [SOURCE_PAGER, 0, current, 0, 0]);
    await this.connection.sync();
    const deadline = Math.min(progress.deadline, Date.now() + ACTIVATE_CHECK_MS);
    for (;;) {
      const active = await this.activeWindow();
      if (active && (await this.tookFocus(active, target, windowId === undefined ? pid : undefined))) return true;
      if (Date.now() >= deadline) return false;
      await sleep(ACTIVATE_POLL_MS, progress);
    }
  }

  /**
   * Whether activating `target` took: it is the active window, or a dialog it owns (the window
   * manager focuses a modal dialog instead of its parent), or — when any window of `pid` will
   * do — a window of that process.
   */
  private async tookFocus(active: number, target: number, pid: number | undefined): Promise<boolean> {
    if (active === target) return true;
    const [transientFor] = await this.connection.cardinals(active, 'WM_TRANSIENT_FOR').catch(() => [] as number[]);
    if (transientFor === target) return true;
    return pid !== undefined && (await this.windowPid(active)) === pid;
  }

  /**
   * ICCCM's polite close: WM_DELETE_WINDOW to each of pid's top-level windows that lists it in
   * WM_PROTOCOLS — what the window manager sends when the person clicks the close button, so the
   * app asks about unsaved work as it would then. Sent to the client itself (event mask 0), not
   * as EWMH _NET_CLOSE_WINDOW through the window manager: openbox answers that, for a window
   * without WM_DELETE_WINDOW, by killing the client's connection. Transient windows (an open
   * dialog) are left alone: closing one is its "Cancel", an answer the model did not give.
   */
  async askToQuit(pid: number, progress: Progress): Promise<QuitRequest> {
    throwIfAborted(progress);
    const [protocols, deleteWindow] = await Promise.all([this.connection.atom('WM_PROTOCOLS'), this.connection.atom('WM_DELETE_WINDOW')]);
    const owned = await this.ownedClients(pid);
    let asked = 0;
    let refused = 0;
    for (const window of owned) {
      // Only the app's word that the window is pid's, proven wrong: it is another app's window.
      if ((await this.pidVerified(window, pid)) === false) continue;
      const [transientFor] = await this.connection.cardinals(window, 'WM_TRANSIENT_FOR').catch(() => [] as number[]);
      if (transientFor) continue;
      const supported = await this.connection.cardinals(window, 'WM_PROTOCOLS').catch(() => [] as number[]);
      if (!supported.includes(deleteWindow)) {
        refused++;
        continue;
      }
      // data: the protocol, then a timestamp (CurrentTime).
      this.connection.client.SendClientMessage(window, window, protocols, 32, [deleteWindow, 0, 0, 0, 0], 0);
      asked++;
    }
    await this.connection.sync();
    return { asked, refused };
  }

  private async ownedClients(pid: number): Promise<number[]> {
    const list = await this.clientList();
    const pids = await Promise.all(list.map((window) => this.windowPid(window)));
    return list.filter((_, index) => pids[index] === pid);
  }

  /** The pid's window highest in the stacking order (else the newest it mapped). */
  async topWindowOf(pid: number, title?: string): Promise<number | null> {
    const stacking = await this.connection.cardinals(this.connection.root, '_NET_CLIENT_LIST_STACKING');
    const candidates = (stacking.length ? stacking : await this.clientList()).reverse();
    const pids = await Promise.all(candidates.map((window) => this.windowPid(window)));
    const owned = candidates.filter((_, index) => pids[index] === pid);
    if (title !== undefined) {
      const titles = await Promise.all(owned.map((window) => this.windowTitle(window)));
      const exact = owned.find((_, index) => titles[index] === title);
      if (exact) return exact;
      const partial = owned.find((_, index) => titles[index].includes(title));
      if (partial) return partial;
    }
    return owned[0] ?? null;
  }

  async cursorPosition(): Promise<Point> {
    const reply = await this.connection.request<{ rootX: number; rootY: number }>((callback) => this.connection.client.QueryPointer(this.connection.root, callback));
    return { x: reply.rootX, y: reply.rootY };
  }

  async warpCursor(point: Point): Promise<void> {
    this.connection.client.WarpPointer(0, this.connection.root, 0, 0, 0, 0, Math.round(point.x), Math.round(point.y));
    await this.connection.sync();
  }
}

/** The executable name the kernel keeps for pid (what `ps -o comm` shows). */
export async function processName(pid: number): Promise<string> {
  try {
    return (await readFile(`/proc/${pid}/comm`, 'utf8')).trim();
  } catch {
    return `pid ${pid}`;
  }
}
