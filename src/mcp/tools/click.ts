import { defineTool } from '../defineTool.js';
import { driverClickShape, driverClickStep } from '../driverClick.js';
import { callResultOutput } from '../outputSchemas.js';
import { mouseButtonParam, toolInput, wholeNumber, actingFields } from '../params.js';
import { renderCallResult } from '../render.js';

export const click = defineTool({
  name: 'click',
  title: 'Click an element or a point',
  description:
    'Clicks an element by element_index (from the latest tree), or x,y in screen points as the tree prints them. button "right" opens a context menu; count 2 double-clicks.',
  type: 'input',
  inputSchema: toolInput({
    ...driverClickShape,
    button: mouseButtonParam().optional().describe('"left" (default), "right" or "middle".'),
    count: wholeNumber('count', { min: 1, max: 2 }).optional().describe('2 double-clicks.'),
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) =>
    renderCallResult(await engine.act({ tool: 'click', pid: args.pid, ...actingFields(args), steps: [driverClickStep(args, args.button ?? 'left', args.count === 2 ? 2 : 1)] }, context)),
});
