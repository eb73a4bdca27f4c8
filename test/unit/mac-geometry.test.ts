import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cgToNsPoint, cgToNsRect, displayForPoint, displayForRect, nsToCgPoint, nsToCgRect, pixelScale, pointToImagePixel, readDisplays, type DisplayInfo } from '../../src/backends/macos/macDisplays.js';
import { pngSize, screencaptureArguments } from '../../src/backends/macos/macScreenshot.js';
import { FakeMacNative } from './mac-fake-native.js';

const primary: DisplayInfo = { id: 1, bounds: { x: 0, y: 0, width: 1440, height: 900 }, scale: 2, primary: true };
// A second display to the left of and above the primary: negative global coordinates.
const left: DisplayInfo = { id: 2, bounds: { x: -1920, y: -180, width: 1920, height: 1080 }, scale: 1, primary: false };

test('should flip AppKit bottom-left points to CoreGraphics top-left and back', () => {
  assert.deepEqual(nsToCgPoint({ x: 10, y: 900 }, 900), { x: 10, y: 0 });
  assert.deepEqual(nsToCgPoint({ x: 10, y: 0 }, 900), { x: 10, y: 900 });
  assert.deepEqual(cgToNsPoint(nsToCgPoint({ x: 3, y: 44 }, 900), 900), { x: 3, y: 44 });
});

test('should flip rects by their top edge, including displays above the primary', () => {
  // An AppKit window 100 high whose bottom is at y=100 has its CG top at 900-100-100 = 700.
  assert.deepEqual(nsToCgRect({ x: 0, y: 100, width: 50, height: 100 }, 900), { x: 0, y: 700, width: 50, height: 100 });
  // The left display in AppKit terms: its bottom at 900-(-180+1080) = 0 → CG y -180.
  assert.deepEqual(nsToCgRect({ x: -1920, y: 0, width: 1920, height: 1080 }, 900), { x: -1920, y: -180, width: 1920, height: 1080 });
  assert.deepEqual(cgToNsRect(nsToCgRect({ x: 7, y: 8, width: 9, height: 10 }, 900), 900), { x: 7, y: 8, width: 9, height: 10 });
});

test('should find the display under a point or holding most of a rect', () => {
  assert.equal(displayForPoint([primary, left], { x: -5, y: 0 })?.id, 2);
  assert.equal(displayForPoint([primary, left], { x: 5, y: 5 })?.id, 1);
  assert.equal(displayForPoint([primary, left], { x: 99999, y: 5 })?.id, 1, 'off every display: the primary');
  assert.equal(displayForRect([primary, left], { x: -100, y: 0, width: 300, height: 100 })?.id, 1);
  assert.equal(displayForRect([primary, left], { x: -300, y: 0, width: 310, height: 100 })?.id, 2);
});

test('should compute the pixel scale from image and point widths', () => {
  assert.equal(pixelScale(1600, 800), 2);
  assert.equal(pixelScale(801, 800), 1, 'near-integer ratios snap');
  assert.equal(pixelScale(1200, 800), 1.5);
  assert.equal(pixelScale(0, 800), 1);
  assert.deepEqual(pointToImagePixel({ x: 110, y: 220 }, { x: 100, y: 200, width: 50, height: 50 }, 2), { x: 20, y: 40 });
  assert.deepEqual(pointToImagePixel({ x: -1910, y: -170 }, left.bounds, 1), { x: 10, y: 10 });
});

test('should read the PNG size from its header and reject other bytes', () => {
  const png = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
  png.writeUInt32BE(13, 8);
  png.write('IHDR', 12, 'latin1');
  png.writeUInt32BE(2880, 16);
  png.writeUInt32BE(1800, 20);
  assert.deepEqual(pngSize(png), { width: 2880, height: 1800 });
  assert.equal(pngSize(Buffer.from('not a png at all, no no no no')), null);
});

test('should build screencapture arguments for a window, a rect and the main display', () => {
  assert.deepEqual(screencaptureArguments({ kind: 'window', windowId: 42 }, '/t/a.png'), ['-x', '-o', '-l42', '-t', 'png', '/t/a.png']);
  assert.deepEqual(screencaptureArguments({ kind: 'rect', rect: { x: -10.4, y: 5, width: 100, height: 50.6 } }, '/t/a.png'), ['-x', '-R-10,5,100,51', '-t', 'png', '/t/a.png']);
  assert.deepEqual(screencaptureArguments({ kind: 'main-display' }, '/t/a.png'), ['-x', '-m', '-t', 'png', '/t/a.png']);
});

test('should read displays with their scale and mark the primary', () => {
  const fake = new FakeMacNative();
  fake.displays.push({ id: 2, bounds: { origin: { x: -1920, y: -180 }, size: { width: 1920, height: 1080 } }, scale: 1 });
  assert.deepEqual(readDisplays(fake), [primary, left]);
});
