// Displays and coordinate spaces. AX, CGEvent and CGWindow use global points with the origin at
// the primary display's top-left, y down; AppKit (NSScreen, NSEvent.mouseLocation) uses the
// primary's bottom-left, y up. Screenshots are backing pixels (2× on Retina). The conversions
// are pure and unit-tested; `readDisplays` is the only native call here.

import type { Point, Rect } from '../../core/model.js';
import type { MacNative } from '../../../native/macos/macNative.js';

export interface DisplayInfo {
  id: number;
  /** Global top-left points. */
  bounds: Rect;
  /** Backing pixels per point. */
  scale: number;
  primary: boolean;
}

/** AppKit point (bottom-left origin) → CoreGraphics point (top-left origin). */
export function nsToCgPoint(point: Point, primaryHeight: number): Point {
  return { x: point.x, y: primaryHeight - point.y };
}

export function cgToNsPoint(point: Point, primaryHeight: number): Point {
  return { x: point.x, y: primaryHeight - point.y };
}

/** AppKit rect → CG rect: the top edge in CG is primaryHeight − (y + height). */
export function nsToCgRect(rect: Rect, primaryHeight: number): Rect {
  return { x: rect.x, y: primaryHeight - rect.y - rect.height, width: rect.width, height: rect.height };
}

export function cgToNsRect(rect: Rect, primaryHeight: number): Rect {
  return { x: rect.x, y: primaryHeight - rect.y - rect.height, width: rect.width, height: rect.height };
}

export function rectContains(rect: Rect, point: Point): boolean {
  return point.x >= rect.x && point.y >= rect.y && point.x < rect.x + rect.width && point.y < rect.y + rect.height;
}

export function rectsIntersect(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The display showing `point`, else the primary. */
export function displayForPoint(displays: readonly DisplayInfo[], point: Point): DisplayInfo | undefined {
  return displays.find((d) => rectContains(d.bounds, point)) ?? displays.find((d) => d.primary) ?? displays[0];
}

/** The display holding most of `rect` (ties: the first). */
export function displayForRect(displays: readonly DisplayInfo[], rect: Rect): DisplayInfo | undefined {
  let best: DisplayInfo | undefined;
  let bestArea = 0;
  for (const display of displays) {
    const w = Math.min(rect.x + rect.width, display.bounds.x + display.bounds.width) - Math.max(rect.x, display.bounds.x);
    const h = Math.min(rect.y + rect.height, display.bounds.y + display.bounds.height) - Math.max(rect.y, display.bounds.y);
    const area = w > 0 && h > 0 ? w * h : 0;
    if (area > bestArea) {
      best = display;
      bestArea = area;
    }
  }
  return best ?? displays.find((d) => d.primary) ?? displays[0];
}

/** Pixels per point of an image that shows `pointsWidth` points in `pixelWidth` pixels. */
export function pixelScale(pixelWidth: number, pointsWidth: number, fallback = 1): number {
  if (!(pixelWidth > 0) || !(pointsWidth > 0)) return fallback;
  const scale = pixelWidth / pointsWidth;
  // Window shadows and rounding make the ratio inexact: snap near-integers (1×, 2×, 3×).
  const rounded = Math.round(scale);
  return Math.abs(scale - rounded) < 0.05 ? rounded : scale;
}

/** A screen point → pixel position in an image covering `bounds` at `scale`. */
export function pointToImagePixel(point: Point, bounds: Rect, scale: number): Point {
  return { x: Math.round((point.x - bounds.x) * scale), y: Math.round((point.y - bounds.y) * scale) };
}

export function readDisplays(native: Pick<MacNative, 'cg'>): DisplayInfo[] {
  const { cg } = native;
  const main = cg.CGMainDisplayID();
  return cg.CGGetActiveDisplayList(16).map((id) => {
    const r = cg.CGDisplayBounds(id);
    return {
      id,
      bounds: { x: r.origin.x, y: r.origin.y, width: r.size.width, height: r.size.height },
      scale: cg.CGDisplayScale(id),
      primary: id === main,
    };
  });
}
