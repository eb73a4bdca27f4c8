// "Window painted since": X DAMAGE on each top-level window of an app. The server reports the
// drawing into a window since its damage was last repaired, with its bounding box (level
// BoundingBox: NonEmpty reports the whole window every time, so a spinner could not be told from
// a change); repairing it at once re-arms the report, so one event per burst of drawing reaches
// us, never one per rectangle. Whether painting has stopped is core's decision (call/settle.ts).

import type { DamageExtension, XEvent } from 'x11';
import type { PaintWatch } from '../../core/desktop.js';
import type { Point, Rect } from '../../core/model.js';
import { insideOneOf } from '../../core/call/busyIndicators.js';
import type { X11Connection } from '../../../native/linux/x11Connection.js';
import type { X11Windows } from './x11Windows.js';

export class X11PaintWatcher {
  /** Damage ids of open watches, to the watch that owns them and their window's origin on screen. */
  private readonly owners = new Map<number, { paints: WindowPaints; origin: Point }>();
  private unsubscribe: (() => void) | null = null;

  private constructor(
    private readonly connection: X11Connection,
    private readonly damage: DamageExtension,
    private readonly windows: X11Windows,
  ) {}

  /** null when the server has no DAMAGE extension: paints cannot be seen then. */
  static async open(connection: X11Connection, windows: X11Windows): Promise<X11PaintWatcher | null> {
    const damage = await connection.request<DamageExtension>((callback) => connection.client.require('damage', callback)).catch(() => null);
    return damage ? new X11PaintWatcher(connection, damage, windows) : null;
  }

  /**
   * Watches every top-level window pid has now; a watch over no window sees no paint. A paint
   * wholly inside one of `ignoring` (screen areas) is not counted.
   */
  async watch(pid: number, ignoring: readonly Rect[] = []): Promise<PaintWatch> {
    const list = await this.windows.clientList();
    const pids = await Promise.all(list.map((window) => this.windows.windowPid(window).catch(() => null)));
    const owned = list.filter((_, index) => pids[index] === pid);
    // Damage areas are relative to their window; without its origin nothing is ignored there.
    const origins = ignoring.length > 0 ? await Promise.all(owned.map((window) => this.windows.rootPosition(window).catch(() => null))) : [];
    this.unsubscribe ??= this.connection.onEvent((event) => this.onEvent(event));
    const paints = new WindowPaints(Date.now(), () => this.release(paints), ignoring);
    owned.forEach((window, index) => {
      const id = this.connection.client.AllocID();
      this.damage.Create(id, window, this.damage.ReportLevel.BoundingBox);
      paints.damages.push(id);
      this.owners.set(id, { paints, origin: origins[index] ?? { x: Number.NaN, y: Number.NaN } });
    });
    // The server reports a new damage object's window as damaged whole at once (DamageCreate
    // seeds it with the visible area): that is no paint. Its events arrive before the reply to
    // a round trip sent after the create, so paints count only from that reply on.
    if (owned.length > 0) await this.connection.sync().catch(() => {});
    paints.arm(Date.now());
    return paints;
  }

  private onEvent(event: XEvent): void {
    if (event.name !== 'DamageNotify') return;
    const id = (event as XEvent & { damage?: number }).damage;
    const owner = id === undefined ? undefined : this.owners.get(id);
    if (!owner || id === undefined) return;
    this.damage.Subtract(id, 0, 0);
    if (!owner.paints.armed) return;
    const area = (event as XEvent & { area?: { x: number; y: number; w: number; h: number } }).area;
    const onScreen = area && { x: owner.origin.x + area.x, y: owner.origin.y + area.y, width: area.w, height: area.h };
    if (onScreen && insideOneOf(onScreen, owner.paints.ignoring)) return;
    owner.paints.painted(Date.now());
  }

  private release(paints: WindowPaints): void {
    for (const id of paints.damages) {
      this.owners.delete(id);
      if (this.connection.closed) continue;
      try {
        // A window destroyed meanwhile took its damage with it: the error is logged, harmless.
        this.damage.Destroy(id);
      } catch {
        // the connection went away: nothing to free
      }
    }
    paints.damages.length = 0;
  }
}

class WindowPaints implements PaintWatch {
  readonly damages: number[] = [];
  private last: number | undefined;
  private readonly waiting = new Set<() => void>();
  private closed = false;
  /** false until the damage the server seeds a new damage object with has been consumed. */
  armed = false;

  constructor(
    public since: number,
    private readonly onClose: () => void,
    readonly ignoring: readonly Rect[],
  ) {}

  /** Paints count from `at` on. */
  arm(at: number): void {
    this.armed = true;
    this.since = at;
  }

  lastPaintAt(): number | undefined {
    return this.last;
  }

  painted(at: number): void {
    this.last = at;
    this.wakeAll();
  }

  nextPaint(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiting.add(resolve));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
    this.wakeAll();
  }

  private wakeAll(): void {
    for (const wake of this.waiting) wake();
    this.waiting.clear();
  }
}
