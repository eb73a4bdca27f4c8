// launch_app and kill_app inside their call records: not guarded, no tree diff; refused after a
// late Esc like any action. What is started or closed, and how, is appLifecycle.ts.

import { checkKillTarget, killApp, launchApp, protectedPids, type KillOutcome, type LaunchOutcome } from './appLifecycle.js';
import type { CallRecord } from '../call/callRecord.js';
import type { LaunchRequest } from '../desktop.js';
import { failedReadResult, lifecycleResult } from '../call/callResults.js';
import type { CallContext } from '../engineApi.js';
import { TandemError, toTandemError } from '../errors.js';
import { createProgress } from '../progress.js';
import type { EngineCallDeps } from '../call/readCall.js';
import { secureAreas } from '../tree/redact.js';
import { formatTree } from '../tree/treeFormat.js';

/** Tool names of the lifecycle calls (the MCP tools of the same name). */
export const LAUNCH_TOOL = 'launch_app';
export const KILL_TOOL = 'kill_app';

export type LaunchAppResult = LaunchOutcome & { durationMs: number };
export type KillAppResult = KillOutcome & { file?: string; fileBytes?: number; screenshot?: string; revision?: number; durationMs: number };

/** Starts the app `request` names, in `record`. */
export async function recordedLaunch(deps: EngineCallDeps, record: CallRecord, request: LaunchRequest, context: CallContext): Promise<LaunchAppResult> {
  await deps.guard.refuseAfterLateEscape();
  const progress = createProgress({ signal: context.signal, timeoutMs: deps.options.watchdogMs, log: record.log, now: deps.options.now });
  record.start(undefined, { [request.kind]: request.value, args: request.args, urls: request.urls, background: request.background, new_instance: request.newInstance });
  try {
    const outcome = await launchApp(deps.desktop, request, deps.options.settle, progress);
    record.app = outcome.app.name;
    const verb = outcome.app.alreadyRunning ? 'already running' : outcome.app.handedOver ? 'handed to the running instance' : 'started';
    const call = record.finish(lifecycleResult(LAUNCH_TOOL, outcome.app.pid, outcome.app.name, `${outcome.app.name} ${verb}: ${outcome.windows.length} window(s)`));
    return { ...outcome, durationMs: call.durationMs };
  } catch (error) {
    const failure = toTandemError(error);
    record.finish(failedReadResult(LAUNCH_TOOL, undefined, failure));
    throw failure;
  }
}

/** Closes `pid` (politely, or by signals with `force`), in `record`. */
export async function recordedKill(deps: EngineCallDeps, record: CallRecord, pid: number, force: boolean, context: CallContext): Promise<KillAppResult> {
  await deps.guard.refuseAfterLateEscape();
  // Over a socket the client is another process tree: without its pid, nothing says which
  // processes are the person's MCP client, so nothing is closed.
  if (context.viaSocket && context.clientPid === undefined) {
    throw new TandemError('unsupported', "The connected client's process could not be identified (the socket gave no peer pid), so Tandem cannot tell which processes to spare when it closes an app.", { reason: 'client-unknown' });
  }
  const progress = createProgress({ signal: context.signal, timeoutMs: deps.options.watchdogMs, log: record.log, now: deps.options.now });
  // Refusals touch nothing: no events, no files.
  const protectedBy = await protectedPids(deps.desktop, process.pid, context.clientPid);
  const target = await checkKillTarget(deps.desktop, pid, protectedBy, progress);
  record.start(pid, { pid, force });
  record.app = target.app;
  try {
    const outcome = await killApp(deps.desktop, { pid, ...target }, force, { snapshot: (of) => deps.desktop.snapshot(of, deps.options.snapshotLimits, progress), settleOptions: deps.options.settle }, progress);
    let files: { file?: string; fileBytes?: number; screenshot?: string; revision?: number } = {};
    if (outcome.tree) {
      // element_index of the dialog's buttons works in the next call (a click on "Save"), and
      // its revision is the one an if_revision on that click names.
      deps.snapshots.set(outcome.tree);
      const revision = deps.revisions.handOut(outcome.tree);
      const screenshot = await deps.desktop.screenshot({ windowId: outcome.dialog?.windowId ?? outcome.windows[0]?.windowId, pid }, progress).catch(() => undefined);
      const written = await record.writeFiles({ text: formatTree(outcome.tree), screenshot, covered: secureAreas(outcome.tree.elements) });
      files = { file: written.textPath, fileBytes: written.textBytes, screenshot: written.pngPath, revision };
    }
    const call = record.finish({ ...lifecycleResult(KILL_TOOL, pid, target.app, `${target.app} ${outcome.status}${outcome.dialog ? `: ${outcome.dialog.title}` : ''}`), ...files });
    return { ...outcome, ...files, durationMs: call.durationMs };
  } catch (error) {
    const failure = toTandemError(error);
    record.finish(failedReadResult(KILL_TOOL, pid, failure));
    throw failure;
  }
}
