// Processes an action launched, from libproc's process table: core waits for their window before
// it looks for a handoff (settle.ts waitForLaunches). Two ways a click starts a program on macOS:
//
// - the app forks it itself: a new descendant of the app (what Linux reads from /proc);
// - the app asks LaunchServices (NSWorkspace open, a link, `open`): launchd starts it, so its
//   parent is launchd (pid 1), not the app. Any app of this user that launchd started since the
//   action began is then taken as the action's: while a call runs the person's input is held
//   back, so they cannot have launched it themselves. Only application bundles count here
//   (…/X.app/Contents/MacOS/X): launchd also starts XPC services and agents all the time.
//
// Either way, a process AppKit knows as background-only (activation policy "prohibited": helper
// renderers, agents) shows no window and is left out, or core would wait for one in vain.
// Start times are wall-clock (pbi_start_tvsec/usec), comparable with the action's start.
// NSWorkspace's launch notifications and runningApplications are not used: outside a running
// Cocoa run loop (plain Node, the --direct mode and CI) they are frozen caches. The tree search
// itself is core's (processTree.ts): this file reads the table and adds launchd's children.

import { basename } from 'node:path';
import type { RunningApp } from '../../core/model.js';
import { descendantsOf } from '../../core/apps/processTree.js';
import type { LibprocApi, ProcBsdInfo } from '../../../native/macos/macNative.js';

const LAUNCHD_PID = 1;
/** Microsecond start times, but the action's start was taken on another clock read: a little slack. */
const START_SLACK_MS = 5;
/** NSApplicationActivationPolicyProhibited: no Dock icon, no windows. */
export const ACTIVATION_POLICY_PROHIBITED = 2;

export interface LaunchCandidate {
  proc: ProcBsdInfo;
  via: 'descendant' | 'launchd';
}

/** `root`'s descendants and this user's launchd children, started at or after sinceMs. */
export function launchCandidates(processes: readonly ProcBsdInfo[], root: number, sinceMs: number, uid: number): LaunchCandidate[] {
  const since = sinceMs - START_SLACK_MS;
  const descendants = descendantsOf(root, processes);
  const found: LaunchCandidate[] = descendants.filter((proc) => proc.startMs >= since).map((proc) => ({ proc, via: 'descendant' }));
  if (root !== LAUNCHD_PID) {
    const inTree = new Set([root, ...descendants.map((proc) => proc.pid)]);
    for (const proc of processes) {
      if (proc.ppid === LAUNCHD_PID && !inTree.has(proc.pid) && proc.uid === uid && proc.startMs >= since) found.push({ proc, via: 'launchd' });
    }
  }
  return found;
}

/** The executable of an application bundle: …/Name.app/Contents/MacOS/Name (not nested in another app). */
export function appBundleOf(path: string | null): string | null {
  if (!path) return null;
  const match = /^(.*\/([^/]+)\.app)\/Contents\/MacOS\/[^/]+$/.exec(path);
  if (!match) return null;
  // A helper app inside another app's bundle (…/Foo.app/Contents/Frameworks/Helper.app/…) is not a launch the person would see.
  if (/\.app\//.test(match[1])) return null;
  return match[2];
}

export interface AppKitFacts {
  /** NSRunningApplication's activationPolicy for pid, or null when AppKit does not know it. */
  activationPolicy(pid: number): number | null;
  /** NSRunningApplication's localizedName, or undefined. */
  localizedName(pid: number): string | undefined;
}

/** Processes an action on `pid` launched since sinceMs that may still show a window. */
export function launchedSince(proc: LibprocApi, appKit: AppKitFacts, pid: number, sinceMs: number, uid: number): RunningApp[] {
  const processes: ProcBsdInfo[] = [];
  for (const candidate of proc.proc_listallpids()) {
    const info = proc.proc_bsdinfo(candidate);
    if (info) processes.push(info);
  }
  const launched: RunningApp[] = [];
  for (const { proc: info, via } of launchCandidates(processes, pid, sinceMs, uid)) {
    const bundle = appBundleOf(proc.proc_pidpath(info.pid));
    if (via === 'launchd' && bundle === null) continue;
    const policy = appKit.activationPolicy(info.pid);
    if (policy === ACTIVATION_POLICY_PROHIBITED) continue;
    launched.push({ pid: info.pid, name: appKit.localizedName(info.pid) ?? bundle ?? (info.name || basename(info.comm)) });
  }
  return launched;
}
