// The path a drag follows, written once for every backend: the points the pointer passes with
// the button held, and the pause between them. Apps follow a drag from its motion events —
// GTK starts a drag-and-drop only after the pointer moved past a threshold with the button
// down, a slider's knob follows each motion — so a press and a release alone (or one jump)
// drag nothing.

import type { Point } from '../model.js';

/** About one motion event per display frame, as a hand on a mouse produces them. */
export const DRAG_MOTION_INTERVAL_MS = 16;
/** Even a drag of 0 ms moves in steps, so apps see the pointer travel and cross their thresholds. */
export const DRAG_MIN_MOTIONS = 8;

export interface DragPath {
  /** Where the pointer goes after the press, in order; the last one is `to`. */
  points: Point[];
  /** The pause before each of them (0 for a drag of 0 ms). */
  intervalMs: number;
}

/**
 * Evenly spaced points from `from` to `to` (whole points, `to` last), one every
 * DRAG_MOTION_INTERVAL_MS of `durationMs`, at least DRAG_MIN_MOTIONS. Bounded by the duration
 * (core caps it at LIMITS.dragMs), never by the distance.
 */
export function dragPath(from: Point, to: Point, durationMs: number): DragPath {
  const duration = Number.isFinite(durationMs) ? Math.max(0, durationMs) : 0;
  const count = Math.max(DRAG_MIN_MOTIONS, Math.round(duration / DRAG_MOTION_INTERVAL_MS));
  const points: Point[] = [];
  for (let i = 1; i <= count; i++) {
    points.push({ x: Math.round(from.x + ((to.x - from.x) * i) / count), y: Math.round(from.y + ((to.y - from.y) * i) / count) });
  }
  return { points, intervalMs: duration / count };
}
