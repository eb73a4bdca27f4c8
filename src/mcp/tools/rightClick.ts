import { defineTool } from '../defineTool.js';
import { driverClickShape, driverClickStep } from '../driverClick.js';
import { callResultOutput } from '../outputSchemas.js';
import { toolInput } from '../params.js';
import { renderCallResult } from '../render.js';
import { stepsFromInput } from '../stepInput.js';

export const rightClick = defineTool({
  name: 'right_click',
  title: 'Right-click an element or a window point',
  description:
    "Right-clicks an element by element_index, or a point of the app's window by x,y from its top-left: the context menu it opens is in the diff (its items can be clicked next by element or element_index). Guarded like every action.",
  type: 'input',
  inputSchema: toolInput(driverClickShape),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const steps = [driverClickStep(args, 'right', 1), ...stepsFromInput(args.steps)];
    return renderCallResult(await engine.act({ tool: 'right_click', pid: args.pid, steps }, context));
  },
});
