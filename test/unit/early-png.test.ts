// A read call's screenshot is encoded while its tree is still being read (artifacts/earlyPng.ts):
// the file must still show the window's real colours, and a password field found by the tree
// must still be painted over in it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { SECURE_FILL } from '../../src/core/artifacts/crosshair.js';
import { encodeEarly, pngToWrite } from '../../src/core/artifacts/earlyPng.js';
import { bgrxToRgb, bgrxToRgba } from '../../src/core/artifacts/pixels.js';
import type { Screenshot } from '../../src/core/model.js';

/** A 7×5 BGRX capture whose every pixel differs (B = x, G = y, R = 100 + x + y), at screen (100, 50), 1 pixel per point. */
function capture(): Screenshot {
  const width = 7;
  const height = 5;
  const data = Buffer.alloc(width * height * 4, 0xee);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([x, y, 100 + x + y], (y * width + x) * 4);
  }
  return { raw: { data, width, height, order: 'bgrx' }, bounds: { x: 100, y: 50, width, height }, scale: 1 };
}

async function pixels(png: Buffer): Promise<(x: number, y: number) => number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  assert.equal(info.channels, 3, 'RGB, no alpha channel');
  return (x, y) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
}

test('should reorder BGRX to RGB like the RGBA path, whatever the size, stride or alignment', () => {
  for (const [width, height, stride] of [[3, 1, 12], [5, 3, 20], [5, 3, 24], [7, 2, 28], [9, 9, 36]]) {
    const bgrx = Buffer.alloc(stride * height);
    for (let i = 0; i < bgrx.length; i++) bgrx[i] = (i * 31 + 7) & 0xff;
    const rgba = bgrxToRgba(bgrx, width, height, stride);
    const expected = Buffer.alloc(width * height * 3);
    for (let p = 0; p < width * height; p++) rgba.copy(expected, p * 3, p * 4, p * 4 + 3);
    assert.deepEqual(bgrxToRgb(bgrx, width, height, stride), expected, `${width}×${height}, stride ${stride}`);
  }
  assert.deepEqual([...bgrxToRgb(Buffer.from([9, 1, 2, 3, 0xee]).subarray(1), 1, 1)], [3, 2, 1], 'an unaligned buffer');
  assert.throws(() => bgrxToRgb(Buffer.alloc(4), 2, 2));
});

test('should write the capture in its true colours when nothing is to be covered', async () => {
  const early = encodeEarly(capture());
  const at = await pixels(await pngToWrite(early, []));
  assert.deepEqual(at(0, 0), [100, 0, 0]);
  assert.deepEqual(at(6, 4), [110, 4, 6]);
  // A password field of another window part, off this image: nothing to paint.
  const off = await pixels(await pngToWrite(early, [{ x: 0, y: 0, width: 20, height: 20 }]));
  assert.deepEqual(off(3, 2), [105, 2, 3]);
});

test('should paint a password field over when the tree finds one in the image, the early PNG notwithstanding', async () => {
  const early = encodeEarly(capture());
  await early.plain; // encoded before the tree said where the field is
  const at = await pixels(await pngToWrite(early, [{ x: 102, y: 51, width: 3, height: 2 }]));
  const grey = [SECURE_FILL, SECURE_FILL, SECURE_FILL];
  assert.deepEqual(at(2, 1), grey);
  assert.deepEqual(at(4, 2), grey);
  assert.deepEqual(at(5, 2), [107, 2, 5], 'beside it, as it was');
  assert.deepEqual(at(2, 3), [105, 3, 2], 'below it, as it was');
});
