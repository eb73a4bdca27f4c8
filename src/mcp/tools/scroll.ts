import { z } from 'zod';
import { LIMITS } from '../../core/limits.js';
import { defineTool } from '../defineTool.js';
import { driverClickShape, driverTarget } from '../driverClick.js';
import { callResultOutput } from '../outputSchemas.js';
import { toolInput, wholeNumber, actingFields } from '../params.js';
import { renderCallResult } from '../render.js';

const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
// The wheel turns under the pointer: a scroll never runs in the background, so it takes no `background`.
const { modifiers: _modifiers, background: _background, ...target } = driverClickShape;

export const scroll = defineTool({
  name: 'scroll',
  title: 'Scroll over an element or a window point',
  description:
    'Turns the mouse wheel over an element (element_index) or a point (x,y in screen points as the tree prints them, or from_zoom pixels). ' +
    'The diff shows what came into view.',
  type: 'input',
  inputSchema: toolInput({
    ...target,
    direction: z.enum(DIRECTIONS, { error: () => `direction must be one of ${DIRECTIONS.join(', ')}: "down" reveals content below.` }).describe('"down" reveals content below.'),
    amount: wholeNumber('amount', { min: 1, max: LIMITS.scrollLines, hint: 'For more, scroll again after reading the diff.' }).optional().describe('Lines (default 3).'),
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const lines = args.amount ?? 3;
    const vertical = args.direction === 'up' || args.direction === 'down';
    const sign = args.direction === 'down' || args.direction === 'right' ? 1 : -1;
    const step = { kind: 'scroll' as const, target: driverTarget(args, 'scroll over'), deltaY: vertical ? sign * lines : 0, deltaX: vertical ? 0 : sign * lines };
    return renderCallResult(await engine.act({ tool: 'scroll', pid: args.pid, ...actingFields(args), steps: [step] }, context));
  },
});
