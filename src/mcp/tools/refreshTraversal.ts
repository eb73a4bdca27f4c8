import { defineTool } from '../defineTool.js';
import { pidParam, toolInput, inlineParam } from '../params.js';
import { callResultOutput } from '../outputSchemas.js';
import { renderCallResult } from '../render.js';

export const refreshTraversal = defineTool({
  name: 'refresh_traversal',
  profiles: ['reference'],
  title: "Read an app's window again",
  description:
    "Writes a fresh accessibility tree of the app to a file without touching anything (read-only: no input, the person keeps control). " +
    'Use it to see the current state, after an error, or to get fresh element_index values. Grep the file for what you need.',
  type: 'readOnly',
  inputSchema: toolInput({ pid: pidParam(), inline: inlineParam() }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => renderCallResult(await engine.refresh(args.pid, context)),
});
