// The answer of an acting call: its summary, the artifact text and screenshot written to disk,
// the handoff tree, and the CallResult that carries the facts.

import { formatDiff, summarizeDiff, textChanges } from '../tree/diff.js';
import { errorFacts, toTandemError, type TandemError } from '../errors.js';
import type { AppSwitch, CallResult, CallStatus } from './result.js';
import { formatTree } from '../tree/treeFormat.js';
import { screenshotPngToWrite } from './afterAction.js';
import type { CallState, UnframedResult } from './callState.js';

/** The person's answer before a confirm_before press, in the call's file. */
const CONFIRM_ANSWERS = { enter: 'allowed by the person (Enter)', esc: 'refused by the person (Esc), not pressed', watchdog: 'not answered before the watchdog, not pressed' } as const;

/** The exit of the target, as a fact: whose, and after which step. */
function exitFact(state: CallState): string {
  const ran = state.exitedAfterStep ?? state.stepsDone.length;
  const total = state.steps.length;
  return `${state.appName} (pid ${state.request.pid}) exited after ${ran === total ? 'its last step' : `${ran} of ${total} step${total === 1 ? '' : 's'}`}; no tree after it`;
}

export function callSummary(state: CallState, status: CallStatus): string {
  const changes = state.appExited ? exitFact(state) : state.diff ? summarizeDiff(state.diff) : 'changes unknown (the tree could not be read again)';
  if (status === 'ok') return changes;
  const done = `${state.stepsDone.length} of ${state.steps.length} step${state.steps.length === 1 ? '' : 's'}`;
  const what = status === 'cancelled' ? 'cancelled' : status === 'watchdog' ? 'stopped by the watchdog' : 'failed';
  return `${what} after ${done}; ${changes}`;
}

export function artifactText(state: CallState, status: CallStatus, summary: string): string {
  const lines = [
    `# ${state.request.tool}  pid: ${state.request.pid}  app: ${state.appName}  status: ${status}`,
    `# steps: ${state.options.describeSteps(state.stepsDone) || '(none completed)'}`,
    `# summary: ${summary}`,
  ];
  for (const { step, element, by } of state.confirmations) lines.push(`# confirmed: step ${step + 1} ${element}: ${CONFIRM_ANSWERS[by]}`);
  if (state.handoff) lines.push(`# app_switch: pid ${state.handoff.frontmost.pid} (${state.handoff.frontmost.app}) took the front`);
  lines.push('# diff: "+ added or shown", "- removed or hidden" (closed, or now covered by a window above), "~ changed" elements (coordinates-only moves left out)');
  if (state.appExited) return `${lines.join('\n')}\n(the app exited: no tree after it, no diff)\n`;
  if (!state.diff) return `${lines.join('\n')}\n(the tree could not be read again after the failure)\n`;
  return `${lines.join('\n')}\n${formatDiff(state.diff) || '(no changes)\n'}`;
}

export async function buildResult(state: CallState, status: CallStatus, failure: TandemError | null, restore: CallResult['restore']): Promise<UnframedResult> {
  const tree = state.after ?? state.before.snapshot;
  const summary = callSummary(state, status);
  let file: string | undefined;
  let fileBytes: number | undefined;
  let screenshot: string | undefined;
  let appSwitch: AppSwitch | undefined;
  let handoffTree: string | undefined;
  try {
    const written = await state.record.writeFiles({ text: artifactText(state, status, summary), png: await screenshotPngToWrite(state) });
    file = written.textPath;
    fileBytes = written.textBytes;
    screenshot = written.pngPath;
  } catch (error) {
    state.log(`could not write the artifacts: ${toTandemError(error).message}`);
  }
  if (state.handoff) {
    const { pid, app } = state.handoff.frontmost;
    appSwitch = { pid, app };
    if (state.handoff.snapshot) {
      handoffTree = formatTree(state.handoff.snapshot);
      try {
        appSwitch.file = (await state.record.writeFiles({ text: handoffTree }, `${state.request.tool}_handoff`)).textPath;
      } catch (error) {
        state.log(`could not write the handoff tree: ${toTandemError(error).message}`);
      }
    }
  }
  const truncatedTree = [tree, state.handoff?.snapshot].find((s) => s?.truncated);
  const result: UnframedResult = {
    status,
    tool: state.request.tool,
    pid: state.request.pid,
    app: state.appName,
    file,
    fileBytes,
    elementCount: tree.elements.length,
    visibleElements: tree.elements.filter((el) => el.visible).length,
    screenshot,
    summary,
    textChanges: state.diff ? textChanges(state.diff) : [],
    ...(state.diff?.renumbered ? { renumbered: state.diff.renumbered } : {}),
    diff: state.diff ? formatDiff(state.diff) : undefined,
    appSwitch,
    handoffTree,
    ...(state.launchedWithoutWindow.length ? { launched: state.launchedWithoutWindow.map(({ pid, name }) => ({ pid, app: name })) } : {}),
    ...(state.choices.size ? { choices: [...state.choices.values()].sort((a, b) => a.step - b.step) } : {}),
    ...(state.textEntries.length ? { textEntries: [...state.textEntries] } : {}),
    ...(state.keysNotShown.length ? { keysNotShown: [...state.keysNotShown] } : {}),
    ...(state.confirmations.length ? { confirmed: [...state.confirmations] } : {}),
    stepsDone: [...state.stepsDone],
    stepsTotal: state.steps.length,
    humanInputBlocked: state.session?.humanInputBlocked ?? 0,
    ...(state.session?.inputLeakedCount ? { inputLeaked: state.session.inputLeakedCount } : {}),
    watchdogFired: state.session?.watchdogFired ?? status === 'watchdog',
    ...(truncatedTree?.truncated ? { truncated: { pid: truncatedTree.pid, ...truncatedTree.truncated } } : {}),
    ...(state.appExited ? { appExited: true, exitedAfterStep: state.exitedAfterStep ?? state.stepsDone.length } : {}),
    ...(state.settled === false ? { settled: false } : {}),
    ...(status === 'cancelled' ? { cancelledBy: state.session?.escapePressed ? ('person' as const) : ('caller' as const) } : {}),
    restore,
    ...(state.background ? { background: true as const } : {}),
  };
  if (failure) result.error = errorFacts(failure);
  return result;
}

