// Any failure as an isError result whose text tells the model what to send next. The engine's
// message says what went wrong (it lists running apps, candidates…); the words for the next move
// are written here only, per error code and, where a case needs its own, per details.reason.
// The server never dies on input.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorFacts, toTandemError, type ErrorCode } from '../core/errors.js';
import type { Reason, ReasonKey } from '../core/reasons.js';
import { quoteText } from '../core/tree/treeFormat.js';
import { notAccessibleHint, notAccessibleMessage, unreadableFrom } from './notAccessible.js';

const GUIDANCE: Record<ErrorCode, string> = {
  'bad-input': 'Fix the arguments as described and call again.',
  'unknown-app': 'Use a pid from list_applications. To start an app, call open_application_and_traverse with its exact name, bundle/desktop id or path.',
  'app-gone': 'The app quit. Open it again with open_application_and_traverse and use the new pid.',
  'not-responding': 'The app stopped taking in input (it may be hung or very busy); nothing more was sent. Call refresh_traversal {pid} in a few seconds to see what it received before trying again.',
  'guard-lost': "Tandem could no longer hold the person's keyboard and mouse, so it stopped: nothing more was sent. Call refresh_traversal {pid} to see the state; if it repeats, ask the person to run `tandem doctor`.",
  'guard-unavailable': "Tandem cannot hold the person's keyboard and mouse right now, so it sent nothing. Tell the person why (the message says) and ask them to call again once it is fixed; if it repeats, ask them to run `tandem doctor`.",
  'not-accessible': 'The app exposes nothing to read: it must be restarted, which the person has to agree to.',
  'not-found': 'Call refresh_traversal {pid} and grep the tree file for the exact text, then retry with that text, its element_index, or its x/y/width/height.',
  'stale-element': 'That element_index is from an older tree. Call refresh_traversal {pid} and use the index from the new file, or target the element by its text.',
  unsupported: 'This element or platform cannot do that: try a different tool (e.g. click_and_traverse instead of press_ax_and_traverse).',
  permission: 'Tandem lacks an OS permission or a display. Ask the person to run `tandem doctor` in a terminal and follow its remedies.',
  timeout: 'The app did not answer in time. Call refresh_traversal {pid} to see its current state before retrying.',
  cancelled: 'The person pressed Esc and took back control. Do not retry on your own: ask them whether and how to continue.',
  watchdog: 'The safety watchdog gave control back to the person because the action ran too long. Check the state with refresh_traversal, then ask before retrying; split long work into shorter calls.',
  declined: 'Nothing was pressed: the person refused this press when Tandem asked them (it is in their confirm_before list). Do not retry it on your own and do not reach it another way: ask the person what they want, or do something else.',
  paused: 'The person has paused agent control in the Tandem app. Read-only tools (refresh_traversal, list_applications) still work; ask them to resume.',
  changed: 'Nothing was done: the app changed since the revision you sent (the person or the app itself did it; the lines above say what). Check that the action still fits, then send it again with if_revision set to the revision above.',
  busy: 'Another action is running. Wait for it to finish, then call again.',
  internal: 'Tandem hit an internal error. Call refresh_traversal {pid} to check the app state; if it repeats, tell the person.',
};

/**
 * The next move where a case of an error code (its `details.reason`, set by core or a backend)
 * needs other words than the code's GUIDANCE. Total over core's reasons (core/reasons.ts): a case
 * core adds without words here, or words for a case core dropped, fails the build. `null` says
 * on purpose that the code's GUIDANCE fits the case.
 */
const GUIDANCE_BY_REASON: Record<ReasonKey, string | null> = {
  'bad-input/pid': 'Take the pid from list_applications, or start the app with open_application_and_traverse to get its pid.',
  'bad-input/window-id': 'Take the window_id from list_windows {pid}.',
  'bad-input/no-query': 'Say which element: send text (part of its label), role, or element_index from the latest tree.',
  'bad-input/no-tree': "Read the app first (refresh_traversal {pid} or get_window_state {pid}) and take the element_index from that tree, or send the element's text instead.",
  'bad-input/key': 'Send one of the named keys or a single character; put modifiers in the modifiers list, not in the key name.',
  'bad-input/modifier': 'Send modifiers from that list.',
  'bad-input/zoom-region': 'Send a region inside the window, in screen points as the tree prints them (list_windows gives its bounds).',
  'bad-input/zoom-pixel': 'Send a pixel inside the last zoom image, or zoom again on the part you need.',
  'bad-input/value-rejected': 'Check the element and the value (its type and range) in the tree, then try again.',
  'not-found/no-window': 'Take a window_id from list_windows {pid}.',
  'not-found/no-zoom': 'Call zoom {pid, region} first, then click with from_zoom: true and a pixel of that image.',
  'not-found/outside-window': 'Point inside the window, or name the element by its text.',
  'not-found/no-position': 'Use press_ax_and_traverse (action "press") or set_selected_and_traverse on it instead.',
  'not-found/hidden-in-view': 'Open its container first, or use press_ax_and_traverse on it.',
  'not-found/scroll-limit': 'Scroll closer with scroll {pid, …} and call refresh_traversal, or use press_ax_and_traverse / set_selected_and_traverse on it.',
  'not-found/vanished': 'Call refresh_traversal {pid} and try again with the element from the new tree.',
  'stale-element/reused': 'Nothing was pressed: the element you saw under that element_index is gone and the index now names another. If the message names the index of one that looks like it and that is the one you meant, send that; else call refresh_traversal {pid} and take the index from the new file.',
  'unsupported/no-position': 'Use press_ax_and_traverse (action "press") or set_selected_and_traverse on it instead.',
  'unsupported/not-on-screen': 'Scroll it into view first (scroll over its list, then read the window again), then drag from the element_index in the new tree.',
  'unsupported/no-position-to-type': 'Send mode "auto" to insert the text through accessibility, or bring the field into view and try again.',
  'unsupported/window-off-screen': 'Bring the window on screen (bring_to_front {pid, window_id}) and try again.',
  'unsupported/device-grabbed': "Another program holds the keyboard or mouse (an open menu or a drag, often): wait a moment and call again; if it repeats, ask the person to close open menus.",
  'unsupported/value-refused': 'Nothing was set: the element takes no value through accessibility. For a text field call type_text {pid, element_index, text, replace: true} (not in the background); anything else, click.',
  'unsupported/focus-not-in-field': 'Nothing was typed. Read the window (get_window_state {pid}) to see where the focus went, click the field itself, then call type_text with replace: true again.',
  'bad-input/number-expected': 'Send the value as digits, e.g. "42" or "0.5".',
  'unsupported/selection-refused': 'Click it instead.',
  'unsupported/radio-off': 'Select the radio button that should be on instead.',
  'bad-input/key-not-on-keyboard': 'Type it as text instead, or send a named key (return, tab, escape, arrows, f1–f12…) or a US-keyboard character.',
  'unsupported/no-composite': 'Capture the whole screen instead (the app\'s window cannot be captured alone here).',
  'unsupported/element-property': 'Click or type into it instead, or pick another element from the tree.',
  'unsupported/element-action': 'Click it at its coordinates instead (click_and_traverse).',
  'unsupported/not-implemented': 'Use clicks and typing at coordinates instead.',
  'permission/artifacts-dir': 'Tandem cannot keep its files there: ask the person to remove that path or set TANDEM_ARTIFACTS_DIR to a private folder, then restart Tandem.',
  'guard-unavailable/secure-input': "Nothing was sent: secure keyboard entry is on (a password field has the focus, or Terminal's Secure Keyboard Entry is on), which hides Esc from Tandem. Ask the person to leave the password field or turn Secure Keyboard Entry off, then call again; do not type passwords through Tandem.",
  'guard-unavailable/guard-thread-stuck': "Tandem's input guard stopped answering, so it refuses to act until it is restarted. Ask the person to restart Tandem, then call again.",
  'guard-lost/secure-input': "Tandem stopped: secure keyboard entry came on during the call (a password field took the focus), which hides Esc from Tandem. Call refresh_traversal {pid} to see the state, and ask the person to leave the password field before trying again; do not type passwords through Tandem.",
  'permission/accessibility-off': 'Ask the person to grant Accessibility to Tandem in System Settings › Privacy & Security › Accessibility (`tandem doctor` checks it), then try again.',
  'permission/screen-recording-off': "Ask the person to turn Tandem on in System Settings › Privacy & Security › Screen Recording, then to quit and reopen Tandem (macOS applies this grant only from Tandem's next start; the Set up window's Relaunch button does both), then try again. `tandem doctor` checks it. Trees and actions work without it.",
  'timeout/open-no-app': 'Call list_applications to see what is running.',
  'timeout/open-no-tree': 'Call refresh_traversal with its pid in a moment.',
  'bad-input/line-breaks-in-single-line': 'Nothing was typed. Send the lines one at a time (press_key "return" between them only where the app should get Enter), or mode "keys" to type Return for each line break.',
  'unsupported/no-target': 'Nothing was typed: no element has the keyboard focus. Send element_index of the field (from get_window_state or the tree file).',
  'unsupported/not-editable': 'Nothing was typed: that element is not an editable field (or it is disabled). Pick a field from the tree (get_window_state {pid, query: "text"}).',
  'unsupported/insertion-ignored': 'Nothing went in: this app (Firefox and other Gecko apps) answers text set through accessibility with success but never shows it. Type it as keys: type_text {pid, element_index, text} in the default mode (not in the background).',
  'unsupported/no-position-for-keys': 'Nothing was typed: that field takes its text only as keys, and it has no position on screen to click before typing. Scroll it into view (scroll {pid, …}), read the window again (get_window_state {pid}), then type into the element_index of the new tree.',
  'unsupported/no-editable-text': 'Nothing was typed: that field takes no text inserted through accessibility. Send mode "keys" (or "auto") to type it.',
  'not-found/no-accessible-window': "That window has no part in the app's accessibility tree (its title and place match none of the app's frames). Call get_window_state without window_id for the whole app.",
  'bad-input/protected-pid': 'kill_app never closes Tandem, the MCP client, the processes they run under or init: take the pid of the app to close from list_windows.',
  'unknown-app/no-window-app': 'kill_app only closes apps with a window on this desktop: take the pid from list_windows.',
  'bad-input/no-settings': 'Send at least one setting in settings, e.g. {"settings":{"watchdog_ms":15000}}; get_config lists them with their ranges.',
  'bad-input/config-unreadable': 'Ask the person to fix or delete that file, then send set_config again.',
  'permission/config-dir': 'Ask the person to remove that path or set TANDEM_CONFIG_DIR to a private folder of theirs, then try again.',
  'unsupported/client-unknown': 'Ask the person to close the app themselves, or to use Tandem through `tandem mcp --direct`, where the client is known.',
  'bad-input/command-runner': 'launch_app starts apps, not shells or interpreters: name the app itself (its .desktop name or its program path). To run a command, ask the person.',
  'cancelled/caller': 'The call was cancelled before it finished; call refresh_traversal to see the current state.',
  'bad-input/app-target': 'Send exactly one of name, id or path.',
  'bad-input/no-app-named': 'Send the app to open: a name ("Calculator"), a bundle/desktop id or a path.',
  'bad-input/no-steps': 'Send at least one step.',
  'bad-input/step-kind': 'Use click, type, type-text, press, scroll, drag, wait, element-action, set-value or set-selected.',
  'bad-input/wait-too-long': 'Split the work into several calls.',
  'bad-input/action-unknown': 'Send one of the actions listed, or a raw AX action name such as "AXPress".',
  'app-gone/exited-at-launch':
    'The app exited as it started: read its exit code and its last stderr lines above (it may need another argument, a setting or a running service). Fix that and launch it again; its pid is gone, do not act on it.',
  'unknown-app/no-program': 'launch_app takes the absolute path of an executable or of a .desktop file.',
  'unknown-app/open-failed': 'Send an app name (e.g. "TextEdit"), a bundle id (e.g. "com.apple.TextEdit") or a path.',
  // notAccessible.ts writes the words for an unreadable app from its facts.
  'not-accessible/not-registered': null,
  'not-accessible/no-content': null,
  // Artifact reads (resources): the code's words fit.
  'not-found/missing': null,
  'not-found/blocked-by-dialog': 'Deal with the dialog first: its elements come first in the tree (click its button, or press Escape to close it).',
  'not-found/ambiguous': 'Send the element_index of the one you mean (the list names each window), or a role or longer text only it has.',
  'not-found/window-in-the-way': 'Nothing was clicked. Bring the target window to the front, move or close the window that is in the way, or act on the app that owns it.',
  'not-found/point-reaches-other': 'Nothing was clicked. The app reports this element where it does not draw it: find it in the screenshot and click x,y there, or use its keyboard shortcut.',
  'permission/symlink': null,
  'permission/foreign': null,
  'unsupported/refused': null,
  'unsupported/background-needs-input':
    'Send that step without background (it then runs in the foreground, holding the person\'s input for a moment), or reach the element through accessibility in the background: click by element_index, element_action, set_value, set_selected, or type_text with element_index.',
  'cancelled/person': null,
  'declined/esc': null,
  'declined/watchdog': 'Nothing was pressed: the person did not answer the question before the watchdog gave their keyboard back. Ask them whether they want it pressed before trying again.',
  'permission/person-only': 'Only the person can change this setting (it protects them from unasked presses). Tell them where (the message says) if they want it changed; do not try to get around it.',
};

/** The next move for an error: its case's words when it has its own, else its code's. */
export function guidanceFor(code: string, reason?: Reason): string {
  return (reason && GUIDANCE_BY_REASON[`${code}/${reason}` as ReasonKey]) || GUIDANCE[code as ErrorCode] || GUIDANCE.internal;
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

/** A `changed` refusal's details: the revision now and the diff lines from the one sent. */
function changedLines(code: string, details: Record<string, unknown> | undefined): string[] {
  if (code !== 'changed' || !details) return [];
  const lines = Array.isArray(details.diff) ? details.diff.filter((line): line is string => typeof line === 'string') : [];
  const count = typeof details.diffLines === 'number' ? details.diffLines : lines.length;
  const more = count > lines.length ? [`  … ${count - lines.length} more${typeof details.file === 'string' ? ` in ${details.file}` : ''}`] : [];
  return [
    `revision: ${String(details.revision)}`,
    ...(lines.length ? [`changes_since: revision ${String(details.since)}`, ...lines.map((line) => `  ${line}`), ...more] : []),
    ...(typeof details.file === 'string' ? [`file: ${details.file}`] : []),
  ];
}

/** The last lines a process that exited at launch wrote to stderr (its own words, one line each). */
function stderrLines(details: Record<string, unknown> | undefined): string[] {
  const stderr = details?.stderr;
  if (!Array.isArray(stderr) || stderr.length === 0) return [];
  return ['stderr:', ...stderr.filter((line): line is string => typeof line === 'string').map((line) => `  ${line}`)];
}

/** Lines shared by thrown errors and non-ok CallResults. */
export function errorLines(code: string, message: string, details?: Record<string, unknown>): string[] {
  return [`error: ${code}: ${message}`, ...changedLines(code, details), ...candidateLines(details, message), ...windowLines(details, message), ...stderrLines(details)];
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
    `hint: ${guidanceFor(tandemError.code, errorFacts(tandemError).reason)}`,
  ];
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
}
