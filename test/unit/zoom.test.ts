// Zoom geometry: the region padded and clipped to the window, the crop taken from the right
// pixels of a capture that is larger than the window and at 2× scale, password fields painted
// over, wide crops scaled down to 1,000 px, and a pixel of the image mapped back to the screen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { isTandemError } from '../../src/core/errors.js';
import type { Screenshot } from '../../src/core/model.js';
import { paddedRegion, screenPointOf, zoomInto } from '../../src/core/artifacts/zoom.js';

/** A 2× capture of the screen area 0,0–(w×h) points: grey, with a red 10×10-point square at screen 150,100. */
function capture(widthPoints = 300, heightPoints = 200): Screenshot {
  const width = widthPoints * 2;
  const height = heightPoints * 2;
  const data = Buffer.alloc(width * height * 4, 0x80);
  for (let y = 200; y < 220; y++) {
    for (let x = 300; x < 320; x++) {
      const at = (y * width + x) * 4;
      data[at] = 255;
      data[at + 1] = 0;
      data[at + 2] = 0;
      data[at + 3] = 255;
    }
  }
  return { raw: { data, width, height, order: 'rgba' }, bounds: { x: 0, y: 0, width: widthPoints, height: heightPoints }, scale: 2 };
}

async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(y) * info.width + Math.floor(x)) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}

describe('zoom', () => {
  it('should pad the region by a fifth on each side and clip it to the window', () => {
    assert.deepEqual(paddedRegion({ x: 50, y: 50, width: 100, height: 50 }, { width: 400, height: 300 }), { x: 30, y: 40, width: 140, height: 70 });
    assert.deepEqual(paddedRegion({ x: 0, y: 290, width: 100, height: 50 }, { width: 400, height: 300 }), { x: 0, y: 280, width: 120, height: 20 });
    assert.throws(() => paddedRegion({ x: 500, y: 10, width: 10, height: 10 }, { width: 400, height: 300 }), (error) => isTandemError(error, 'bad-input') && /outside the window/.test(error.message));
  });

  it('should crop the window region at full resolution and map its pixels back to the screen', async () => {
    // The window sits at screen 100,50 (200×150 points); the square is at window-local 50,50.
    const image = await zoomInto(capture(), { x: 100, y: 50, width: 200, height: 150 }, { x: 40, y: 40, width: 30, height: 30 }, [], { pid: 7, windowId: 3 });
    assert.deepEqual(image.shown, { x: 34, y: 34, width: 42, height: 42 });
    assert.deepEqual([image.view.width, image.view.height, image.view.pointsPerPixel], [84, 84, 0.5], 'two pixels per point, as captured');
    // The square's first pixel: screen 150,100 → in the crop at ((150 − 134) × 2, (100 − 84) × 2).
    assert.deepEqual(await pixel(image.png, 32, 32), [255, 0, 0]);
    assert.deepEqual(await pixel(image.png, 30, 30), [0x80, 0x80, 0x80]);
    assert.deepEqual(screenPointOf(image.view, { x: 32, y: 32 }), { x: 150, y: 100 });
    assert.throws(() => screenPointOf(image.view, { x: 85, y: 10 }), (error) => isTandemError(error, 'bad-input') && /outside the last zoom image of pid 7 \(84×84 pixels\)/.test(error.message));
  });

  it('should paint password fields over before cropping, and keep a wide crop within 1,000 pixels', async () => {
    const secret = await zoomInto(capture(), { x: 0, y: 0, width: 300, height: 200 }, { x: 140, y: 90, width: 20, height: 20 }, [{ x: 145, y: 95, width: 20, height: 20 }], { pid: 7, windowId: 3 });
    const inside = screenPointOf(secret.view, { x: 14, y: 14 });
    assert.deepEqual(inside, { x: 143, y: 93 });
    assert.notDeepEqual(await pixel(secret.png, 20, 20), [255, 0, 0], 'the square under the password field is not shown');
    const wide = await zoomInto(capture(), { x: 0, y: 0, width: 300, height: 200 }, { x: 0, y: 0, width: 600, height: 100 }, [], { pid: 7, windowId: 3 });
    assert.equal(wide.view.width, 600, 'clipped to the window: 300 points, 600 pixels');
    const scaled = await zoomInto(capture(800, 200), { x: 0, y: 0, width: 800, height: 200 }, { x: 0, y: 0, width: 800, height: 200 }, [], { pid: 7, windowId: 3 });
    assert.deepEqual([scaled.view.width, scaled.view.height], [1_000, 250], '1,600 pixels scaled down to 1,000, the shape kept');
    assert.deepEqual(screenPointOf(scaled.view, { x: scaled.view.width, y: 0 }), { x: 800, y: 0 }, 'the right edge of the image is the right edge of the window');
  });
});
