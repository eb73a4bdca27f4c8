import { defineTool } from '../defineTool.js';
import { coordinate, pidParam, scrollLines, toolInput, inlineParam, actingFields, actingShape } from '../params.js';
import { callResultOutput } from '../outputSchemas.js';
import { renderCallResult } from '../render.js';
import { scrollStep } from '../stepInput.js';

export const scrollAndTraverse = defineTool({
  name: 'scroll_and_traverse',
  profiles: ['reference'],
  title: 'Scroll',
  description:
    'Scrolls the wheel at a point of the app (over the list or document to scroll), then reports what came into view. ' +
    'Example: {"pid":123,"x":400,"y":300,"deltaY":5} reveals content below. Clicking by element already scrolls off-screen targets into view.',
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    x: coordinate('x').describe('X of a point inside the scrollable area, from the tree.'),
    y: coordinate('y').describe('Y of a point inside the scrollable area, from the tree.'),
    deltaY: scrollLines('deltaY', 'Positive reveals content below, negative above.').describe('Lines to scroll: positive reveals content below, negative content above.'),
    deltaX: scrollLines('deltaX').optional().describe('Lines to scroll sideways: positive reveals content to the right. Default 0.'),
    inline: inlineParam(),
    ...actingShape,
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) =>
    renderCallResult(await engine.act({ tool: 'scroll_and_traverse', pid: args.pid, ...actingFields(args), steps: [scrollStep(args)] }, context)),
});
