import { defineTool } from '../defineTool.js';
import { toolInput } from '../params.js';
import { cursorOutput } from '../outputSchemas.js';
import { renderCursor } from '../renderInspection.js';

export const getCursorPosition = defineTool({
  name: 'get_cursor_position',
  title: 'Where the pointer is',
  description: "The pointer's position in screen points (read-only).",
  type: 'readOnly',
  inputSchema: toolInput({}),
  outputSchema: cursorOutput,
  handle: async (engine, _args, context) => renderCursor(await engine.cursorPosition(context)),
});
