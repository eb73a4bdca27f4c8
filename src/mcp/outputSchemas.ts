// The declared output schemas: structuredContent carries the same facts as the text lines, with
// the same snake_case keys, for clients that read structured results.

import { z } from 'zod';

export const callResultOutput = z.object({
  status: z.enum(['ok', 'cancelled', 'watchdog', 'error']).describe('ok, or why the call did not finish.'),
  tool: z.string(),
  pid: z.number().describe('The target app.'),
  app: z.string(),
  file: z.string().optional().describe('Tree (open/refresh) or diff (actions) file: grep it.'),
  file_bytes: z.number().optional(),
  element_count: z.number().describe('Elements in the tree.'),
  visible_elements: z.number(),
  screenshot: z.string().optional().describe('PNG of the window; a crosshair marks the click point.'),
  summary: z.string().describe('One line: what changed.'),
  text_changes: z
    .array(z.object({ role: z.string(), field: z.literal('value').optional(), name: z.string().optional(), before: z.string(), after: z.string() }))
    .describe('Labels that changed, and values (field "value": typed text, numbers, choices) with the label of their element in name.'),
  app_switch: z
    .object({ pid: z.number(), app: z.string(), file: z.string().optional() })
    .optional()
    .describe('Another app took the front (a dialog, a launched app): act on this pid next.'),
  launched: z
    .array(z.object({ pid: z.number(), app: z.string() }))
    .optional()
    .describe('Processes the action started that showed no window yet: refresh_traversal their pid later.'),
  choices: z
    .array(
      z.object({
        step: z.number().describe('1-based step.'),
        element_index: z.number(),
        role: z.string(),
        name: z.string(),
        over: z.object({ element_index: z.number(), role: z.string(), name: z.string() }).describe('The best of the other elements with the same label.'),
        reason: z.enum(['visible', 'enabled', 'editable', 'interactive', 'actionable', 'label', 'exact', 'shorter', 'first']),
        why: z.string(),
        matched: z.number().describe('Elements the query matched, the chosen one included.'),
      }),
    )
    .optional()
    .describe('Steps whose element text matched several elements with the same label: the one used (element_index in the tree the call read first), and why.'),
  typed_by: z
    .array(
      z.object({
        step: z.number().describe('1-based step.'),
        method: z.enum(['insertion', 'keys']),
        reason: z.enum(['mode', 'no-target', 'not-editable', 'no-editable-text']).optional().describe('Why keys rather than insertion.'),
        element_index: z.number().optional(),
        role: z.string().optional(),
        name: z.string().optional(),
      }),
    )
    .optional()
    .describe('type_text: whether the text was inserted through accessibility or typed as keys, into which element, and why keys.'),
  steps: z.array(z.string()).describe('Steps completed, in order.'),
  steps_total: z.number(),
  human_input_blocked: z.number().describe("The person's key/pointer events held back during the call."),
  input_leaked: z.number().optional().describe("Times the guard let go for a moment during the call: the person's input then reached the apps."),
  settled: z.literal(false).optional().describe('false: the app was still changing when the settle bound ran out; absent when it settled.'),
  watchdog: z.boolean().describe('The watchdog gave control back before the call finished.'),
  truncated: z.string().optional(),
  restore: z.object({
    cursor: z.boolean(),
    frontmost: z.enum(['restored', 'not-needed', 'skipped-handoff', 'failed']),
  }),
  duration_ms: z.number(),
  hint: z.string().optional().describe('What to do next.'),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
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
  duration_ms: z.number(),
  hint: z.string(),
});

export type KillOutput = z.output<typeof killOutput>;
