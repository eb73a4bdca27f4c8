// The declared output schemas: structuredContent carries the same facts as the text lines, with
// the same snake_case keys, for clients that read structured results.

import { z } from 'zod';

export const callResultOutput = z.object({
  status: z.enum(['ok', 'cancelled', 'watchdog', 'error']),
  tool: z.string(),
  pid: z.number(),
  app: z.string(),
  file: z.string().optional(),
  file_bytes: z.number().optional(),
  element_count: z.number(),
  visible_elements: z.number(),
  screenshot: z.string().optional(),
  summary: z.string(),
  // Nested facts are declared as objects only: their keys are the text lines' keys, and their
  // full shapes repeated in every acting tool would cost each model turn kilobytes (issue 19).
  text_changes: z.array(z.looseObject({})),
  renumbered: z.number().optional(),
  revision: z.number().optional(),
  outside_changes: z.looseObject({}).optional(),
  person: z.looseObject({}).optional(),
  app_switch: z.looseObject({ pid: z.number() }).optional(),
  launched: z.array(z.looseObject({})).optional(),
  // The target app quit during the call: how many steps had run (the rest were not).
  app_exited: z.number().optional(),
  choices: z.array(z.looseObject({})).optional(),
  typed_by: z.array(z.looseObject({})).optional(),
  text_missing: z.array(z.looseObject({})).optional(),
  confirmed: z.array(z.looseObject({})).optional(),
  steps: z.array(z.string()),
  steps_total: z.number(),
  human_input_blocked: z.number(),
  input_leaked: z.number().optional(),
  settled: z.literal(false).optional(),
  no_effect_within_ms: z.number().optional(),
  watchdog: z.boolean(),
  truncated: z.string().optional(),
  restore: z.looseObject({}),
  background: z.literal(true).optional(),
  duration_ms: z.number(),
  hint: z.string().optional(),
  error: z.looseObject({ code: z.string() }).optional(),
});

export type CallResultOutput = z.output<typeof callResultOutput>;

export const applicationsOutput = z.object({
  apps: z.array(z.object({ pid: z.number(), name: z.string(), id: z.string().optional() })),
  count: z.number(),
});

export type ApplicationsOutput = z.output<typeof applicationsOutput>;

const boundsOutput = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const windowsOutput = z.object({
  windows: z.array(
    z.object({
      window_id: z.number(),
      pid: z.number(),
      app: z.string(),
      title: z.string(),
      bounds: boundsOutput.nullable(),
      z_order: z.number().optional(),
      on_screen: z.boolean().optional(),
    }),
  ),
  count: z.number(),
});

export type WindowsOutput = z.output<typeof windowsOutput>;

export const cursorOutput = z.object({ x: z.number(), y: z.number() });

export const permissionsOutput = z.object({
  checks: z.array(z.object({ id: z.string(), title: z.string(), state: z.string(), detail: z.string(), remedy: z.string().optional() })),
  all_granted: z.boolean(),
});

export type PermissionsOutput = z.output<typeof permissionsOutput>;

export const zoomOutput = z.object({
  pid: z.number(),
  window_id: z.number(),
  width: z.number(),
  height: z.number(),
  points_per_pixel: z.number(),
  region: boundsOutput,
});

export type ZoomOutput = z.output<typeof zoomOutput>;

export const displaysOutput = z.object({
  displays: z.array(z.object({ id: z.number(), bounds: boundsOutput, scale: z.number(), primary: z.boolean(), pixel_width: z.number(), pixel_height: z.number() })),
  count: z.number(),
});

export type DisplaysOutput = z.output<typeof displaysOutput>;

const windowOutput = windowsOutput.shape.windows.element;

export const launchOutput = z.object({
  status: z.literal('ok'),
  pid: z.number().describe('The app: use it with every other tool.'),
  app: z.string(),
  id: z.string().optional(),
  started: z.enum(['new', 'already-running', 'handed-over']).describe('new: a process was started; already-running: nothing was started; handed-over: the new process passed its arguments to the running instance and exited.'),
  windows: z.array(windowOutput).describe('Its top-level windows, frontmost first (as list_windows).'),
  front: z.enum(['not-asked', 'kept', 'restored', 'failed']).describe("background: whether the person's front window stayed or was put back in front."),
  settled: z.literal(false).optional(),
  file: z.string().optional().describe("The app's tree, read once it arrived: grep it."),
  screenshot: z.string().optional(),
  element_count: z.number().optional(),
  revision: z.number().optional(),
  duration_ms: z.number(),
  hint: z.string(),
});

export type LaunchOutput = z.output<typeof launchOutput>;

export const killOutput = z.object({
  status: z.enum(['exited', 'asking', 'still-running']),
  pid: z.number(),
  app: z.string(),
  how: z.enum(['close', 'terminate', 'kill']).describe('close: asked politely, as its close button would; terminate: SIGTERM; kill: SIGTERM then SIGKILL.'),
  unsaved_work_may_be_lost: z.boolean(),
  windows_asked: z.number().optional().describe('Top-level windows sent the polite close request.'),
  dialog: z
    .object({
      window_id: z.number().optional(),
      title: z.string(),
      elements: z.array(z.object({ element_index: z.number(), line: z.string() })).describe('The question and its buttons, as tree lines (element_index for click).'),
    })
    .optional()
    .describe('asking: the question the app put up instead of quitting. Nothing was pressed in it.'),
  windows: z.array(windowOutput).describe('Its windows still open.'),
  file: z.string().optional().describe("The app's tree after the request (still running)."),
  screenshot: z.string().optional(),
  revision: z.number().optional(),
  duration_ms: z.number(),
  hint: z.string(),
});

export type KillOutput = z.output<typeof killOutput>;
