// Screenshots put into an answer as image content (`inline`): a model reads a 1,280 px image as
// well as a 4K one and the answer stays small. The file on disk keeps full resolution.


export interface ScaledImage {
  png: Buffer;
  width: number;
  height: number;
  /** Whether the image was made smaller (it never is made larger). */
  scaled: boolean;
}

/** `png` with its longer side at most `maxSide` pixels (aspect kept), as PNG. */
export async function fitPng(png: Buffer, maxSide: number): Promise<ScaledImage> {
  // Loaded on first use, as for the crosshair: a sharp that cannot load costs images, not the start.
  const { default: sharp } = await import('sharp');
  const { width = 0, height = 0 } = await sharp(png).metadata();
  if (width <= maxSide && height <= maxSide) return { png, width, height, scaled: false };
  const { data, info } = await sharp(png)
    .resize({ width: maxSide, height: maxSide, fit: 'inside' })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height, scaled: true };
}
