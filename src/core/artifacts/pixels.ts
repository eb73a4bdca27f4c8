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

/**
 * BGRX rows → tightly packed RGB, three bytes per pixel: what the PNG holds. Handing the encoder
 * RGB rather than RGBA spares it dropping the alpha channel. Four pixels at a time become three
 * 32-bit words (byte stores are slower in V8 than word stores).
 */
export function bgrxToRgb(bgrx: Buffer, width: number, height: number, stride = width * 4): Buffer {
  if (bgrx.length < stride * (height - 1) + width * 4) {
    throw new RangeError(`image data too short: ${bgrx.length} bytes for ${width}x${height} (stride ${stride})`);
  }
  const packed = stride === width * 4 ? bgrx : packRows(bgrx, width, height, stride);
  const aligned = packed.byteOffset % 4 === 0 ? packed : Buffer.from(packed);
  const pixels = width * height;
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, pixels);
  // A fresh ArrayBuffer: word-aligned, whatever Buffer's pool would have handed out.
  const out = new ArrayBuffer(Math.ceil((pixels * 3) / 4) * 4);
  const outWords = new Uint32Array(out);
  let o = 0;
  let q = 0;
  for (; q + 4 <= pixels; q += 4) {
    // Little-endian words 0xXXRRGGBB in; out bytes r0 g0 b0 r1 | g1 b1 r2 g2 | b2 r3 g3 b3.
    const a = words[q];
    const b = words[q + 1];
    const c = words[q + 2];
    const d = words[q + 3];
    outWords[o++] = ((a >>> 16) & 0xff) | (a & 0xff00) | ((a & 0xff) << 16) | (((b >>> 16) & 0xff) << 24);
    outWords[o++] = ((b >>> 8) & 0xff) | ((b & 0xff) << 8) | (((c >>> 16) & 0xff) << 16) | (((c >>> 8) & 0xff) << 24);
    outWords[o++] = (c & 0xff) | (((d >>> 16) & 0xff) << 8) | ((d & 0xff00) << 8) | ((d & 0xff) << 24);
  }
  const bytes = new Uint8Array(out);
  for (let at = q * 3; q < pixels; q++) {
    const p = words[q];
    bytes[at++] = (p >>> 16) & 0xff;
    bytes[at++] = (p >>> 8) & 0xff;
    bytes[at++] = p & 0xff;
  }
  return Buffer.from(out, 0, pixels * 3);
}

/** Rows with padding after them → rows back to back. */
function packRows(data: Buffer, width: number, height: number, stride: number): Buffer {
  const packed = Buffer.allocUnsafe(width * height * 4);
  for (let y = 0; y < height; y++) data.copy(packed, y * width * 4, y * stride, y * stride + width * 4);
  return packed;
}
