// A capture of the whole screen taken by the test itself, on its own X connection (GetImage of
// the root window): what a person would see, overlay included — independent of Tandem's own
// screenshots, which capture one window.
import sharp from 'sharp';
import { X11Connection } from '../../native/linux/x11Connection.js';

const Z_PIXMAP = 2;
const ALL_PLANES = 0xffffffff;

export interface ScreenImage {
  width: number;
  height: number;
  /** BGRX, 4 bytes a pixel. */
  data: Buffer;
}

export async function captureScreen(display: string): Promise<ScreenImage> {
  const connection = await X11Connection.open(display);
  try {
    const { pixel_width: width, pixel_height: height } = connection.screen;
    const reply = await connection.request<{ data: Buffer }>((callback) => connection.client.GetImage(Z_PIXMAP, connection.root, 0, 0, width, height, ALL_PLANES, callback));
    return { width, height, data: reply.data };
  } finally {
    await connection.close();
  }
}

/** [r, g, b] of one pixel. */
export function pixelAt(image: ScreenImage, x: number, y: number): [number, number, number] {
  const at = (y * image.width + x) * 4;
  return [image.data[at + 2], image.data[at + 1], image.data[at]];
}

/** Orange like the overlay's frame (#ff7a1a and its darker pulse shade): red high, green mid, blue low. */
export function isOrange([r, g, b]: [number, number, number]): boolean {
  return r >= 0xa0 && g >= 0x30 && g <= 0xa0 && b <= 0x40 && r - g >= 0x50;
}

export async function savePng(image: ScreenImage, file: string): Promise<void> {
  const rgba = Buffer.alloc(image.data.length);
  for (let i = 0; i < image.data.length; i += 4) {
    rgba[i] = image.data[i + 2];
    rgba[i + 1] = image.data[i + 1];
    rgba[i + 2] = image.data[i];
    rgba[i + 3] = 255;
  }
  await sharp(rgba, { raw: { width: image.width, height: image.height, channels: 4 } }).png().toFile(file);
}
