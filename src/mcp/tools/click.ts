import { defineTool } from '../defineTool.js';
import { driverClickShape, driverClickStep } from '../driverClick.js';
import { callResultOutput } from '../outputSchemas.js';
import { toolInput, wholeNumber } from '../params.js';
import { renderCallResult } from '../render.js';
import { stepsFromInput } from '../stepInput.js';

export const click = defineTool({
  name: 'click',
  title: 'Click an element or a window point',
  description:
    "Clicks an element by element_index (from the latest tree), or a point of the app's window by x,y from its top-left — guarded like every action (the person's input is held back; Esc cancels). " +
    'count 2 double-clicks. Returns a summary of what changed and a diff file to grep.',
  type: 'input',
  inputSchema: toolInput({
    ...driverClickShape,
    count: wholeNumber('count', { min: 1, max: 2 }).optional().describe('1 (default) or 2 for a double click.'),
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const steps = [driverClickStep(args, 'left', args.count === 2 ? 2 : 1), ...stepsFromInput(args.steps)];
    return renderCallResult(await engine.act({ tool: 'click', pid: args.pid, steps }, context));
  },
});
