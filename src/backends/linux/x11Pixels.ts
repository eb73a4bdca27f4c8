// Pixel formats of X images. A 24-bit TrueColor ZPixmap on a little-endian server is 4 bytes per
// pixel in memory order B, G, R, X (the fourth byte is padding, not alpha).

/** BGRX rows (`stride` bytes apart) → tightly packed RGB, ready for sharp's raw input. */
export function bgrxToRgb(bgrx: Buffer, width: number, height: number, stride = width * 4): Buffer {
  if (bgrx.length < stride * (height - 1) + width * 4) {
    throw new RangeError(`image data too short: ${bgrx.length} bytes for ${width}x${height} (stride ${stride})`);
  }
  const rgb = Buffer.allocUnsafe(width * height * 3);
  let out = 0;
  for (let y = 0; y < height; y++) {
    let at = y * stride;
    for (let x = 0; x < width; x++, at += 4) {
      rgb[out++] = bgrx[at + 2];
      rgb[out++] = bgrx[at + 1];
      rgb[out++] = bgrx[at];
    }
  }
  return rgb;
}
