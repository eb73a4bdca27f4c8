// Any failure as an isError result whose text tells the model what to send next. The engine's
// message says what went wrong (it already lists running apps, candidates…); the guidance here
// adds the next move for each error class. The server never dies on input.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toTandemError, type ErrorCode } from '../core/errors.js';
import { quoteText } from '../core/treeFormat.js';
import { notAccessibleHint, notAccessibleMessage, unreadableFrom } from './notAccessible.js';

const GUIDANCE: Record<ErrorCode, string> = {
  'bad-input': 'Fix the arguments as described and call again.',
  'unknown-app': 'Use a pid from list_applications. To start an app, call open_application_and_traverse with its exact name, bundle/desktop id or path.',
  'app-gone': 'The app quit. Open it again with open_application_and_traverse and use the new pid.',
  'not-responding': 'The app stopped taking in input (it may be hung or very busy); nothing more was sent. Call refresh_traversal {pid} in a few seconds to see what it received before trying again.',
  'guard-lost': "Tandem could no longer hold the person's keyboard and mouse, so it stopped: nothing more was sent. Call refresh_traversal {pid} to see the state; if it repeats, ask the person to run `tandem doctor`.",
  'not-accessible': 'The app exposes nothing to read: it must be restarted, which the person has to agree to.',
  'not-found': 'Call refresh_traversal {pid} and grep the tree file for the exact text, then retry with that text, its element_index, or its x/y/width/height.',
  'stale-element': 'That element_index is from an older tree. Call refresh_traversal {pid} and use the index from the new file, or target the element by its text.',
  unsupported: 'This element or platform cannot do that: try a different tool (e.g. click_and_traverse instead of press_ax_and_traverse).',
  permission: 'Tandem lacks an OS permission or a display. Ask the person to run `tandem doctor` in a terminal and follow its remedies.',
  timeout: 'The app did not answer in time. Call refresh_traversal {pid} to see its current state before retrying.',
  cancelled: 'The person pressed Esc and took back control. Do not retry on your own: ask them whether and how to continue.',
  watchdog: 'The safety watchdog gave control back to the person because the action ran too long. Check the state with refresh_traversal, then ask before retrying; split long work into shorter calls.',
  paused: 'The person has paused agent control in the Tandem app. Read-only tools (refresh_traversal, list_applications) still work; ask them to resume.',
  busy: 'Another action is running. Wait for it to finish, then call again.',
  internal: 'Tandem hit an internal error. Call refresh_traversal {pid} to check the app state; if it repeats, tell the person.',
};

export function guidanceFor(code: string): string {
  return GUIDANCE[code as ErrorCode] ?? GUIDANCE.internal;
}

/** The next move for errors whose details say more than their code (details.reason). */
const REASON_GUIDANCE: Record<string, string> = {
  'line-breaks-in-single-line': 'Nothing was typed. Send the lines one at a time (press_key "return" between them only where the app should get Enter), or mode "keys" to type Return for each line break.',
  'no-target': 'Nothing was typed: no element has the keyboard focus. Send element_index of the field (from get_window_state or the tree file).',
  'not-editable': 'Nothing was typed: that element is not an editable field (or it is disabled). Pick a field from the tree (get_window_state {pid, query: "text"}).',
  'no-editable-text': 'Nothing was typed: that field takes no text inserted through accessibility. Send mode "keys" (or "auto") to type it.',
  'no-accessible-window': 'That window has no part in the app\'s accessibility tree (its title and place match none of the app\'s frames). Call get_window_state without window_id for the whole app.',
};

export function reasonGuidance(details: Record<string, unknown> | undefined): string | undefined {
  return typeof details?.reason === 'string' ? REASON_GUIDANCE[details.reason] : undefined;
}

/** A not-found window's details: the windows the pid has, to pick from. */
function windowLines(details: Record<string, unknown> | undefined, message: string): string[] {
  const windows = details?.windows;
  if (!Array.isArray(windows) || /windows:/i.test(message)) return [];
  const listed = windows.slice(0, 20).map((window: unknown) => {
    if (typeof window === 'number') return `window_id ${window}`;
    const { windowId, title } = (window ?? {}) as { windowId?: unknown; title?: unknown };
    return `window_id ${String(windowId)}${typeof title === 'string' ? ` ${quoteText(title, '"', 80)}` : ''}`;
  });
  return [`windows: ${listed.join(', ') || 'none'}`];
}

interface Candidate {
  role?: unknown;
  text?: unknown;
  index?: unknown;
}

/** Candidates from a not-found error's details, when the message does not list them already. */
function candidateLines(details: Record<string, unknown> | undefined, message: string): string[] {
  const candidates = details?.candidates;
  if (!Array.isArray(candidates) || candidates.length === 0) return [];
  if (/candidate|closest|did you mean/i.test(message)) return [];
  const lines = candidates.slice(0, 8).map((candidate: unknown) => {
    if (typeof candidate === 'string') return `  ${candidate}`;
    const c = candidate as Candidate;
    const index = typeof c.index === 'number' ? ` element_index:${c.index}` : '';
    return `  [${String(c.role ?? '?')}] ${quoteText(String(c.text ?? ''), '"', 80)}${index}`;
  });
  return ['candidates:', ...lines];
}

/** Lines shared by thrown errors and non-ok CallResults. */
export function errorLines(code: string, message: string, details?: Record<string, unknown>): string[] {
  return [`error: ${code}: ${message}`, ...candidateLines(details, message), ...windowLines(details, message)];
}

/** A thrown error (TandemError or anything else) as the tool's isError result. */
export function errorResult(error: unknown): CallToolResult {
  const tandemError = toTandemError(error);
  if (tandemError.code === 'internal') {
    // Unexpected: keep the stack for whoever reads the server's stderr.
    console.error('[tandem] internal error in a tool call:', error);
  }
  const status = tandemError.code === 'cancelled' || tandemError.code === 'watchdog' ? tandemError.code : 'error';
  const unreadable = tandemError.code === 'not-accessible' ? unreadableFrom(tandemError.details) : null;
  if (unreadable) {
    const lines = [`status: ${status}`, `error: not-accessible: ${notAccessibleMessage(unreadable)}`, `reason: ${unreadable.reason}`, `pid: ${unreadable.pid}`, `hint: ${notAccessibleHint(unreadable)}`];
    return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
  }
  const lines = [
    `status: ${status}`,
    ...errorLines(tandemError.code, tandemError.message, tandemError.details),
    `hint: ${reasonGuidance(tandemError.details) ?? guidanceFor(tandemError.code)}`,
  ];
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
}
