import { defineTool } from '../defineTool.js';
import { callResultOutput } from '../outputSchemas.js';
import { inlineParam, pidParam, toolInput, windowIdParam } from '../params.js';
import { renderCallResult } from '../render.js';

export const bringToFront = defineTool({
  name: 'bring_to_front',
  title: 'Bring an app to the front',
  description:
    "Brings the app (or its window window_id) to the front and leaves it there — the acting tools put the person's front app back — then writes its tree. No input is sent.",
  type: 'action',
  inputSchema: toolInput({
    pid: pidParam(),
    window_id: windowIdParam().optional().describe('From list_windows.'),
    inline: inlineParam(),
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => renderCallResult(await engine.bringToFront(args.pid, args.window_id, context)),
});
