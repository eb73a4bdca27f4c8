// Zoom: a crop of an app's window at full resolution, for a model that reads pixels (a small
// control, dense text). The region is padded (20 % each side) so what surrounds it gives it
// context, clipped to the window, and made at most ZOOM_MAX_WIDTH pixels wide. The last zoom of
// each app is remembered so a click can be given in that image's pixels (`from_zoom`): the view
// maps them back to the screen.

import type { Point, Rect, Screenshot } from '../model.js';
import { TandemError } from '../errors.js';
import { pngWithCrosshair } from './crosshair.js';

export const ZOOM_PADDING = 0.2;
export const ZOOM_MAX_WIDTH = 1_000;

/** How the pixels of one zoom image map to the screen. */
export interface ZoomView {
  pid: number;
  windowId: number;
  /** Screen point of the image's top-left pixel. */
  origin: Point;
  /** Screen points per image pixel. */
  pointsPerPixel: number;
  width: number;
  height: number;
}

export interface ZoomImage {
  png: Buffer;
  view: ZoomView;
  /** The window-local region shown (after padding and clipping), in points. */
  shown: Rect;
}

/** `region` (window-local points) padded by ZOOM_PADDING of its size on each side, clipped to a window of `size`. */
export function paddedRegion(region: Rect, size: { width: number; height: number }): Rect {
  const padX = region.width * ZOOM_PADDING;
  const padY = region.height * ZOOM_PADDING;
  const left = Math.max(0, region.x - padX);
  const top = Math.max(0, region.y - padY);
  const right = Math.min(size.width, region.x + region.width + padX);
  const bottom = Math.min(size.height, region.y + region.height + padY);
  if (right <= left || bottom <= top) {
    throw new TandemError('bad-input', `The region ${region.x},${region.y} ${region.width}×${region.height} is outside the window (${size.width}×${size.height} points).`, { reason: 'zoom-region', region, window: size });
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * Crops `screenshot` (of a window at `windowBounds`, screen points) to `region` (window-local),
 * padded and clipped, password fields (`covered`, screen rects) painted over first.
 */
export async function zoomInto(screenshot: Screenshot, windowBounds: Rect, region: Rect, covered: readonly Rect[], ids: { pid: number; windowId: number }): Promise<ZoomImage> {
  const shown = paddedRegion(region, windowBounds);
  const full = await pngWithCrosshair(screenshot, undefined, covered);
  const { default: sharp } = await import('sharp');
  const meta = await sharp(full).metadata();
  const scale = screenshot.scale;
  // Screen points → pixels of the capture, clipped to what was captured.
  const left = Math.max(0, Math.floor((windowBounds.x + shown.x - screenshot.bounds.x) * scale));
  const top = Math.max(0, Math.floor((windowBounds.y + shown.y - screenshot.bounds.y) * scale));
  const width = Math.min((meta.width ?? 0) - left, Math.ceil(shown.width * scale));
  const height = Math.min((meta.height ?? 0) - top, Math.ceil(shown.height * scale));
  if (width <= 0 || height <= 0) throw new TandemError('unsupported', 'The capture of the window does not cover that region (the window moved or is off screen).');
  let image = sharp(full).extract({ left, top, width, height });
  let outWidth = width;
  let outHeight = height;
  if (width > ZOOM_MAX_WIDTH) {
    outWidth = ZOOM_MAX_WIDTH;
    outHeight = Math.max(1, Math.round((height * ZOOM_MAX_WIDTH) / width));
    image = image.resize({ width: outWidth, height: outHeight });
  }
  const png = await image.png().toBuffer();
  const view: ZoomView = {
    ...ids,
    origin: { x: screenshot.bounds.x + left / scale, y: screenshot.bounds.y + top / scale },
    pointsPerPixel: width / scale / outWidth,
    width: outWidth,
    height: outHeight,
  };
  return { png, view, shown };
}

/** A pixel of a zoom image → the screen point it shows. */
export function screenPointOf(view: ZoomView, pixel: Point): Point {
  if (pixel.x < 0 || pixel.y < 0 || pixel.x > view.width || pixel.y > view.height) {
    throw new TandemError('bad-input', `${pixel.x},${pixel.y} is outside the last zoom image of pid ${view.pid} (${view.width}×${view.height} pixels).`, { reason: 'zoom-pixel', width: view.width, height: view.height });
  }
  return { x: Math.round(view.origin.x + pixel.x * view.pointsPerPixel), y: Math.round(view.origin.y + pixel.y * view.pointsPerPixel) };
}
