import { defineTool } from '../defineTool.js';
import { zoomOutput, type ZoomOutput } from '../outputSchemas.js';
import { coordinate, pidParam, size, toolInput, windowIdParam } from '../params.js';

const SCREEN = 'Screen points as the tree prints them (x:N y:N).';

export const zoom = defineTool({
  name: 'zoom',
  title: 'Zoom into part of a window',
  description:
    "A full-resolution image of a region of the app's window (screen points as the tree prints them), padded 20 %, at most 1,000 px wide (read-only). " +
    'To click in it: click with from_zoom: true and x, y in its pixels.',
  type: 'readOnly',
  inputSchema: toolInput({
    pid: pidParam(),
    window_id: windowIdParam().optional().describe('Default: its frontmost window.'),
    x: coordinate('x', SCREEN).describe('Left of the region.'),
    y: coordinate('y', SCREEN).describe('Top of the region.'),
    width: size('width').describe('In points.'),
    height: size('height').describe('In points.'),
  }),
  outputSchema: zoomOutput,
  handle: async (engine, args, context) => {
    const image = await engine.zoom(args.pid, args.window_id, { x: args.x, y: args.y, width: args.width, height: args.height }, context);
    const { view, shown } = image;
    const structured: ZoomOutput = {
      pid: view.pid,
      window_id: view.windowId,
      width: view.width,
      height: view.height,
      points_per_pixel: view.pointsPerPixel,
      region: shown,
    };
    const lines = [
      'status: ok',
      `pid: ${view.pid}`,
      `window_id: ${view.windowId}`,
      `image: ${view.width}×${view.height} pixels showing ${Math.round(shown.width)}×${Math.round(shown.height)} points from ${Math.round(shown.x)},${Math.round(shown.y)} of the screen (1 pixel = ${view.pointsPerPixel.toFixed(3)} points)`,
      `hint: To click in it: click {"pid": ${view.pid}, "from_zoom": true, "x": <pixel x>, "y": <pixel y>}. A later zoom of this app replaces this one.`,
    ];
    return {
      content: [
        { type: 'text', text: lines.join('\n') },
        { type: 'image', data: image.png.toString('base64'), mimeType: 'image/png' },
      ],
      structuredContent: structured,
    };
  },
});
