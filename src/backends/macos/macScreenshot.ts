// Screenshots through /usr/sbin/screencapture: a child of this process, so it runs under the
// app's Screen Recording grant, and it works on every macOS version (CGWindowListCreateImage is
// obsoleted in the macOS 15 SDK and ScreenCaptureKit needs Objective-C blocks). The PNG is in
// backing pixels: scale = image width / covered width in points.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TandemError } from '../../core/errors.js';
import type { Rect, Screenshot } from '../../core/model.js';
import { type Progress, remainingMs } from '../../core/progress.js';
import { pixelScale } from './macDisplays.js';
import { runTool } from './macExec.js';

export const SCREENCAPTURE = '/usr/sbin/screencapture';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk; null when the bytes are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export type CaptureTarget = { kind: 'window'; windowId: number } | { kind: 'rect'; rect: Rect } | { kind: 'main-display' };

/** screencapture arguments: -x no sound, -o no window shadow, -t png; -l window / -R rect / -m main display. */
export function screencaptureArguments(target: CaptureTarget, file: string): string[] {
  switch (target.kind) {
    case 'window':
      return ['-x', '-o', `-l${target.windowId}`, '-t', 'png', file];
    case 'rect': {
      const r = target.rect;
      return ['-x', `-R${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)},${Math.round(r.height)}`, '-t', 'png', file];
    }
    case 'main-display':
      return ['-x', '-m', '-t', 'png', file];
  }
}

/** Runs screencapture with these arguments (the seam unit tests replace). */
export type ScreencaptureRunner = (args: readonly string[], timeoutMs: number) => Promise<void>;

export const runScreencapture: ScreencaptureRunner = (args, timeoutMs) => runTool(SCREENCAPTURE, args, timeoutMs);

/**
 * Captures `target` covering `bounds` (points). Without Screen Recording, screencapture still
 * exits 0 with an image of the wallpaper alone, which nothing in the PNG tells apart from a real
 * capture: so the grant is checked first (CGPreflightScreenCaptureAccess, passed in) and nothing
 * is captured without it. A window that `-l` cannot capture ("could not create image from
 * window") is captured by its bounds instead, overlapping windows included.
 */
export async function captureScreenshot(
  target: CaptureTarget,
  bounds: Rect,
  progress: Progress,
  screenRecordingGranted: boolean,
  run: ScreencaptureRunner = runScreencapture,
): Promise<Screenshot> {
  if (!screenRecordingGranted) {
    throw new TandemError('permission', 'Screen Recording is not granted to Tandem (CGPreflightScreenCaptureAccess), or it was granted after Tandem started: no screenshot was taken, since macOS would show only the wallpaper.', {
      reason: 'screen-recording-off',
    });
  }
  const dir = await mkdtemp(join(tmpdir(), 'tandem-shot-'));
  try {
    let image: CapturedPng;
    try {
      image = await captureOnce(target, join(dir, 'capture.png'), progress, run);
    } catch (error) {
      if (target.kind !== 'window') throw error;
      progress.log(`window ${target.windowId} could not be captured alone (${(error as Error).message}): capturing its bounds instead, with whatever covers them`);
      image = await captureOnce({ kind: 'rect', rect: bounds }, join(dir, 'bounds.png'), progress, run);
    }
    return { png: image.png, bounds, scale: pixelScale(image.width, bounds.width) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface CapturedPng {
  png: Buffer;
  width: number;
}

/** One screencapture run; its PNG, or an internal error saying what screencapture said. */
async function captureOnce(target: CaptureTarget, file: string, progress: Progress, run: ScreencaptureRunner): Promise<CapturedPng> {
  try {
    await run(screencaptureArguments(target, file), Math.max(1000, Math.min(10_000, remainingMs(progress))));
  } catch (error) {
    throw new TandemError('internal', `screencapture failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const png = await readFile(file).catch(() => null);
  const size = png && pngSize(png);
  if (!png || !size) throw new TandemError('internal', 'screencapture did not write a PNG image.');
  return { png, width: size.width };
}
