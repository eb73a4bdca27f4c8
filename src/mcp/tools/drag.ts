import { TandemError, toTandemError } from '../../core/errors.js';
import { LIMITS } from '../../core/limits.js';
import { DEFAULT_DRAG_MS, type ClickTarget } from '../../core/call/steps.js';
import { defineTool } from '../defineTool.js';
import { WINDOW_POINT_HINT, driverTarget } from '../driverClick.js';
import { callResultOutput } from '../outputSchemas.js';
import { coordinate, dragDurationParam, elementIndexParam, inlineParam, mouseButtonParam, nameList, pidParam, toolInput, windowIdParam } from '../params.js';
import { renderCallResult } from '../render.js';
import { dragStep, stepsFromInput, stepsParam } from '../stepInput.js';

/** One end of the drag: an element by index, or a point of the window, as click takes them. */
function dragEnd(end: 'from' | 'to') {
  const what = end === 'from' ? 'where the button is pressed' : 'where it is released';
  return toolInput(
    {
      element_index: elementIndexParam().optional().describe(`The element ${what} (its centre): its element_index from the latest tree of this pid.`),
      x: coordinate('x', WINDOW_POINT_HINT).optional().describe(`Instead of element_index: x of ${what}, in points from the window's left edge. ${WINDOW_POINT_HINT}`),
      y: coordinate('y', WINDOW_POINT_HINT).optional().describe("y in points from the window's top edge."),
    },
    `"${end}"`,
  ).describe(`${end === 'from' ? 'Start' : 'End'} of the drag, ${what}: {"element_index": N} or {"x": …, "y": …} from the window's top-left.`);
}

type EndFields = { element_index?: number; x?: number; y?: number };

/** An end as a core target; a bad one is refused naming which end and what to send. */
function endTarget(fields: EndFields, end: 'from' | 'to', windowId: number | undefined): ClickTarget {
  try {
    return driverTarget({ ...fields, ...(fields.element_index === undefined && windowId !== undefined ? { window_id: windowId } : {}) }, `drag ${end}`);
  } catch (error) {
    const failure = toTandemError(error);
    throw new TandemError(failure.code, `${end}: ${failure.message}`, failure.details);
  }
}

export const drag = defineTool({
  name: 'drag',
  title: 'Drag from one element or window point to another',
  description:
    "Presses the mouse button at `from`, moves with it held to `to` over duration_ms, and releases it there: a slider's knob, a text selection, an item onto a target. " +
    "Each end is {\"element_index\": N} (from the latest tree) or {\"x\": …, \"y\": …} from the top-left of the app's window (window_id, else its frontmost). " +
    "Guarded like every action (the person's input is held back; Esc cancels and the button is released at once). Returns a summary of what changed and a diff file to grep.",
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    from: dragEnd('from'),
    to: dragEnd('to'),
    window_id: windowIdParam().optional().describe('The window x,y ends are relative to (from list_windows); default the app\'s frontmost window.'),
    duration_ms: dragDurationParam().optional().describe(`Press to release, in ms (default ${DEFAULT_DRAG_MS}, at most ${LIMITS.dragMs}); motion events are spread over it.`),
    button: mouseButtonParam().optional().describe('The button held: "left" (default), "right" or "middle".'),
    modifiers: nameList('modifiers', '["shift"]').optional().describe('Modifier keys held during the drag, e.g. ["control"] to copy instead of move.'),
    steps: stepsParam,
    inline: inlineParam(),
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    if (args.window_id !== undefined && args.from.element_index !== undefined && args.to.element_index !== undefined) {
      throw new TandemError('bad-input', 'window_id goes with x,y ends; both ends are elements: leave it out.');
    }
    const step = dragStep(endTarget(args.from, 'from', args.window_id), endTarget(args.to, 'to', args.window_id), args);
    return renderCallResult(await engine.act({ tool: 'drag', pid: args.pid, steps: [step, ...stepsFromInput(args.steps)] }, context));
  },
});
