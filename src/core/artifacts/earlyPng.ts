// A read call's screenshot is encoded the moment it is captured, while the app's tree is still
// being read: the encode (milliseconds on a big window) then hides behind the tree read instead
// of following it. The tree decides what is painted over (password fields); when one falls in
// the image, that first PNG is dropped unwritten (it never leaves memory) and the capture is
// encoded again with the fields painted over, as before.

import type { Rect, Screenshot } from '../model.js';
import { coversImage, pngWithCrosshair } from './crosshair.js';

export interface EarlyPng {
  screenshot: Screenshot;
  /** The capture encoded as it is: nothing painted over, no crosshair. */
  plain: Promise<Buffer>;
}

/** Starts encoding `screenshot` now. A failure is the caller's when it asks for the PNG, never unhandled. */
export function encodeEarly(screenshot: Screenshot): EarlyPng {
  const plain = pngWithCrosshair(screenshot, undefined, []);
  plain.catch(() => {});
  return { screenshot, plain };
}

/** The PNG to write: the early one unless `covered` (screen rectangles) must be painted over in it. */
export function pngToWrite(early: EarlyPng, covered: readonly Rect[]): Promise<Buffer> {
  const { screenshot } = early;
  if (covered.length === 0) return early.plain;
  // A platform PNG's size is only known by decoding it: paint (which decodes) whenever there is anything to cover.
  if (screenshot.raw && !coversImage(screenshot, covered, screenshot.raw.width, screenshot.raw.height)) return early.plain;
  return pngWithCrosshair(screenshot, undefined, covered);
}
