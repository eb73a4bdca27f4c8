import { defineTool } from '../defineTool.js';
import { driverClickShape, driverClickStep } from '../driverClick.js';
import { callResultOutput } from '../outputSchemas.js';
import { toolInput } from '../params.js';
import { renderCallResult } from '../render.js';
import { stepsFromInput } from '../stepInput.js';

export const doubleClick = defineTool({
  name: 'double_click',
  title: 'Double-click an element or a window point',
  description:
    "Double-clicks an element by element_index, or a point of the app's window by x,y from its top-left (opens a file, selects a word) — guarded like every action. " +
    'Returns a summary of what changed and a diff file to grep.',
  type: 'input',
  inputSchema: toolInput(driverClickShape),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const steps = [driverClickStep(args, 'left', 2), ...stepsFromInput(args.steps)];
    return renderCallResult(await engine.act({ tool: 'double_click', pid: args.pid, steps }, context));
  },
});
