// Revisions in an acting call's lifecycle (callLifecycle.ts): before the guard, what changed in
// the app since the agent's last read of it — refused with `changed` when the call named the
// revision it expects (if_revision), else listed in the answer apart from the call's own diff —
// and, when the answer hands its tree out, that tree's revision and the person note of an
// earlier call.

import { TandemError } from '../errors.js';
import type { TreeSnapshot } from '../model.js';
import { formatDiff, summarizeDiff, type TreeDiff } from '../tree/diff.js';
import { redactStep } from '../tree/redact.js';
import { failedReadResult } from '../call/callResults.js';
import type { CallState } from '../call/callState.js';
import type { CallResult } from '../call/result.js';
import { isEmptyDiff } from './revisionStore.js';

/** Diff lines an answer carries inline (the file holds them all). */
export const MAX_INLINE_DIFF_LINES = 40;

/** Diff lines, at most MAX_INLINE_DIFF_LINES, and how many there are in all. */
export function diffLines(diff: TreeDiff): { lines: string[]; count: number } {
  const all = formatDiff(diff).split('\n').filter((line) => line !== '');
  return { lines: all.slice(0, MAX_INLINE_DIFF_LINES), count: all.length };
}

/**
 * Right after the before-snapshot, before anything is resolved or the guard engaged. With
 * if_revision: refuses (throws `changed`, nothing done) when the app's tree differs from that
 * revision's or the revision is not kept. Without: keeps the changes since the tree last handed
 * out, for the answer's outside changes.
 */
export async function checkRevision(state: CallState): Promise<void> {
  const { pid, ifRevision } = state.request;
  const now = state.before.snapshot;
  const revisions = state.deps.revisions;
  if (ifRevision === undefined) {
    const outside = revisions.changedSinceLatest(pid, now.elements);
    if (outside && !isEmptyDiff(outside)) state.outsideChanges = outside;
    return;
  }
  const since = revisions.diffSince(pid, ifRevision, now.elements);
  if (since && isEmptyDiff(since)) return;
  await refuseChanged(state, ifRevision, since);
}

async function refuseChanged(state: CallState, ifRevision: number, since: TreeDiff | null): Promise<never> {
  const { pid } = state.request;
  const now = state.before.snapshot;
  // The tree now is handed out with the refusal: its revision is the one to send next, and the
  // diff lines' #N indexes are resolved against it.
  const revision = state.deps.revisions.handOut(now);
  state.deps.snapshots.set(now);
  const record = state.record;
  record.app = state.appName;
  record.start(pid, { pid, if_revision: ifRevision, steps: state.steps.map((step) => redactStep(step, true)) });
  const what = since
    ? `${state.appName} changed since revision ${ifRevision}: ${summarizeDiff(since)}`
    : `revision ${ifRevision} of ${state.appName} is not known (only its last revisions are kept)`;
  const lines = since ? diffLines(since) : { lines: [], count: 0 };
  let file: string | undefined;
  try {
    const header = `# ${state.request.tool}  pid: ${pid}  app: ${state.appName}  status: changed\n# diff from revision ${ifRevision} to revision ${revision}\n`;
    file = (await record.writeFiles({ text: header + (since ? formatDiff(since) || '(no changes)\n' : '(that revision is no longer kept)\n') })).textPath;
  } catch {
    // The answer still carries the first lines.
  }
  const failure = new TandemError('changed', `${what}; it is at revision ${revision} now. Nothing was done.`, {
    revision,
    since: ifRevision,
    diff: lines.lines,
    diffLines: lines.count,
    ...(file ? { file } : {}),
  });
  record.finish({ ...failedReadResult(state.request.tool, pid, failure), app: state.appName, revision, ...(file ? { file } : {}) });
  throw failure;
}

/**
 * The answer's revision facts, once its tree is handed out (finish()): the revision of that
 * tree, the outside changes found before the call, and the note of an earlier call in which the
 * person stepped in — then this call's own note, kept for the next answer.
 */
export function revisionFacts(state: CallState, handedOut: TreeSnapshot | null): Pick<CallResult, 'revision' | 'outsideChanges' | 'person'> {
  const facts: Pick<CallResult, 'revision' | 'outsideChanges' | 'person'> = {};
  // A window part (a handoff app's tree is another pid's) is not the app's whole tree.
  if (handedOut && handedOut.pid === state.request.pid) facts.revision = state.deps.revisions.handOut(handedOut);
  if (state.handoff?.snapshot) state.deps.revisions.handOut(state.handoff.snapshot);
  if (state.outsideChanges) facts.outsideChanges = diffLines(state.outsideChanges);
  const person = state.deps.personNotes.take();
  if (person) facts.person = person;
  state.deps.personNotes.noteCall(state.callId, state.request.tool, state.session);
  return facts;
}

/** A read call's revision facts: the whole tree read gets its revision; an earlier call's person note, once. */
export function readRevisionFacts(deps: Pick<CallState['deps'], 'revisions' | 'personNotes'>, whole: TreeSnapshot): Pick<CallResult, 'revision' | 'person'> {
  const person = deps.personNotes.take();
  return { revision: deps.revisions.handOut(whole), ...(person ? { person } : {}) };
}
