import { defineTool } from '../defineTool.js';
import { flag, pidParam, toolInput } from '../params.js';
import { windowsOutput } from '../outputSchemas.js';
import { renderWindows } from '../renderInspection.js';

export const listWindows = defineTool({
  name: 'list_windows',
  title: 'List windows',
  description:
    'Lists top-level windows, frontmost first (read-only): window_id, pid, app, title, bounds in screen points, on screen or not. pid: one app\'s.',
  type: 'readOnly',
  inputSchema: toolInput({
    pid: pidParam().optional(),
    on_screen_only: flag('on_screen_only').optional().describe('true: only windows on screen.'),
  }),
  outputSchema: windowsOutput,
  handle: async (engine, args, context) => {
    const onScreenOnly = args.on_screen_only ?? false;
    return renderWindows(await engine.listWindows(args.pid, onScreenOnly, context), { pid: args.pid, onScreenOnly });
  },
});
