// Visibility that only Tandem's own raising and restoring of windows changed is not a change.
// An acting call brings its app to the front (the windows of other apps that covered it go
// below) and, when it is done, puts the person's frontmost app back on top (its windows cover
// the app again). Read as they are, the call's diff would list every element those windows had
// covered as added, and the next call's outside changes would list them all as removed — 33
// lines of a Firefox window on every call while another app was in front (agent-seat audit).
//
// Only coverage by another process's windows is set aside here: a dialog of the app itself that
// covers its main window is the app's doing and stays in every diff. A window of another app that
// newly came to cover the app (the person opened one) is a window Tandem neither lowered nor put
// back, and is still reported.

import type { ElementNode, TreeSnapshot } from '../model.js';
import { diffTrees, type TreeDiff } from './diff.js';

/** `elements` as if the windows in `windowIds` covered nothing: the same array when none did. */
export function uncoveredBy(elements: readonly ElementNode[], windowIds: ReadonlySet<number>): readonly ElementNode[] {
  if (windowIds.size === 0 || !elements.some((el) => el.coveredBy !== undefined && windowIds.has(el.coveredBy))) return elements;
  return elements.map((el) => {
    if (el.coveredBy === undefined || !windowIds.has(el.coveredBy)) return el;
    // coveredBy is only set on an element that would otherwise be visible (windowFacts.ts).
    const { coveredBy: _covered, ...rest } = el;
    return { ...rest, visible: true };
  });
}

/** Ids of the windows that cover some element of `elements`. */
function coveringWindows(elements: readonly ElementNode[]): Set<number> {
  const ids = new Set<number>();
  for (const el of elements) if (el.coveredBy !== undefined) ids.add(el.coveredBy);
  return ids;
}

/**
 * The windows of other processes that covered the app in `before` and cover nothing of it in
 * `after`: the ones the call's raising of the app put below it. A window that still covers it
 * (one kept on top of all) is not among them, so both sides read alike.
 */
export function windowsLoweredByTheCall(before: TreeSnapshot, after: readonly ElementNode[]): Set<number> {
  const stillCovering = coveringWindows(after);
  const otherApps = new Set((before.windows ?? []).filter((window) => window.pid !== before.pid).map((window) => window.windowId));
  const lowered = new Set<number>();
  for (const id of coveringWindows(before.elements)) if (otherApps.has(id) && !stillCovering.has(id)) lowered.add(id);
  return lowered;
}

/** The windows of `frontPid` (the app put back in front) known when the call began: they now cover the app again. */
export function windowsPutBack(before: TreeSnapshot, frontPid: number): Set<number> {
  if (frontPid === before.pid) return new Set();
  return new Set((before.windows ?? []).filter((window) => window.pid === frontPid).map((window) => window.windowId));
}

/**
 * The call's own diff: from `before` to `after`, where the call brought the app to the front
 * (`raised`), without the elements that only came out from under the windows it lowered.
 */
export function diffAcrossRaise(before: TreeSnapshot, after: readonly ElementNode[], raised: boolean): TreeDiff {
  if (!raised) return diffTrees(before.elements, after);
  return diffTrees(uncoveredBy(before.elements, windowsLoweredByTheCall(before, after)), after);
}
