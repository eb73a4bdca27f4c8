import { defineTool } from '../defineTool.js';
import { callResultOutput } from '../outputSchemas.js';
import { inlineParam, pidParam, toolInput, windowIdParam } from '../params.js';
import { renderCallResult } from '../render.js';

export const bringToFront = defineTool({
  name: 'bring_to_front',
  title: 'Bring an app to the front',
  description:
    "Brings the app (or one of its windows, window_id from list_windows) to the front and stays there — unlike the acting tools, which put the person's front app back afterwards — then writes its tree. " +
    "Use it when the person should see or use that app next; moving the front is all it does (no input is sent).",
  type: 'action',
  inputSchema: toolInput({
    pid: pidParam(),
    window_id: windowIdParam().optional().describe("Which of the app's windows (from list_windows); default its own choice."),
    inline: inlineParam(),
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => renderCallResult(await engine.bringToFront(args.pid, args.window_id, context)),
});
