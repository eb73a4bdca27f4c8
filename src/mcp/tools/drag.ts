import { TandemError, toTandemError } from '../../core/errors.js';
import { DEFAULT_DRAG_MS, type ClickTarget } from '../../core/call/steps.js';
import { defineTool } from '../defineTool.js';
import { SCREEN_POINT_HINT, driverTarget } from '../driverClick.js';
import { callResultOutput } from '../outputSchemas.js';
import { coordinate, dragDurationParam, elementIndexParam, inlineParam, mouseButtonParam, nameList, pidParam, toolInput, actingFields, actingShape } from '../params.js';
import { renderCallResult } from '../render.js';
import { dragStep } from '../stepInput.js';

/** One end of the drag: an element by index, or a screen point, as click takes them. */
function dragEnd(end: 'from' | 'to') {
  return toolInput(
    {
      element_index: elementIndexParam().optional(),
      x: coordinate('x', SCREEN_POINT_HINT).optional(),
      y: coordinate('y', SCREEN_POINT_HINT).optional(),
    },
    `"${end}"`,
  );
}

type EndFields = { element_index?: number; x?: number; y?: number };

/** An end as a core target; a bad one is refused naming which end and what to send. */
function endTarget(fields: EndFields, end: 'from' | 'to'): ClickTarget {
  try {
    return driverTarget(fields, `drag ${end}`);
  } catch (error) {
    const failure = toTandemError(error);
    throw new TandemError(failure.code, `${end}: ${failure.message}`, failure.details);
  }
}

export const drag = defineTool({
  name: 'drag',
  title: 'Drag from one element or point to another',
  description:
    "Presses the mouse button at `from`, moves with it held to `to` over duration_ms, and releases it there: a slider's knob, a text selection, an item onto a target. " +
    'Each end is {"element_index": N} or {"x": …, "y": …} in screen points as the tree prints them. ' +
    'Esc releases the button at once.',
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    from: dragEnd('from').describe('Where the press is.'),
    to: dragEnd('to').describe('Where the release is.'),
    duration_ms: dragDurationParam().optional().describe(`Default ${DEFAULT_DRAG_MS}.`),
    button: mouseButtonParam().optional().describe('Default "left".'),
    modifiers: nameList('modifiers', '["shift"]').optional().describe('Keys held, e.g. ["control"] to copy.'),
    inline: inlineParam(),
    // A drag needs the pointer: it never runs in the background, so it takes no `background`.
    if_revision: actingShape.if_revision,
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const step = dragStep(endTarget(args.from, 'from'), endTarget(args.to, 'to'), args);
    return renderCallResult(await engine.act({ tool: 'drag', pid: args.pid, ...actingFields(args), steps: [step] }, context));
  },
});
