// Raw pixel orders. Screens often hand out 4 bytes per pixel in the order B, G, R, X (X11's 24-bit
// TrueColor on a little-endian server; the fourth byte is padding, not alpha); sharp and PNG
// want R, G, B, A.

/**
 * BGRX rows → tightly packed RGBA with an opaque alpha, one 32-bit word per pixel.
 */
export function bgrxToRgba(bgrx: Buffer, width: number, height: number, stride = width * 4): Buffer {
  if (bgrx.length < stride * (height - 1) + width * 4) {
    throw new RangeError(`image data too short: ${bgrx.length} bytes for ${width}x${height} (stride ${stride})`);
  }
  const out = new Uint32Array(width * height);
  // Word reads need 4-byte alignment: copy when the X reply's buffer is not aligned.
  const aligned = bgrx.byteOffset % 4 === 0 ? bgrx : Buffer.from(bgrx);
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.length / 4));
  const rowWords = stride / 4;
  let o = 0;
  for (let y = 0; y < height; y++) {
    let i = y * rowWords;
    for (let x = 0; x < width; x++, i++) {
      const p = words[i];
      // Little-endian words: 0xXXRRGGBB in, 0xFFBBGGRR (bytes R, G, B, A) out.
      out[o++] = (((p & 0xff) << 16) | (p & 0xff00) | ((p >>> 16) & 0xff) | 0xff000000) >>> 0;
    }
  }
  return Buffer.from(out.buffer);
}
