// open and refresh (and bring_to_front): resolve the app, read its tree and capture its window
// together, explain an unreadable app, write the tree file and the screenshot. No guard, nothing
// moves. Failures are thrown (nothing was disturbed) after a call-finished event.

import type { CallRecord } from './callRecord.js';
import { emptyResult, failedReadResult } from './callResults.js';
import type { CallContext } from '../engineApi.js';
import { TandemError, toTandemError } from '../errors.js';
import type { TreeSnapshot, WindowInfo } from '../model.js';
import { createProgress, type Progress } from '../progress.js';
import { explainUnreadable, readWithContent } from '../apps/readability.js';
import { encodeEarly, pngToWrite } from '../artifacts/earlyPng.js';
import { secureAreas } from '../tree/redact.js';
import type { CallResult } from './result.js';
import type { TransactionDeps } from './callState.js';
import { formatTree } from '../tree/treeFormat.js';
import { windowSubtree } from '../tree/windowChoice.js';
import { readRevisionFacts } from '../revisions/callRevisions.js';

/** What an engine call that runs no transaction needs of the engine. */
export type EngineCallDeps = Pick<TransactionDeps, 'desktop' | 'guard' | 'snapshots' | 'revisions' | 'personNotes' | 'options'>;

/** What a read call reads: the app, and the one window when the caller named one. */
export interface ReadTarget {
  pid: number;
  app: string;
  verb: string;
  window?: WindowInfo;
}

/**
 * open/refresh: resolve the app, read its tree (no guard, nothing moves), write the tree file
 * and a screenshot. Failures are thrown (nothing was disturbed) after a call-finished event.
 */
export async function readCall(
  deps: EngineCallDeps,
  record: CallRecord,
  context: CallContext,
  args: Record<string, unknown>,
  pid: number | undefined,
  resolve: (progress: Progress) => Promise<ReadTarget>,
): Promise<CallResult> {
  const options = deps.options;
  const now = options.now;
  const log = record.log;
  const progress = createProgress({ signal: context.signal, timeoutMs: options.watchdogMs, log, now });
  record.start(pid, args);
  try {
    const target = await resolve(progress);
    record.app = target.app;
    // The window is captured and encoded while its tree is read: the capture waits on the X
    // server, the tree on the app, so the answer waits for the longer one only.
    const window = target.window;
    const capturing = deps.desktop
      .screenshot(window ? { pid: target.pid, windowId: window.windowId } : { pid: target.pid }, progress)
      .then(encodeEarly, (error: unknown) => {
        if (progress.signal.aborted) throw error;
        log(`no screenshot: ${toTandemError(error).message}`);
        return undefined;
      });
    const limits = options.snapshotLimits;
    const whole = await readWithContent(deps.desktop, target.pid, limits, progress).finally(() => capturing.catch(() => {}));
    // Windows on screen with nothing readable in them: say so, rather than hand over an empty tree.
    const unreadable = await explainUnreadable(deps.desktop, target.pid, whole, progress);
    if (unreadable) throw unreadable;
    const snapshot = window ? windowPart(whole, window) : whole;
    deps.snapshots.set(snapshot);
    const early = await capturing;
    const png = early ? await pngToWrite(early, secureAreas(snapshot.elements)) : undefined;
    const written = await record.writeFiles({ text: formatTree(snapshot), png });
    return record.finish({ ...treeResult(record.tool, target, snapshot), file: written.textPath, fileBytes: written.textBytes, screenshot: written.pngPath, ...readRevisionFacts(deps, whole) });
  } catch (error) {
    const failure = toTandemError(error);
    record.finish(failedReadResult(record.tool, pid, failure));
    throw failure;
  }
}

/** One window's part of the tree (its element_index values are the ones handed out). */
export function windowPart(snapshot: TreeSnapshot, window: WindowInfo): TreeSnapshot {
  const part = windowSubtree(snapshot, window);
  if (part) return part;
  const frames = snapshot.elements.filter((el) => el.depth === 1).map((el) => ({ role: el.role, name: el.text }));
  throw new TandemError('not-found', `window ${window.windowId} of pid ${snapshot.pid} is not in its accessibility tree.`, {
    pid: snapshot.pid,
    windowId: window.windowId,
    reason: 'no-accessible-window',
    title: window.title,
    frames,
  });
}

export function treeResult(tool: string, target: { pid: number; app: string; verb: string }, snapshot: TreeSnapshot): Omit<CallResult, 'durationMs'> {
  const visible = snapshot.elements.filter((el) => el.visible).length;
  return {
    ...emptyResult(tool, target.pid),
    app: target.app,
    elementCount: snapshot.elements.length,
    visibleElements: visible,
    summary: `${target.app} ${target.verb}: ${snapshot.elements.length} elements, ${visible} visible`,
    ...(snapshot.truncated ? { truncated: { pid: target.pid, ...snapshot.truncated } } : {}),
  };
}
