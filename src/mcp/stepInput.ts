// The `steps` parameter (an ordered list run inside one guarded transaction) in two dialects:
// run_steps speaks the driver tools' field names (key, modifiers, button, count), the reference
// tools' `steps` keep the seeds' names (keyName, modifierFlags, doubleClick, rightClick) for the
// clients written for them. Also the conversion of every tool's input into core Step objects. Keys and
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

/** Where a click lands: a tree point (or the centre of a tree box), or an element. */
const pointOrElementShape = {
  x: coordinate('x').optional().describe('Screen x as the tree prints it (x:N); with width and height, the centre of that box.'),
  y: coordinate('y').optional(),
  width: size('width').optional(),
  height: size('height').optional(),
  element: nonEmptyText('element').optional().describe('Instead of x/y: part of its name or value, e.g. "Save".'),
  element_index: elementIndexParam().optional(),
  role: nonEmptyText('role').optional().describe(ROLE_DESCRIPTION),
};

/** Fields that name a click target, shared by click_and_traverse and its click step. */
export const clickTargetShape = {
  ...pointOrElementShape,
  doubleClick: flag('doubleClick').optional(),
  rightClick: flag('rightClick').optional(),
};

/** click_and_traverse's own target fields, each described (a step's fields go without, to keep the list small). */
export const describedClickTargetShape = {
  ...clickTargetShape,
  y: pointOrElementShape.y.describe('Screen y as the tree prints it (y:N).'),
  width: pointOrElementShape.width.describe('The w: of the tree line.'),
  height: pointOrElementShape.height.describe('The h: of the tree line.'),
  element_index: pointOrElementShape.element_index.describe('From the latest tree of this pid.'),
  doubleClick: clickTargetShape.doubleClick.describe('true: a double click.'),
  rightClick: clickTargetShape.rightClick.describe('true: a right click.'),
};

const modifierList = (name: string) => nameList(name, '["command","shift"]');

const referenceClickStepSchema = toolInput(
  {
    action: z.literal('click'),
    ...clickTargetShape,
    modifiers: modifierList('modifiers').optional(),
  },
  'A click step',
);

const driverClickStepSchema = toolInput(
  {
    action: z.literal('click'),
    ...pointOrElementShape,
    button: mouseButtonParam().optional(),
    count: wholeNumber('count', { min: 1, max: 2 }).optional(),
    modifiers: modifierList('modifiers').optional(),
  },
  'A click step',
);

const typeStepSchema = toolInput(
  {
    action: z.literal('type'),
    text: nonEmptyText('text', 'To clear a field, select its text and press backspace, or set its value to an empty string. Split longer text over several steps or calls.', LIMITS.typedChars),
  },
  'A type step',
);

const referencePressStepSchema = toolInput(
  {
    action: z.literal('press'),
    keyName: nonEmptyText('keyName', '', LIMITS.keyNameChars),
    modifierFlags: modifierList('modifierFlags').optional(),
  },
  'A press step',
);

const driverPressStepSchema = toolInput(
  {
    action: z.literal('press'),
    key: nonEmptyText('key', '', LIMITS.keyNameChars),
    modifiers: modifierList('modifiers').optional(),
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
    keys: nameList('keys', '["ctrl","shift","t"]').min(1, { error: () => 'keys is empty: send the modifiers then the key, e.g. ["ctrl","s"].' }),
  },
  'A hotkey step',
);

const scrollStepSchema = toolInput(
  {
    action: z.literal('scroll'),
    x: coordinate('x'),
    y: coordinate('y'),
    deltaY: scrollLines('deltaY'),
    deltaX: scrollLines('deltaX').optional(),
  },
  'A scroll step',
);

/** One end of a drag step: like a click step's target (tree coordinates, an element by text or index). */
const dragStepEnd = (end: 'from' | 'to') =>
  toolInput(
    {
      x: coordinate('x').optional(),
      y: coordinate('y').optional(),
      element: nonEmptyText('element').optional(),
      element_index: elementIndexParam().optional(),
      role: nonEmptyText('role').optional(),
    },
    `A drag step's "${end}"`,
  );

const dragStepSchema = toolInput(
  {
    action: z.literal('drag'),
    from: dragStepEnd('from'),
    to: dragStepEnd('to'),
    duration_ms: dragDurationParam().optional(),
    button: mouseButtonParam().optional(),
    modifiers: modifierList('modifiers').optional(),
  },
  'A drag step',
);

const waitStepSchema = toolInput(
  {
    action: z.literal('wait'),
    ms: wholeNumber('ms', { min: 0, max: MAX_WAIT_MS }),
  },
  'A wait step',
);

const STEP_ACTIONS = ['click', 'type', 'press', 'hotkey', 'scroll', 'drag', 'wait'] as const;

/** The reference tools' steps (the seeds' field names). */
export const STEPS_EXAMPLE =
  '[{"action":"click","element":"Search","role":"text"},{"action":"type","text":"invoice"},{"action":"press","keyName":"return"}]';

/** run_steps' steps (the driver tools' field names). */
export const RUN_STEPS_EXAMPLE =
  '[{"action":"click","element":"Search","role":"text"},{"action":"type","text":"invoice"},{"action":"press","key":"return"}]';

const referenceStepSchema = z.discriminatedUnion('action', [referenceClickStepSchema, typeStepSchema, referencePressStepSchema, hotkeyStepSchema, scrollStepSchema, dragStepSchema, waitStepSchema], {
  error: () => `Each step needs "action": one of ${STEP_ACTIONS.join(', ')}. Example: ${STEPS_EXAMPLE}`,
});

const driverStepSchema = z.discriminatedUnion('action', [driverClickStepSchema, typeStepSchema, driverPressStepSchema, hotkeyStepSchema, scrollStepSchema, dragStepSchema, waitStepSchema], {
  error: () => `Each step needs "action": one of ${STEP_ACTIONS.join(', ')}. Example: ${RUN_STEPS_EXAMPLE}`,
});

export type StepInput = z.output<typeof referenceStepSchema> | z.output<typeof driverStepSchema>;

function stepsListOf<Step extends z.ZodType>(step: Step, example: string) {
  return z
    .array(step, { error: () => `steps must be an array of step objects, e.g. ${example}` })
    .min(1, { error: () => `steps is empty: leave it out or send at least one step, e.g. ${example}` })
    .max(LIMITS.steps, { error: () => `steps takes at most ${LIMITS.steps} steps per call: split the work over several calls.` })
    .describe(
      `In order, in one call. x,y: screen points as the tree prints them; with width,height the centre of that box. ` +
        `Example: ${example}`,
    );
}

/** The steps list, required, in the driver tools' field names: run_steps' argument. */
export const stepsList = stepsListOf(driverStepSchema, RUN_STEPS_EXAMPLE);

/** The optional steps that follow a reference tool's own action, in the seeds' field names. */
export const stepsParam = stepsListOf(referenceStepSchema, STEPS_EXAMPLE).optional();

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
  button?: MouseButton;
  count?: number;
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
    button: fields.button ?? (fields.rightClick ? ('right' as const) : ('left' as const)),
    count: fields.count === 2 || fields.doubleClick ? (2 as const) : (1 as const),
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
      return 'key' in input ? pressStep(input.key, input.modifiers) : pressStep(input.keyName, input.modifierFlags);
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
