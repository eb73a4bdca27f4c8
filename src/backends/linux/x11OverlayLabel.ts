// The overlay's label as pixels: the renderer overlay's pill (dark, rounded ends, an orange dot,
// white text; docs/screenshots/overlay.png) drawn with sharp, which lays the text out with
// Pango (so any script renders, and a text too long for the monitor wraps instead of running
// off it). Without a compositor an X window cannot be translucent, so the pill is opaque and
// its rounded ends come from a window shape: the rectangles returned with the pixels.

import type { ShapeRect } from '../../../native/linux/shapeRequests.js';

export const LABEL_COLOURS = { pill: { r: 0x1c, g: 0x1c, b: 0x1e }, dot: '#ff7a1a', text: '#ffffff' } as const;
const FONT_PX = 16;
const MIN_HEIGHT = 40;
const PAD_X_TEXT = 40;
const PAD_RIGHT = 22;
const PAD_Y = 12;
const DOT = { cx: 22, r: 6 };
const RADIUS = 20;

export interface LabelImage {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel, rows without padding. */
  rgb: Buffer;
  /** The pill's outline as rectangles (rounded ends), for the window's bounding shape. */
  shape: ShapeRect[];
}

/** Pango markup of plain text: the app name is whatever the app calls itself. */
function markup(text: string): string {
  return text.replace(/[&<>'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The rows of a rounded rectangle: one rectangle per row inside the corners, one for the straight middle. */
export function roundedRectShape(width: number, height: number, radius: number): ShapeRect[] {
  const r = Math.max(0, Math.min(radius, Math.floor(width / 2), Math.floor(height / 2)));
  const rows: ShapeRect[] = [];
  const inset = (row: number): number => {
    const dy = r - row - 0.5;
    return Math.round(r - Math.sqrt(Math.max(0, r * r - dy * dy)));
  };
  for (let y = 0; y < r; y++) rows.push({ x: inset(y), y, width: width - 2 * inset(y), height: 1 });
  if (height - 2 * r > 0) rows.push({ x: 0, y: r, width, height: height - 2 * r });
  for (let y = r - 1; y >= 0; y--) rows.push({ x: inset(y), y: height - 1 - y, width: width - 2 * inset(y), height: 1 });
  return rows;
}

/** Renders `text` in a pill at most `maxWidth` pixels wide. sharp is loaded here, on first use. */
export async function renderLabel(text: string, maxWidth: number): Promise<LabelImage> {
  const { default: sharp } = await import('sharp');
  const textWidth = Math.max(80, maxWidth - PAD_X_TEXT - PAD_RIGHT);
  const rendered = await sharp({
    text: {
      text: `<span foreground="${LABEL_COLOURS.text}" font_weight="500">${markup(text)}</span>`,
      font: `Sans ${FONT_PX}`,
      dpi: 72, // points = pixels
      rgba: true,
      width: textWidth,
      wrap: 'word',
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  const width = rendered.info.width + PAD_X_TEXT + PAD_RIGHT;
  const height = Math.max(MIN_HEIGHT, rendered.info.height + 2 * PAD_Y);
  const { r, g, b } = LABEL_COLOURS.pill;
  const pill =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="${width}" height="${height}" rx="${RADIUS}" fill="rgb(${r},${g},${b})"/>` +
    `<circle cx="${DOT.cx}" cy="${height / 2}" r="${DOT.r}" fill="${LABEL_COLOURS.dot}"/></svg>`;
  const composed = await sharp(Buffer.from(pill))
    .composite([{ input: rendered.data, left: PAD_X_TEXT, top: Math.round((height - rendered.info.height) / 2) }])
    .png()
    .toBuffer();
  // Outside the pill's curve the window shape cuts the pixels away; flattening onto the pill's
  // own colour keeps the anti-aliased edge from showing a light fringe. (A second pipeline:
  // sharp composites last, after any flatten in the same one.)
  const { data } = await sharp(composed).flatten({ background: { r, g, b } }).raw().toBuffer({ resolveWithObject: true });
  return { width, height, rgb: data, shape: roundedRectShape(width, height, RADIUS) };
}
