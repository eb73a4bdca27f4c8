// The crosshair on a call's screenshot: where the click landed, drawn with sharp (an SVG
// composited over the PNG) so a person reading the artifacts sees it at a glance. Password
// fields are painted over before anything is encoded: their dots would tell a secret's length.

import type { Sharp } from 'sharp';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Point, RawImage, Rect, Screenshot } from '../model.js';
import { bgrxToRgb } from './pixels.js';

/** Where screen point `point` falls in the screenshot's pixels, or null when outside the image. */
export function crosshairPixel(screenshot: Screenshot, point: Point, width: number, height: number): Point | null {
  const x = (point.x - screenshot.bounds.x) * screenshot.scale;
  const y = (point.y - screenshot.bounds.y) * screenshot.scale;
  if (!Number.isFinite(x) || !Number.isFinite(y) || x < 0 || y < 0 || x >= width || y >= height) return null;
  return { x: Math.floor(x), y: Math.floor(y) };
}

/** Crosshair colour (an orange red that stands out on light and dark UIs), outlined in white. */
export const CROSSHAIR_RGB = { r: 255, g: 69, b: 0 };

/** The crosshair drawn into a tile covering image pixels [left, left+width) × [top, top+height). */
function crosshairSvg(tile: { left: number; top: number; width: number; height: number }, at: Point, unit: number): string {
  const arm = 18 * unit;
  const radius = 7 * unit;
  const stroke = 2 * unit;
  const outline = stroke + 2 * unit;
  // Tile coordinates of the centre of pixel `at`, so that pixel is the cross's centre.
  const cx = at.x - tile.left + 0.5;
  const cy = at.y - tile.top + 0.5;
  const colour = `rgb(${CROSSHAIR_RGB.r},${CROSSHAIR_RGB.g},${CROSSHAIR_RGB.b})`;
  const cross = (strokeColour: string, strokeWidth: number): string =>
    `<g fill="none" stroke="${strokeColour}" stroke-width="${strokeWidth}" stroke-linecap="square">` +
    `<line x1="${cx - arm}" y1="${cy}" x2="${cx + arm}" y2="${cy}"/>` +
    `<line x1="${cx}" y1="${cy - arm}" x2="${cx}" y2="${cy + arm}"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${radius}"/></g>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${tile.width}" height="${tile.height}" viewBox="0 0 ${tile.width} ${tile.height}">` +
    cross('white', outline) +
    cross(colour, stroke) +
    '</svg>'
  );
}

/** What covers a password field in a screenshot: a flat mid grey (the same bytes in RGBA and BGRX). */
export const SECURE_FILL = 0x80;

/** Screen rectangle → whole image pixels [left, right) × [top, bottom), clipped; null when off the image. */
function pixelBox(screenshot: Screenshot, rect: Rect, width: number, height: number): { left: number; top: number; right: number; bottom: number } | null {
  const left = Math.max(0, Math.floor((rect.x - screenshot.bounds.x) * screenshot.scale));
  const top = Math.max(0, Math.floor((rect.y - screenshot.bounds.y) * screenshot.scale));
  const right = Math.min(width, Math.ceil((rect.x + rect.width - screenshot.bounds.x) * screenshot.scale));
  const bottom = Math.min(height, Math.ceil((rect.y + rect.height - screenshot.bounds.y) * screenshot.scale));
  if (![left, top, right, bottom].every(Number.isFinite) || right <= left || bottom <= top) return null;
  return { left, top, right, bottom };
}

/** Whether any of `covered` (screen rectangles) falls inside the screenshot's pixels. */
export function coversImage(screenshot: Screenshot, covered: readonly Rect[], width: number, height: number): boolean {
  return covered.some((rect) => pixelBox(screenshot, rect, width, height) !== null);
}

/** Fills `covered` (screen rectangles) with SECURE_FILL in rows of `channels` bytes per pixel; returns whether any pixel was inside. */
function paintOver(pixels: Buffer, screenshot: Screenshot, width: number, height: number, covered: readonly Rect[], channels = 4): boolean {
  let painted = false;
  for (const rect of covered) {
    const box = pixelBox(screenshot, rect, width, height);
    if (!box) continue;
    for (let y = box.top; y < box.bottom; y++) pixels.fill(SECURE_FILL, (y * width + box.left) * channels, (y * width + box.right) * channels);
    painted = true;
  }
  return painted;
}

/**
 * The screenshot as a PNG with a crosshair at `point` (none when there is no point or it is off
 * the image), and `covered` (screen rectangles: password fields) painted over. Only a small tile
 * around the point is rasterised (a full-size SVG overlay costs hundreds of milliseconds on a 4K
 * screenshot); the tile is clipped to the image edges. A PNG with nothing to draw is returned as
 * it is; raw pixels are encoded once.
 */
export async function pngWithCrosshair(screenshot: Screenshot, point: Point | undefined, covered: readonly Rect[] = []): Promise<Buffer> {
  // Loaded on first use: a sharp that cannot load costs screenshots (logged), not the start.
  const { default: sharp } = await import('sharp');
  let image: Sharp;
  let painted = false;
  if (screenshot.raw) {
    const { width, height } = screenshot.raw;
    const channels = screenshot.raw.order === 'rgba' ? 4 : 3;
    let pixels = await pixelsOf(screenshot.raw);
    // Never paint into the capture itself when it is the caller's buffer.
    if (covered.length && pixels === screenshot.raw.data) pixels = Buffer.from(pixels);
    painted = paintOver(pixels, screenshot, width, height, covered, channels);
    image = sharp(pixels, { raw: { width, height, channels } });
  } else {
    image = sharp(screenshot.png);
    if (covered.length) {
      // A PNG from the platform: decode, paint, encode (the rare path: macOS gives PNGs).
      const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      painted = paintOver(data, screenshot, info.width, info.height, covered);
      image = sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } });
    }
  }
  const size = screenshot.raw ?? (await image.metadata());
  const at = point && size.width && size.height ? crosshairPixel(screenshot, point, size.width, size.height) : null;
  if (!at || !size.width || !size.height) return screenshot.png && !painted ? screenshot.png : encode(image);
  const unit = Math.max(1, screenshot.scale);
  const reach = Math.ceil(22 * unit); // arm + outline, with a margin
  const left = Math.max(0, at.x - reach);
  const top = Math.max(0, at.y - reach);
  const tile = { left, top, width: Math.min(size.width, at.x + reach + 1) - left, height: Math.min(size.height, at.y + reach + 1) - top };
  const overlay = Buffer.from(crosshairSvg(tile, at, unit));
  return encode(image.composite([{ input: overlay, top, left }]));
}

/**
 * The pixels as sharp takes them: RGBA as given, BGRX reordered to RGB. Reordering a screen's
 * worth of pixels takes a millisecond or two of this thread: yield first, so that work already
 * under way (the tree read after an action) sends its requests before.
 */
async function pixelsOf(raw: RawImage): Promise<Buffer> {
  if (raw.order === 'rgba') return raw.data;
  await yieldToEventLoop();
  return bgrxToRgb(raw.data, raw.width, raw.height);
}

/**
 * zlib level 3: measured on a 1280×800 desktop, level 6 (the default) took 9.4 ms to re-encode
 * what level 3 did in 6.2 ms, for a file 5 % smaller; level 1 saves another millisecond on a
 * 1,381 × 741 window for a file 20 % larger. Adaptive filtering would cost 4× the time. Any
 * alpha channel (opaque: a capture has none) is dropped; it is a no-op on RGB.
 */
function encode(image: Sharp): Promise<Buffer> {
  return image.removeAlpha().png({ compressionLevel: 3 }).toBuffer();
}
