// Parameter schemas shared by the tools. The SDK validates arguments against these before a
// handler runs and returns zod's message to the model as an isError result, so every field
// carries its own message saying what to send instead (zod's default, "Invalid input: expected
// number, received string", names neither the parameter nor where its value comes from).

import { z } from 'zod';
import type { ActRequest } from '../core/engineApi.js';
import { LIMITS } from '../core/limits.js';

interface Issue {
  code: string;
  input?: unknown;
  keys?: string[];
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The message for any issue on one parameter: missing, wrong type or out of range. */
function complaint(name: string, expected: string, hint = ''): (issue: Issue) => string {
  const tail = hint ? ` ${hint}` : '';
  return (issue) =>
    issue.input === undefined
      ? `${name} is required: send ${expected}.${tail}`
      : `${name} must be ${expected}, not ${preview(issue.input)}.${tail}`;
}

export function wholeNumber(name: string, options: { min?: number; max?: number; hint?: string } = {}): z.ZodNumber {
  const range =
    options.min !== undefined && options.max !== undefined
      ? ` from ${options.min} to ${options.max}`
      : options.min !== undefined
        ? ` ≥ ${options.min}`
        : '';
  const error = complaint(name, `a whole number${range}`, options.hint);
  let schema = z.number({ error }).int({ error });
  if (options.min !== undefined) schema = schema.min(options.min, { error });
  if (options.max !== undefined) schema = schema.max(options.max, { error });
  return schema;
}

const thousands = (value: number): string => value.toLocaleString('en-US');

export function coordinate(name: string, hint = 'Take it from a tree line (x:N y:N), never from screenshot pixels.'): z.ZodNumber {
  const error = complaint(name, `a number of screen points from −${thousands(LIMITS.coordinate)} to ${thousands(LIMITS.coordinate)}`, hint);
  return z.number({ error }).finite({ error }).min(-LIMITS.coordinate, { error }).max(LIMITS.coordinate, { error });
}

export function size(name: string): z.ZodNumber {
  const error = complaint(name, `a positive number of points up to ${thousands(LIMITS.size)} (the w:/h: of a tree line)`);
  return z.number({ error }).positive({ error }).max(LIMITS.size, { error });
}

/** Wheel lines: a whole number within ±LIMITS.scrollLines. */
export function scrollLines(name: string, hint = ''): z.ZodNumber {
  return wholeNumber(name, { min: -LIMITS.scrollLines, max: LIMITS.scrollLines, hint: `${hint} For more, scroll again after reading the tree.`.trim() });
}

export function elementIndexParam(): z.ZodNumber {
  return wholeNumber('element_index', { min: 0, max: LIMITS.elementIndex, hint: 'Take it from the latest tree of this pid.' });
}

/** A string of 1 to `maxChars` characters (UTF-16 code units, as JSON counts them). */
export function nonEmptyText(name: string, hint = '', maxChars: number = LIMITS.queryChars): z.ZodString {
  const error = complaint(name, `a non-empty string of at most ${thousands(maxChars)} characters`, hint);
  return z.string({ error }).min(1, { error }).max(maxChars, { error });
}

export function anyText(name: string, hint = '', maxChars: number = LIMITS.queryChars): z.ZodString {
  const error = complaint(name, `a string of at most ${thousands(maxChars)} characters`, hint);
  return z.string({ error }).max(maxChars, { error });
}

export function flag(name: string): z.ZodBoolean {
  return z.boolean({ error: complaint(name, 'true or false') });
}

/** How long a drag takes, press to release. */
export function dragDurationParam(): z.ZodNumber {
  return wholeNumber('duration_ms', { min: 0, max: LIMITS.dragMs, hint: 'Slower drags suit apps that follow the pointer closely.' });
}

const MOUSE_BUTTONS = ['left', 'right', 'middle'] as const;

export function mouseButtonParam(name = 'button') {
  return z.enum(MOUSE_BUTTONS, { error: complaint(name, 'one of "left", "right", "middle"') });
}

/** A window of the app, by the id list_windows gives. */
export function windowIdParam(): z.ZodNumber {
  return wholeNumber('window_id', { min: 0, max: LIMITS.windowId, hint: 'Take it from list_windows.' });
}

/** `inline`, on every tool whose answer names files (see inlineContent.ts). */
export function inlineParam(): z.ZodOptional<z.ZodBoolean> {
  return flag('inline')
    .optional()
    .describe('true: screenshot and diff/tree text inline.');
}

/**
 * The parameters every acting tool takes besides its own: `background` (accessibility alone, the
 * person keeps their input) and `if_revision` (act only on the tree the caller read).
 */
export const actingShape = {
  background: flag('background')
    .optional()
    .describe("true: by accessibility alone; the person keeps working."),
  if_revision: wholeNumber('if_revision', { min: 0, max: LIMITS.revision, hint: "Take it from the revision of this pid's latest tree." })
    .optional()
    .describe("Do nothing unless the app is still at this revision."),
};

/** The acting parameters as core's ActRequest takes them. */
export function actingFields(args: { background?: boolean; if_revision?: number }): Pick<ActRequest, 'background' | 'ifRevision'> {
  return { ...(args.background !== undefined ? { background: args.background } : {}), ...(args.if_revision !== undefined ? { ifRevision: args.if_revision } : {}) };
}

export function nameList(name: string, examples: string): z.ZodArray<z.ZodString> {
  const error = complaint(name, `an array of at most ${LIMITS.modifiers} strings such as ${examples}`);
  return z.array(z.string({ error }).max(LIMITS.keyNameChars, { error }), { error }).max(LIMITS.modifiers, { error });
}

// Read before the handler runs (the SDK's validation answers it): it names tools of every profile.
export const PID_HINT = 'Use a pid from list_applications, or the one a launch answered.';

export function pidParam(): z.ZodNumber {
  return wholeNumber('pid', { min: 1, max: LIMITS.pid, hint: PID_HINT }).describe('Process id.');
}

export const MODIFIERS_DESCRIPTION =
  'Keys held, e.g. ["ctrl","shift"]: shift, control (ctrl), alt (option), meta (command, super), fn.';

export const KEY_DESCRIPTION =
  'return, tab, escape, space, backspace, delete, up, down, left, right, pageup, pagedown, home, end, insert, f1–f12, or one character ("a").';

export const ROLE_DESCRIPTION =
  'Role filter: part of the tree\'s [Role], e.g. "button", "text".';

/**
 * A tool's arguments object. Strict, so a misspelt optional parameter ("presskey") is reported
 * instead of being silently ignored.
 */
export function toolInput<Shape extends z.ZodRawShape>(shape: Shape, owner = 'This tool'): z.ZodObject<Shape, z.core.$strict> {
  const accepted = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue: Issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown parameter${issue.keys && issue.keys.length > 1 ? 's' : ''} ${(issue.keys ?? []).map((key) => `"${key}"`).join(', ')}. ${owner} takes: ${accepted}.`
        : `${owner} needs a JSON object with: ${accepted}.`,
  });
}
