// The `steps` parameter of click/type/press (an ordered list run inside one guarded
// transaction) and the conversion of every tool's input into core Step objects. Keys and
// modifiers go through core/input/keys.ts, which throws bad-input with a message naming what to send.

import { z } from 'zod';
import { TandemError, toTandemError } from '../core/errors.js';
import { normalizeModifiers } from '../core/input/keys.js';
import { LIMITS } from '../core/limits.js';
import type { MouseButton } from '../core/desktop.js';
import type { Modifier } from '../core/model.js';
import { normalizeStep } from '../core/call/stepNormalize.js';
import { DEFAULT_DRAG_MS, type ClickStep, type ClickTarget, type DragStep, type ElementQuery, type PressStep, type ScrollStep, type Step, type TypeStep } from '../core/call/steps.js';
import {
  KEY_DESCRIPTION,
  MODIFIERS_DESCRIPTION,
  ROLE_DESCRIPTION,
  coordinate,
  dragDurationParam,
  elementIndexParam,
  mouseButtonParam,
  flag,
  nameList,
  nonEmptyText,
  scrollLines,
  size,
  toolInput,
  wholeNumber,
} from './params.js';

export const MAX_WAIT_MS = LIMITS.waitMs;

/** Fields that name a click target, shared by click_and_traverse and the click step. */
export const clickTargetShape = {
  x: coordinate('x').optional().describe('X of the click in screen points, from the tree (x:N). Alone with y it is the exact click point; with width and height, the top-left of the rectangle whose centre is clicked.'),
  y: coordinate('y').optional().describe('Y of the click in screen points, from the tree (y:N).'),
  width: size('width').optional().describe('Width of the element (w:N from the tree); with height, the click lands at the centre of the rectangle.'),
  height: size('height').optional().describe('Height of the element (h:N from the tree).'),
  element: nonEmptyText('element').optional().describe('Instead of x/y: case-insensitive text of the element to click, part of its name (a field\'s label) or value, e.g. "Save". Among matches, what can be clicked or typed into wins over static text (a field over its label when typing follows); the answer says which when two share a name. Scrolled into view first.'),
  element_index: elementIndexParam().optional().describe('Instead of x/y: the element index from the latest tree of this pid (the #N its tree or diff line starts with).'),
  role: nonEmptyText('role').optional().describe(ROLE_DESCRIPTION),
  doubleClick: flag('doubleClick').optional().describe('Double-click instead of a single click.'),
  rightClick: flag('rightClick').optional().describe('Right-click (context menu) instead of a left click.'),
};

const modifierList = (name: string) => nameList(name, '["command","shift"]');

const clickStepSchema = toolInput(
  {
    action: z.literal('click'),
    ...clickTargetShape,
    modifiers: modifierList('modifiers').optional().describe('Modifier keys held during the click, e.g. ["shift"] to extend a selection.'),
  },
  'A click step',
);

const typeStepSchema = toolInput(
  {
    action: z.literal('type'),
    text: nonEmptyText('text', 'To clear a field, press backspace or use set_value_and_traverse. Split longer text over several steps or calls.', LIMITS.typedChars).describe(`Text to type at the keyboard focus (at most ${LIMITS.typedChars} characters).`),
  },
  'A type step',
);

const pressStepSchema = toolInput(
  {
    action: z.literal('press'),
    keyName: nonEmptyText('keyName', '', LIMITS.keyNameChars).describe(`Key to press: ${KEY_DESCRIPTION}`),
    modifierFlags: modifierList('modifierFlags').optional().describe(MODIFIERS_DESCRIPTION),
  },
  'A press step',
);

/** A shortcut as a list of keys, modifiers first: ["ctrl","shift","t"]. */
export function hotkeyKeys(name: string) {
  return nameList(name, '["ctrl","shift","t"]')
    .min(1, { error: () => `${name} is empty: send the modifiers then the key, e.g. ["ctrl","s"].` })
    .describe(`The shortcut: modifier names first, the key last, e.g. ["ctrl","shift","t"] or ["command","s"]. ${MODIFIERS_DESCRIPTION} Keys: ${KEY_DESCRIPTION}`);
}

const hotkeyStepSchema = toolInput(
  {
    action: z.literal('hotkey'),
    keys: hotkeyKeys('keys'),
  },
  'A hotkey step',
);

const scrollStepSchema = toolInput(
  {
    action: z.literal('scroll'),
    x: coordinate('x').describe('X of the point to scroll at (inside the scrollable area).'),
    y: coordinate('y').describe('Y of the point to scroll at.'),
    deltaY: scrollLines('deltaY').describe(`Lines (at most ${LIMITS.scrollLines} either way): positive reveals content below, negative content above.`),
    deltaX: scrollLines('deltaX').optional().describe('Lines: positive reveals content to the right.'),
  },
  'A scroll step',
);

/** One end of a drag step: like a click step's target (tree coordinates, an element by text or index). */
const dragStepEnd = (end: 'from' | 'to') =>
  toolInput(
    {
      x: coordinate('x').optional().describe(`X of the drag's ${end === 'from' ? 'start (where the button is pressed)' : 'end (where it is released)'} in screen points, from the tree (x:N).`),
      y: coordinate('y').optional().describe('Y in screen points, from the tree (y:N).'),
      element: nonEmptyText('element').optional().describe('Instead of x/y: text of the element (its centre), as in a click step.'),
      element_index: elementIndexParam().optional().describe('Instead of x/y: the element index from the latest tree of this pid.'),
      role: nonEmptyText('role').optional().describe(ROLE_DESCRIPTION),
    },
    `A drag step's "${end}"`,
  );

const dragStepSchema = toolInput(
  {
    action: z.literal('drag'),
    from: dragStepEnd('from'),
    to: dragStepEnd('to'),
    duration_ms: dragDurationParam().optional().describe(`Press to release, in ms (default ${DEFAULT_DRAG_MS}, at most ${LIMITS.dragMs}).`),
    button: mouseButtonParam().optional().describe('The button held: "left" (default), "right" or "middle".'),
    modifiers: modifierList('modifiers').optional().describe('Modifier keys held during the drag, e.g. ["control"] to copy instead of move.'),
  },
  'A drag step',
);

const waitStepSchema = toolInput(
  {
    action: z.literal('wait'),
    ms: wholeNumber('ms', { min: 0, max: MAX_WAIT_MS }).describe(`Milliseconds to wait for the app (at most ${MAX_WAIT_MS}).`),
  },
  'A wait step',
);

const STEP_ACTIONS = ['click', 'type', 'press', 'hotkey', 'scroll', 'drag', 'wait'] as const;

export const STEPS_EXAMPLE =
  '[{"action":"click","element":"Search","role":"text"},{"action":"type","text":"invoice"},{"action":"press","keyName":"return"}]';

export const stepSchema = z.discriminatedUnion('action', [clickStepSchema, typeStepSchema, pressStepSchema, hotkeyStepSchema, scrollStepSchema, dragStepSchema, waitStepSchema], {
  error: () => `Each step needs "action": one of ${STEP_ACTIONS.join(', ')}. Example: ${STEPS_EXAMPLE}`,
});

export type StepInput = z.output<typeof stepSchema>;

export const stepsParam = z
  .array(stepSchema, { error: () => `steps must be an array of step objects, e.g. ${STEPS_EXAMPLE}` })
  .min(1, { error: () => `steps is empty: leave it out or send at least one step, e.g. ${STEPS_EXAMPLE}` })
  .max(LIMITS.steps, { error: () => `steps takes at most ${LIMITS.steps} steps per call: split the work over several calls.` })
  .optional()
  .describe(
    `Optional ordered steps run after this tool's own action, inside the same guarded transaction (one snapshot before, one diff after). ` +
      `Each step is an object with "action": click {x,y[,width,height] | element[,role] | element_index, doubleClick?, rightClick?, modifiers?}, ` +
      `type {text}, press {keyName, modifierFlags?}, hotkey {keys: ["ctrl","s"]}, scroll {x, y, deltaY, deltaX?}, drag {from, to: each {x,y} | {element[,role]} | {element_index}, duration_ms?, button?, modifiers?}, wait {ms ≤ ${MAX_WAIT_MS}}. Example: ${STEPS_EXAMPLE}`,
  );

export interface ElementFields {
  element?: string;
  element_index?: number;
  role?: string;
}

/** element / element_index / role → a core query; null when none of them was sent. */
export function elementQuery(fields: ElementFields): ElementQuery | null {
  const { element, element_index: index, role } = fields;
  if (element === undefined && index === undefined) {
    if (role !== undefined) {
      throw new TandemError('bad-input', `role "${role}" only filters an element search: send element (its text) or element_index too.`);
    }
    return null;
  }
  if (element !== undefined && index !== undefined) {
    throw new TandemError('bad-input', 'Send element (text) or element_index, not both.');
  }
  const query: ElementQuery = {};
  if (element !== undefined) query.text = element;
  if (index !== undefined) query.index = index;
  if (role !== undefined) query.role = role;
  return query;
}

/** Like elementQuery, for tools where a target is mandatory. */
export function requiredElementQuery(fields: ElementFields, tool: string): ElementQuery {
  const query = elementQuery(fields);
  if (!query) {
    throw new TandemError('bad-input', `${tool} needs a target: element (its text, e.g. "Bold") or element_index (from the tree), optionally with role.`);
  }
  return query;
}

export type ClickFields = ElementFields & {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  doubleClick?: boolean;
  rightClick?: boolean;
  modifiers?: string[];
};

export function hasClickTarget(fields: ClickFields): boolean {
  // role counts, so a role sent alone gets its own message rather than "say where to click".
  return [fields.x, fields.y, fields.element, fields.element_index, fields.role].some((field) => field !== undefined);
}

export function clickStep(fields: ClickFields): ClickStep {
  const { x, y, width, height } = fields;
  const query = elementQuery(fields);
  const hasPoint = x !== undefined || y !== undefined;
  if (hasPoint && query) {
    throw new TandemError('bad-input', 'Send either x and y (a point from the tree) or element / element_index, not both.');
  }
  if (fields.doubleClick && fields.rightClick) {
    throw new TandemError('bad-input', 'Send doubleClick or rightClick, not both.');
  }
  const base = {
    kind: 'click' as const,
    button: fields.rightClick ? ('right' as const) : ('left' as const),
    count: fields.doubleClick ? (2 as const) : (1 as const),
    modifiers: normalizeModifiers(fields.modifiers),
  };
  if (query) {
    if (width !== undefined || height !== undefined) {
      throw new TandemError('bad-input', 'width and height go with x and y, not with element.');
    }
    return { ...base, target: { query } };
  }
  if (x === undefined || y === undefined) {
    if (!hasPoint) {
      throw new TandemError('bad-input', 'Say where to click: x and y from the tree (optionally width and height to click the centre), or element (its text), or element_index.');
    }
    throw new TandemError('bad-input', `Send both x and y (${x === undefined ? 'x' : 'y'} is missing).`);
  }
  if ((width === undefined) !== (height === undefined)) {
    throw new TandemError('bad-input', 'Send width and height together (the w: and h: of the tree line), or neither to click exactly at x,y.');
  }
  const point = width !== undefined && height !== undefined ? { x: x + width / 2, y: y + height / 2 } : { x, y };
  return { ...base, target: { point } };
}

export function typeStep(text: string): TypeStep {
  if (text.length === 0) throw new TandemError('bad-input', 'text is empty: send the characters to type.');
  return { kind: 'type', text };
}

/** keyName / modifierFlags → a press step, checked by core's one step validation (names as sent, put in canonical form there). */
export function pressStep(keyName: string, modifierNames?: string[]): PressStep {
  return normalizeStep({ kind: 'press', key: keyName, modifiers: (modifierNames ?? []) as Modifier[] }, 0) as PressStep;
}

/** ["ctrl","shift","t"] → press t with ctrl+shift held. */
export function hotkeyStep(keys: readonly string[]): PressStep {
  if (keys.length === 0) throw new TandemError('bad-input', 'keys is empty: send the modifiers then the key, e.g. ["ctrl","s"].');
  const key = keys[keys.length - 1];
  try {
    return pressStep(key, keys.slice(0, -1));
  } catch (error) {
    const failure = toTandemError(error);
    throw new TandemError('bad-input', `keys ${JSON.stringify(keys).slice(0, 80)}: ${failure.message} Modifiers come first, the one key last, e.g. ["ctrl","shift","t"].`);
  }
}

export function scrollStep(fields: { x: number; y: number; deltaY: number; deltaX?: number }): ScrollStep {
  if (fields.deltaY === 0 && !fields.deltaX) {
    throw new TandemError('bad-input', 'deltaY (and deltaX) are 0: send a number of lines, positive to reveal content below, negative above.');
  }
  return { kind: 'scroll', target: { point: { x: fields.x, y: fields.y } }, deltaY: fields.deltaY, deltaX: fields.deltaX ?? 0 };
}

/** A drag step's end in a `steps` chain: tree coordinates or an element, like a click step's target. */
function stepDragEnd(fields: ElementFields & { x?: number; y?: number }, end: 'from' | 'to'): ClickTarget {
  const query = elementQuery(fields);
  const hasPoint = fields.x !== undefined || fields.y !== undefined;
  if (query && hasPoint) throw new TandemError('bad-input', `${end}: send x and y, or element / element_index, not both.`);
  if (query) return { query };
  if (fields.x === undefined || fields.y === undefined) {
    throw new TandemError('bad-input', `${end}: say where, e.g. {"x":120,"y":340} from the tree, {"element":"Volume"} or {"element_index":12}.`);
  }
  return { point: { x: fields.x, y: fields.y } };
}

/** A drag from one pointer target to another (the drag tool and the drag step). */
export function dragStep(from: ClickTarget, to: ClickTarget, fields: { duration_ms?: number; button?: MouseButton; modifiers?: string[] }): DragStep {
  const step = { kind: 'drag', from, to, button: fields.button ?? 'left', modifiers: (fields.modifiers ?? []) as Modifier[], durationMs: fields.duration_ms ?? DEFAULT_DRAG_MS } as const;
  return normalizeStep(step, 0) as DragStep;
}

function stepFromInput(input: StepInput): Step {
  switch (input.action) {
    case 'click':
      return clickStep(input);
    case 'type':
      return typeStep(input.text);
    case 'hotkey':
      return hotkeyStep(input.keys);
    case 'press':
      return pressStep(input.keyName, input.modifierFlags);
    case 'scroll':
      return scrollStep(input);
    case 'drag':
      return dragStep(stepDragEnd(input.from, 'from'), stepDragEnd(input.to, 'to'), input);
    case 'wait':
      return { kind: 'wait', ms: input.ms };
  }
}

/** Converts `steps`, naming the failing step in the error ("steps[2] (press): Unknown key…"). */
export function stepsFromInput(inputs: readonly StepInput[] | undefined): Step[] {
  return (inputs ?? []).map((input, index) => {
    try {
      return stepFromInput(input);
    } catch (error) {
      const tandemError = toTandemError(error);
      throw new TandemError(tandemError.code, `steps[${index}] (${input.action}): ${tandemError.message}`, tandemError.details);
    }
  });
}

/** The shared tail of click/type/press: optional type → press → steps. */
export function followUpSteps(fields: { text?: string; pressKey?: string; pressKeyModifiers?: string[]; steps?: StepInput[] }): Step[] {
  const steps: Step[] = [];
  if (fields.text !== undefined) steps.push(typeStep(fields.text));
  if (fields.pressKey !== undefined) steps.push(pressStep(fields.pressKey, fields.pressKeyModifiers));
  else if (fields.pressKeyModifiers !== undefined) {
    throw new TandemError('bad-input', 'pressKeyModifiers needs pressKey (the key to press with them).');
  }
  steps.push(...stepsFromInput(fields.steps));
  return steps;
}
