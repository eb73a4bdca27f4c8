// A paint watch a unit test paints on: stands in for the backend's (X DAMAGE) in settle tests.
import type { PaintWatch } from '../../src/core/desktop.js';

export class ScriptedPaints implements PaintWatch {
  readonly since = Date.now();
  closed = false;
  private last: number | undefined;
  private readonly waiting = new Set<() => void>();

  lastPaintAt(): number | undefined {
    return this.last;
  }

  nextPaint(): Promise<void> {
    return this.closed ? Promise.resolve() : new Promise((resolve) => this.waiting.add(resolve));
  }

  paint(): void {
    this.last = Date.now();
    for (const wake of this.waiting) wake();
    this.waiting.clear();
  }

  close(): void {
    this.closed = true;
    for (const wake of this.waiting) wake();
    this.waiting.clear();
  }
}
