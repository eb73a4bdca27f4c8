// CallResult → what the model reads: compact `key: value` lines (empty keys left out), the same
// facts as structuredContent, and — after a handoff — the new app's tree as a second text item.
// The model is meant to read the summary, then grep the named file, not to get the tree inline.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunningApp } from '../core/model.js';
import { excerptChange } from '../core/tree/changeExcerpt.js';
import type { ChoiceReason } from '../core/tree/query.js';
import type { CallResult, ChoiceCandidate, KeysReason, TextEntry } from '../core/call/result.js';
import { quoteText } from '../core/tree/treeFormat.js';
import { artifactLink } from './artifactResources.js';
import { errorLines } from './errors.js';
import { nextMoveFor, truncationText } from './nextMove.js';
import type { ApplicationsOutput, CallResultOutput } from './outputSchemas.js';
import { describeStepDone, describeStepsDone } from './renderSteps.js';
import { revisionLines, structuredRevisions } from './renderRevisions.js';
import { noEffectLines, structuredNoEffect } from './renderNoEffect.js';
import { confirmedOutput, confirmedText } from './renderConfirmed.js';

/** Text changes listed inline; the rest are in the diff file. */
const MAX_TEXT_CHANGE_LINES = 12;
/** Characters of a changed value shown inline. */
const MAX_CHANGE_CHARS = 80;
/** Characters of a changed value in structuredContent. */
const MAX_STRUCTURED_CHANGE_CHARS = 2_000;

export function structuredCallResult(result: CallResult): CallResultOutput {
  const output: CallResultOutput = {
    status: result.status,
    tool: result.tool,
    pid: result.pid,
    app: result.app,
    element_count: result.elementCount,
    visible_elements: result.visibleElements,
    summary: result.summary,
    // Long values (a typed page) are cut here to the changed part; the diff file holds them whole.
    text_changes: result.textChanges.map(({ role, field, name, before, after }) => ({
      role,
      ...(field ? { field, name: name ?? '' } : {}),
      ...excerptChange(before, after, MAX_STRUCTURED_CHANGE_CHARS),
    })),
    steps: result.stepsDone.map(describeStepDone),
    steps_total: result.stepsTotal,
    human_input_blocked: result.humanInputBlocked,
    ...(result.inputLeaked ? { input_leaked: result.inputLeaked } : {}),
    ...(result.settled === false ? { settled: false } : {}),
    ...structuredNoEffect(result),
    watchdog: result.watchdogFired,
    ...(result.renumbered ? { renumbered: result.renumbered } : {}),
    restore: { cursor: result.restore.cursor, frontmost: result.restore.frontmost, ...(result.restore.menuClosed ? { menu_closed: true } : {}) },
    ...structuredRevisions(result),
    ...(result.background ? { background: true as const } : {}),
    duration_ms: Math.round(result.durationMs),
    ...confirmedOutput(result),
  };
  if (result.file) output.file = result.file;
  if (result.fileBytes !== undefined) output.file_bytes = result.fileBytes;
  if (result.screenshot) output.screenshot = result.screenshot;
  if (result.appSwitch) {
    output.app_switch = { pid: result.appSwitch.pid, app: result.appSwitch.app };
    if (result.appSwitch.file) output.app_switch.file = result.appSwitch.file;
  }
  if (result.appExited) output.app_exited = result.exitedAfterStep ?? result.stepsDone.length;
  if (result.launched?.length) output.launched = result.launched.map(({ pid, app }) => ({ pid, app }));
  if (result.choices?.length) {
    output.choices = result.choices.map((choice) => ({
      step: choice.step + 1,
      element_index: choice.chosen.index,
      role: choice.chosen.role,
      name: choice.chosen.name,
      over: { element_index: choice.over.index, role: choice.over.role, name: choice.over.name },
      reason: choice.reason,
      why: CHOICE_REASONS[choice.reason],
      matched: choice.matched,
    }));
  }
  if (result.textEntries?.length) {
    output.typed_by = result.textEntries.map((entry) => ({
      step: entry.step + 1,
      method: entry.method,
      ...(entry.reason ? { reason: entry.reason } : {}),
      ...(entry.element ? { element_index: entry.element.index, role: entry.element.role, name: entry.element.name } : {}),
      ...(entry.replaced ? { replaced: true } : {}),
      ...(entry.selectedAll ? { selected_all: entry.selectedAll } : {}),
      ...(entry.keptOtherText ? { kept_other_text: true } : {}),
      ...(entry.textMissing ? { text_missing: true } : {}),
    }));
  }
  if (result.keysNotShown?.length) output.text_missing = result.keysNotShown.map((typed) => ({ step: typed.step + 1, element_index: typed.element.index, role: typed.element.role, name: typed.element.name }));
  const truncated = truncationText(result);
  if (truncated) output.truncated = truncated;
  output.hint = nextMoveFor(result);
  if (result.error) output.error = { code: result.error.code, message: result.error.message };
  return output;
}

function fileSize(result: CallResult): string | undefined {
  const parts: string[] = [];
  if (result.fileBytes !== undefined) parts.push(`${result.fileBytes} bytes`);
  if (result.file || result.elementCount > 0) parts.push(`${result.elementCount} elements`);
  return parts.length ? parts.join(', ') : undefined;
}

function textChangeLines(result: CallResult): string[] {
  const changes = result.textChanges;
  if (!changes.length) return [];
  const shown = changes.slice(0, MAX_TEXT_CHANGE_LINES).map(({ role, field, name, before, after }) => {
    // Each entry says text or value: the summary counts them under those words.
    const which = field === 'value' ? `${role} ${quoteText(name ?? '', '"', MAX_CHANGE_CHARS)} value` : `${role} text`;
    // Around the change: in a long value the first characters are the same on both sides.
    const excerpt = excerptChange(before, after, MAX_CHANGE_CHARS);
    const quote = (text: string): string => quoteText(text, "'", MAX_CHANGE_CHARS * 2);
    return `  ${which}: ${quote(excerpt.before)} -> ${quote(excerpt.after)}`;
  });
  if (changes.length > shown.length) shown.push(`  … ${changes.length - shown.length} more in the file`);
  return ['changes:', ...shown];
}

function restoreText(result: CallResult): string | undefined {
  // Read-only calls move nothing, so there is nothing to report as put back.
  if (result.stepsTotal === 0) return undefined;
  const parts: string[] = [];
  // A background call never moved the pointer: there is nothing to put back.
  if (result.restore.cursor && !result.background) parts.push('cursor put back');
  switch (result.restore.frontmost) {
    case 'restored':
      parts.push(
        result.restore.menuClosed
          ? 'previous app brought back to the front, which closes the menu or list this call opened (its items are gone now): to choose from one, open it and choose in one call, as steps'
          : 'previous app brought back to the front',
      );
      break;
    case 'skipped-handoff':
      parts.push(`left ${result.appSwitch?.app ?? 'the new window'} in front for you`);
      break;
    case 'failed':
      parts.push('could not bring the previous app back to the front');
      break;
    case 'not-needed':
      break;
  }
  return parts.length ? parts.join(', ') : undefined;
}

function stepsText(result: CallResult): string | undefined {
  if (result.stepsTotal === 0 && result.stepsDone.length === 0) return undefined;
  const done = `${result.stepsDone.length}/${result.stepsTotal} done`;
  return result.stepsDone.length ? `${done}: ${describeStepsDone(result.stepsDone)}` : done;
}

function appSwitchText(result: CallResult): string | undefined {
  const appSwitch = result.appSwitch;
  if (!appSwitch) return undefined;
  const file = appSwitch.file ? ` file ${appSwitch.file}` : '';
  return `pid ${appSwitch.pid} app ${quoteText(appSwitch.app)}${file} — this app is now in front: act on pid ${appSwitch.pid} next (its tree follows)`;
}

/** Why the chosen element won over another with the same label (query.ts's criteria). */
export const CHOICE_REASONS: Record<ChoiceReason, string> = {
  unblocked: 'the other is in a window the open dialog blocks',
  visible: 'it is on screen, the other is hidden',
  enabled: 'it is enabled, the other is disabled',
  editable: 'text is typed next and it takes typing, the other does not',
  interactive: 'it can be clicked or typed into, the other is static text',
  actionable: 'it can be pressed, the other cannot',
  label: 'its label holds the text, the other only its value',
  exact: 'its label is exactly the text',
  shorter: 'its label is closer to the text',
  first: 'the two are alike, and it comes first in the tree',
};

function candidateText(candidate: ChoiceCandidate): string {
  const index = candidate.index === undefined ? '(gone)' : `#${candidate.index}`;
  return `${index} [${candidate.role}] ${quoteText(candidate.name, '"', MAX_CHANGE_CHARS)}`;
}

/** One line per step whose query matched several elements with one label: which, why, how to get the other. */
function choiceLines(result: CallResult): string[] {
  return (result.choices ?? []).map((choice) => {
    const other = choice.over.role !== choice.chosen.role
      ? `send role "${choice.over.role}" to use the other`
      : 'to use another, send its element_index';
    const matched = choice.matched > 2 ? `${choice.matched} elements matched` : 'two elements matched';
    return `chosen: step ${choice.step + 1} used ${candidateText(choice.chosen)}, not ${candidateText(choice.over)}: ${CHOICE_REASONS[choice.reason]} (${matched}; ${other})`;
  });
}

/** Why text went in as keys, in words. */
const KEYS_REASONS: Record<KeysReason, string> = {
  mode: 'mode "keys" asked for keys',
  'no-target': 'no element had the keyboard focus to insert into',
  'not-editable': 'the element is not editable (read-only or disabled)',
  'no-editable-text': 'the element takes no text inserted through accessibility',
  'insertion-ignored': 'the app answers text inserted through accessibility with success but never shows it (Gecko)',
};

function replacedHow(entry: TextEntry): string {
  return entry.selectedAll ? `; all the field held selected with ${entry.selectedAll} first` : '; the field emptied first';
}

function textEntryText(entry: TextEntry): string {
  const where = entry.element ? ` ${entry.method === 'insertion' ? 'into' : 'at'} ${candidateText(entry.element)}` : '';
  const how = entry.method === 'insertion'
    ? `step ${entry.step + 1} inserted through accessibility${where} (${entry.replaced ? 'one edit replacing all the field held' : 'one edit at the caret, replacing any selection'})`
    : `step ${entry.step + 1} typed as keys${where} (${KEYS_REASONS[entry.reason ?? 'mode']}${entry.replaced ? replacedHow(entry) : ''})`;
  if (entry.textMissing) return `${how}; but the field does not show the text sent: the app dropped or changed it, or the input went elsewhere — read the field before going on`;
  if (!entry.keptOtherText) return how;
  return entry.replaced
    ? `${how}; but the field still holds other text besides the text sent — read the field before going on`
    : `${how}; the field kept other text it had, so it holds more than the text sent (replace: true replaces all of it)`;
}

function launchedText(result: CallResult): string | undefined {
  if (!result.launched?.length) return undefined;
  return result.launched
    .map(({ pid, app }) => `pid ${pid} app ${quoteText(app)} started but has no window yet: call refresh_traversal {"pid": ${pid}} in a moment`)
    .join('; ');
}

/** The target app quit during the call: it is gone, not the call failed. */
function appExitedText(result: CallResult): string | undefined {
  if (!result.appExited) return undefined;
  const ran = result.exitedAfterStep ?? result.stepsDone.length;
  const steps = ran === result.stepsTotal ? `after its last step (${ran} of ${ran})` : `after ${ran} of ${result.stepsTotal} steps: the later steps were not run`;
  return `pid ${result.pid} (${result.app}) quit ${steps}; its pid is gone and there is no tree of it after the call`;
}

/** The `key: value` summary lines, in reading order; undefined values are left out. */
export function summaryLines(result: CallResult): string[] {
  const lines: string[] = [];
  const add = (key: string, value: string | number | undefined): void => {
    if (value === undefined || value === '') return;
    lines.push(`${key}: ${value}`);
  };
  add('status', result.status);
  if (result.error) lines.push(...errorLines(result.error.code, result.error.message, result.error.details));
  add('pid', result.pid);
  add('app', result.app);
  add('file', result.file);
  add('file_size', fileSize(result));
  add('hint', nextMoveFor(result));
  add('screenshot', result.screenshot);
  add('summary', result.summary);
  lines.push(...noEffectLines(result));
  lines.push(...revisionLines(result));
  if (result.settled === false) add('settled', 'no: the app was still changing when the wait for it ran out (settle_max_ms); the screenshot and diff may not show where it ends up, refresh_traversal in a moment shows it');
  lines.push(...textChangeLines(result));
  if (result.renumbered) add('renumbered', `${result.renumbered} elements have another element_index now: use the #N in this answer, or refresh, not an older tree's`);
  add('visible_elements', result.visibleElements);
  add('app_switch', appSwitchText(result));
  add('launched', launchedText(result));
  add('app_exited', appExitedText(result));
  add('steps', stepsText(result));
  if (result.background) add('background', "yes: through accessibility alone; the person kept their keyboard, pointer and front window");
  for (const confirmation of result.confirmed ?? []) add('confirmed', confirmedText(confirmation));
  for (const entry of result.textEntries ?? []) add('typed_by', textEntryText(entry));
  for (const typed of result.keysNotShown ?? []) add('text_missing', `step ${typed.step + 1}'s keys do not show in ${candidateText(typed.element)} after the call: they went elsewhere, or the app dropped or changed them — read the field before going on`);
  lines.push(...choiceLines(result));
  if (result.humanInputBlocked > 0) add('human_input_blocked', `${result.humanInputBlocked} key/pointer events from the person were held back`);
  if (result.inputLeaked) add('input_leaked', `the guard let go for a moment ${result.inputLeaked === 1 ? 'once' : `${result.inputLeaked} times`}: keys and clicks of the person's in those moments reached the apps, so the diff may hold changes that were not yours`);
  if (result.watchdogFired) add('watchdog', 'fired: control was given back to the person before the action finished');
  add('truncated', truncationText(result));
  add('restore', restoreText(result));
  add('duration_ms', Math.round(result.durationMs));
  return lines;
}

export function renderCallResult(result: CallResult): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: summaryLines(result).join('\n') }];
  if (result.appSwitch && result.handoffTree) {
    const header = `app_switch tree: pid ${result.appSwitch.pid} app ${quoteText(result.appSwitch.app)}`;
    content.push({ type: 'text', text: `${header}\n${result.handoffTree}` });
  }
  // The same files as resources, for clients that cannot read local files.
  if (result.file) content.push(artifactLink(result.file, result.stepsTotal > 0 ? 'diff' : 'tree', result.fileBytes));
  if (result.screenshot) content.push(artifactLink(result.screenshot, 'screenshot'));
  if (result.appSwitch?.file) content.push(artifactLink(result.appSwitch.file, 'handoff-tree'));
  const rendered: CallToolResult = { content, structuredContent: structuredCallResult(result) };
  if (result.status !== 'ok') rendered.isError = true;
  return rendered;
}

export function renderApplications(apps: readonly RunningApp[]): CallToolResult {
  const sorted = [...apps].sort((a, b) => a.name.localeCompare(b.name) || a.pid - b.pid);
  const structured: ApplicationsOutput = {
    apps: sorted.map(({ pid, name, id }) => (id ? { pid, name, id } : { pid, name })),
    count: sorted.length,
  };
  const lines = [
    'status: ok',
    `count: ${sorted.length}`,
    ...sorted.map(({ pid, name, id }) => `app: pid ${pid} ${quoteText(name)}${id && id !== name ? ` id ${quoteText(id)}` : ''}`),
    'hint: Pass a pid to refresh_traversal to read that app, or open_application_and_traverse {identifier} to start or focus one.',
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured };
}
