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

/**
 * Captures `target` covering `bounds` (points). `screenRecordingGranted` only shapes the error:
 * without the grant macOS may hand back the wallpaper alone, which cannot be detected here.
 */
export async function captureScreenshot(target: CaptureTarget, bounds: Rect, progress: Progress, screenRecordingGranted: boolean): Promise<Screenshot> {
  const dir = await mkdtemp(join(tmpdir(), 'tandem-shot-'));
  const file = join(dir, 'capture.png');
  try {
    try {
      await runTool(SCREENCAPTURE, screencaptureArguments(target, file), Math.max(1000, Math.min(10_000, remainingMs(progress))));
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      if (!screenRecordingGranted) {
        throw new TandemError('permission', `The screenshot failed (${cause}): Screen Recording is not granted to Tandem.`, { reason: 'screen-recording-off' });
      }
      throw new TandemError('internal', `screencapture failed: ${cause}`);
    }
    const png = await readFile(file);
    const size = pngSize(png);
    if (!size) throw new TandemError('internal', 'screencapture did not write a PNG image.');
    if (!screenRecordingGranted) progress.log('Screen Recording is not granted: the screenshot may show only the wallpaper');
    return { png, bounds, scale: pixelScale(size.width, bounds.width) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
