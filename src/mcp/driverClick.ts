// The driver-style clicks: a target by element_index from the latest tree, or by x,y in screen
// points as the tree prints them (x:N y:N) — one coordinate space for every tool — or in the
// pixels of the app's last zoom image. Each runs as one guarded transaction.

import { TandemError } from '../core/errors.js';
import { normalizeModifiers } from '../core/input/keys.js';
import { LIMITS } from '../core/limits.js';
import type { MouseButton } from '../core/desktop.js';
import type { ClickStep, ClickTarget } from '../core/call/steps.js';
import { defineTool, type NamedProfile } from './defineTool.js';
import { callResultOutput } from './outputSchemas.js';
import { actingFields, actingShape, coordinate, elementIndexParam, flag, inlineParam, nameList, pidParam, toolInput } from './params.js';
import { renderCallResult } from './render.js';

export const SCREEN_POINT_HINT = 'Screen points as the tree prints them (x:N y:N).';

export const driverClickShape = {
  pid: pidParam(),
  element_index: elementIndexParam().optional().describe('The #N of its line in the latest tree or diff (its centre).'),
  x: coordinate('x', SCREEN_POINT_HINT).optional().describe('Instead of element_index: screen x as the tree prints it (x:N).'),
  y: coordinate('y', SCREEN_POINT_HINT).optional().describe('y in screen points (y:N).'),
  from_zoom: flag('from_zoom').optional().describe('true: x,y are pixels of the last zoom image.'),
  modifiers: nameList('modifiers', '["shift"]').optional().describe('Keys held, e.g. ["shift"].'),
  inline: inlineParam(),
  ...actingShape,
};

export interface DriverClickFields {
  element_index?: number;
  x?: number;
  y?: number;
  from_zoom?: boolean;
  modifiers?: string[];
}

/** Where a driver action aims: an element by index, a screen point, or a pixel of the last zoom. */
export function driverTarget(fields: DriverClickFields, verb = 'click'): ClickTarget {
  const hasPoint = fields.x !== undefined || fields.y !== undefined;
  if (fields.element_index !== undefined) {
    if (hasPoint || fields.from_zoom) throw new TandemError('bad-input', 'Send element_index, or x and y, not both.');
    return { query: { index: fields.element_index } };
  }
  if (fields.x === undefined || fields.y === undefined) {
    if (!hasPoint) throw new TandemError('bad-input', `Say what to ${verb}: element_index from the latest tree, or x and y in screen points as the tree prints them (within ±${LIMITS.coordinate}).`);
    throw new TandemError('bad-input', `Send both x and y (${fields.x === undefined ? 'x' : 'y'} is missing), in screen points as the tree prints them.`);
  }
  if (fields.from_zoom) return { zoomPixel: { x: fields.x, y: fields.y } };
  return { point: { x: fields.x, y: fields.y } };
}

/** The click step for one driver click; bad-input naming what to send when the target is unclear. */
export function driverClickStep(fields: DriverClickFields, button: MouseButton, count: 1 | 2): ClickStep {
  return { kind: 'click', button, count, modifiers: normalizeModifiers(fields.modifiers), target: driverTarget(fields) };
}

/** A click tool with a fixed button and count (double_click, right_click): declared as data. */
export function driverClickTool(spec: { name: string; profiles?: readonly NamedProfile[]; title: string; description: string; button: MouseButton; count: 1 | 2 }) {
  return defineTool({
    name: spec.name,
    ...(spec.profiles ? { profiles: spec.profiles } : {}),
    title: spec.title,
    description: spec.description,
    type: 'input',
    inputSchema: toolInput(driverClickShape),
    outputSchema: callResultOutput,
    handle: async (engine, args, context) =>
      renderCallResult(await engine.act({ tool: spec.name, pid: args.pid, ...actingFields(args), steps: [driverClickStep(args, spec.button, spec.count)] }, context)),
  });
}
