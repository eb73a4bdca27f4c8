// Hand-built SHAPE requests (shapeproto: little-endian, lengths in 4-byte units). The overlay
// uses two: an empty input region (the pointer goes straight through the window) and a bounding
// region of rectangles (the label's rounded ends, with no compositor to blend corners).

export const SHAPE_RECTANGLES = 1;
export const SHAPE_QUERY_VERSION = 0;

export const SHAPE_KIND = { bounding: 0, clip: 1, input: 2 } as const;
const SHAPE_SET = 0;
const UNSORTED = 0;

export interface ShapeRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** ShapeRectangles with op Set: the window's `kind` region becomes exactly these rectangles (none: empty). */
export function shapeRectanglesRequest(options: { majorOpcode: number; window: number; kind: number; rectangles: readonly ShapeRect[] }): Buffer {
  const request = Buffer.alloc(16 + options.rectangles.length * 8);
  request.writeUInt8(options.majorOpcode, 0);
  request.writeUInt8(SHAPE_RECTANGLES, 1);
  request.writeUInt16LE(request.length / 4, 2);
  request.writeUInt8(SHAPE_SET, 4);
  request.writeUInt8(options.kind, 5);
  request.writeUInt8(UNSORTED, 6);
  request.writeUInt32LE(options.window >>> 0, 8);
  // x and y offsets (12, 14): 0.
  options.rectangles.forEach((rect, index) => {
    const at = 16 + index * 8;
    request.writeInt16LE(rect.x, at);
    request.writeInt16LE(rect.y, at + 2);
    request.writeUInt16LE(rect.width, at + 4);
    request.writeUInt16LE(rect.height, at + 6);
  });
  return request;
}

/** ShapeQueryVersion; the reply body (after its 8-byte header) starts with major and minor (CARD16 each). */
export function shapeQueryVersionRequest(majorOpcode: number): Buffer {
  const request = Buffer.alloc(4);
  request.writeUInt8(majorOpcode, 0);
  request.writeUInt8(SHAPE_QUERY_VERSION, 1);
  request.writeUInt16LE(1, 2);
  return request;
}

export function parseShapeVersion(body: Buffer): { major: number; minor: number } {
  return { major: body.readUInt16LE(0), minor: body.readUInt16LE(2) };
}
