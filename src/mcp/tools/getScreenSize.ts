import { defineTool } from '../defineTool.js';
import { displaysOutput } from '../outputSchemas.js';
import { toolInput } from '../params.js';
import { renderDisplays } from '../renderInspection.js';

export const getScreenSize = defineTool({
  name: 'get_screen_size',
  title: 'Displays and their size',
  description: 'Lists the displays, primary first (read-only): bounds in screen points (the space of tree coordinates), pixels per point, and size in pixels.',
  type: 'readOnly',
  inputSchema: toolInput({}),
  outputSchema: displaysOutput,
  handle: async (engine, _args, context) => renderDisplays(await engine.displays(context)),
});
