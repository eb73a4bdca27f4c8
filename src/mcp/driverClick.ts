// The driver-style clicks (click, double_click, right_click): a target by element_index from
// the latest tree, or by x,y relative to the top-left of the app's window (window_id from
// list_windows, else its frontmost) — the coordinates a model reads off that window's
// screenshot. Each runs as one guarded transaction, like the _and_traverse tools.

import { TandemError } from '../core/errors.js';
import { normalizeModifiers } from '../core/input/keys.js';
import { LIMITS } from '../core/limits.js';
import type { MouseButton } from '../core/desktop.js';
import type { ClickStep, ClickTarget } from '../core/call/steps.js';
import { defineTool } from './defineTool.js';
import { callResultOutput } from './outputSchemas.js';
import { coordinate, elementIndexParam, flag, inlineParam, nameList, pidParam, toolInput, windowIdParam } from './params.js';
import { renderCallResult } from './render.js';
import { stepsFromInput, stepsParam } from './stepInput.js';

export const WINDOW_POINT_HINT = 'Window-local: 0,0 is the top-left of the window (its screenshot\'s pixels at scale 1).';

export const driverClickShape = {
  pid: pidParam(),
  element_index: elementIndexParam().optional().describe('The element to click: its element_index from the latest tree of this pid (the #N its tree or diff line starts with).'),
  x: coordinate('x', WINDOW_POINT_HINT).optional().describe(`Instead of element_index: x of the click in points from the window's left edge. ${WINDOW_POINT_HINT}`),
  y: coordinate('y', WINDOW_POINT_HINT).optional().describe("y of the click in points from the window's top edge."),
  window_id: windowIdParam().optional().describe("With x,y: the window they are relative to (from list_windows); default the app's frontmost window."),
  from_zoom: flag('from_zoom').optional().describe("true: x,y are pixels of this app's last zoom image (the zoom tool), mapped back to the screen."),
  modifiers: nameList('modifiers', '["shift"]').optional().describe('Modifier keys held during the click, e.g. ["shift"] to extend a selection, ["control"] to add to it.'),
  steps: stepsParam,
  inline: inlineParam(),
};

export interface DriverClickFields {
  element_index?: number;
  x?: number;
  y?: number;
  window_id?: number;
  from_zoom?: boolean;
  modifiers?: string[];
}

/** Where a driver action aims: an element by index, a window-local point, or a pixel of the last zoom. */
export function driverTarget(fields: DriverClickFields, verb = 'click'): ClickTarget {
  const hasPoint = fields.x !== undefined || fields.y !== undefined;
  if (fields.element_index !== undefined) {
    if (hasPoint || fields.window_id !== undefined || fields.from_zoom) throw new TandemError('bad-input', 'Send element_index, or x and y (with window_id if you like), not both.');
    return { query: { index: fields.element_index } };
  }
  if (fields.x === undefined || fields.y === undefined) {
    if (!hasPoint) throw new TandemError('bad-input', `Say what to ${verb}: element_index from the latest tree, or x and y within the app's window (0 to ${LIMITS.coordinate} points from its top-left).`);
    throw new TandemError('bad-input', `Send both x and y (${fields.x === undefined ? 'x' : 'y'} is missing), relative to the window's top-left.`);
  }
  if (fields.from_zoom) {
    if (fields.window_id !== undefined) throw new TandemError('bad-input', 'from_zoom points are pixels of the last zoom image, which knows its window: leave window_id out.');
    return { zoomPixel: { x: fields.x, y: fields.y } };
  }
  return { windowPoint: { x: fields.x, y: fields.y }, ...(fields.window_id !== undefined ? { windowId: fields.window_id } : {}) };
}

/** The click step for one driver click; bad-input naming what to send when the target is unclear. */
export function driverClickStep(fields: DriverClickFields, button: MouseButton, count: 1 | 2): ClickStep {
  return { kind: 'click', button, count, modifiers: normalizeModifiers(fields.modifiers), target: driverTarget(fields) };
}

/** A click tool with a fixed button and count (double_click, right_click): declared as data. */
export function driverClickTool(spec: { name: string; title: string; description: string; button: MouseButton; count: 1 | 2 }) {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    type: 'input',
    inputSchema: toolInput(driverClickShape),
    outputSchema: callResultOutput,
    handle: async (engine, args, context) => {
      const steps = [driverClickStep(args, spec.button, spec.count), ...stepsFromInput(args.steps)];
      return renderCallResult(await engine.act({ tool: spec.name, pid: args.pid, steps }, context));
    },
  });
}
