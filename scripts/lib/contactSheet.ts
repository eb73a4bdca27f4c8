// A contact sheet: screenshots side by side, each under a caption, in one PNG — a single
// picture of what a session did. sharp composites the tiles; captions are SVG text.
import sharp from 'sharp';

export interface SheetTile {
  /** PNG file. */
  path: string;
  caption: string;
}

const TILE_WIDTH = 520;
const TILE_HEIGHT = 380;
const CAPTION_HEIGHT = 34;
const GAP = 16;
const BACKGROUND = { r: 32, g: 34, b: 40, alpha: 1 };

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[ch]!);
}

function captionSvg(text: string): Buffer {
  const shown = text.length > 70 ? `${text.slice(0, 69)}…` : text;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${TILE_WIDTH}" height="${CAPTION_HEIGHT}">` +
      `<text x="4" y="23" font-family="DejaVu Sans, sans-serif" font-size="16" fill="#f0f0f0">${escapeXml(shown)}</text></svg>`,
  );
}

/** Writes the sheet to `outPath`: `columns` tiles per row, each image scaled to fit its tile. */
export async function writeContactSheet(tiles: readonly SheetTile[], outPath: string, columns = 3): Promise<void> {
  if (!tiles.length) throw new Error('No screenshots to put on the contact sheet');
  const cols = Math.min(columns, tiles.length);
  const rows = Math.ceil(tiles.length / cols);
  const cellHeight = CAPTION_HEIGHT + TILE_HEIGHT;
  const width = GAP + cols * (TILE_WIDTH + GAP);
  const height = GAP + rows * (cellHeight + GAP);
  const layers = await Promise.all(
    tiles.map(async (tile, index) => {
      const left = GAP + (index % cols) * (TILE_WIDTH + GAP);
      const top = GAP + Math.floor(index / cols) * (cellHeight + GAP);
      const image = await sharp(tile.path)
        .resize(TILE_WIDTH, TILE_HEIGHT, { fit: 'contain', background: BACKGROUND, withoutEnlargement: true })
        .extend({ bottom: 0, background: BACKGROUND })
        .png()
        .toBuffer({ resolveWithObject: true });
      // Centre images smaller than the tile.
      const imageLeft = left + Math.floor((TILE_WIDTH - image.info.width) / 2);
      const imageTop = top + CAPTION_HEIGHT + Math.floor((TILE_HEIGHT - image.info.height) / 2);
      return [
        { input: captionSvg(`${index + 1}. ${tile.caption}`), left, top },
        { input: image.data, left: imageLeft, top: imageTop },
      ];
    }),
  );
  await sharp({ create: { width, height, channels: 4, background: BACKGROUND } })
    .composite(layers.flat())
    .png()
    .toFile(outPath);
}
