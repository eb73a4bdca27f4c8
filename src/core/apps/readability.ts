// Apps that run and show a window but give the accessibility API nothing to read: an empty tree
// or a not-found would send the model hunting for an element that cannot exist, so these are
// told apart and reported as facts (code 'not-accessible', details UnreadableApp); src/mcp says
// what they mean and what to do. Two cases, both seen on Linux:
//
//   not-registered  the process has windows on screen but is not on the accessibility bus: it was
//                   started before desktop accessibility was on (Chromium, Electron, Firefox
//                   decide once, at start) or with its bridge turned off
//   no-content      it is on the bus, but nothing inside its windows is exposed (Chromium and
//                   Electron started without --force-renderer-accessibility show the frame only)
//
// A tree cut short is never taken for either: a frozen app is a different answer.

import type { Desktop, SnapshotLimits } from '../desktop.js';
import { TandemError } from '../errors.js';
import type { PermissionCheck, TreeSnapshot } from '../model.js';
import { sleep, withTimeout, type Progress } from '../progress.js';

export type UnreadableReason = 'not-registered' | 'no-content';

export interface UnreadableApp {
  reason: UnreadableReason;
  pid: number;
  /** Its name on the accessibility bus (no-content only). */
  app?: string;
  /** Toolkit and version as the app reports them, when known. */
  toolkit?: string;
  /** Titles of its windows on screen. */
  windows: string[];
}

/** How long a window may stay empty after an app registered before it counts as contentless. */
export const CONTENT_WAIT_MS = 2_000;
const CONTENT_POLL_MS = 250;
/** A doctor's look at one app: enough to see whether its windows hold anything. */
const PROBE_LIMITS: SnapshotLimits = { maxDepth: 2, maxElements: 400, maxMs: 1_500 };

/**
 * Only the app and its windows, nothing inside any of them. A tree cut short (by time: a frozen
 * app; by depth or count: there is more) is never taken for one.
 */
export function isContentless(snapshot: TreeSnapshot): boolean {
  if (snapshot.truncated) return false;
  return !snapshot.elements.some((element) => element.depth >= 2);
}

export function notAccessibleError(facts: UnreadableApp): TandemError {
  const where = facts.reason === 'not-registered' ? 'is not on the accessibility bus' : 'exposes nothing inside its windows';
  return new TandemError('not-accessible', `pid ${facts.pid} shows ${facts.windows.length} window(s) but ${where}.`, { ...facts });
}

/**
 * Why no app answers for pid: it shows windows with nothing readable (not-accessible), or no
 * such app runs (unknown-app, with the running apps as facts).
 */
export async function explainMissingApp(desktop: Desktop, pid: number, progress: Progress): Promise<TandemError> {
  const unreadable = await explainUnreadable(desktop, pid, null, progress);
  if (unreadable) return unreadable;
  const apps = await desktop.listApps(progress).catch(() => []);
  return new TandemError('unknown-app', `No running app has pid ${pid}. Running apps:\n${apps.map((app) => `${app.pid} ${app.name}`).join('\n') || '(none found)'}`, { apps });
}

/** Titles of pid's windows on screen; [] when it has none or the platform cannot tell. */
export async function windowTitles(desktop: Desktop, pid: number, progress: Progress): Promise<string[]> {
  const windows = await desktop.windows(pid, progress).catch(() => []);
  return windows.filter((window) => window.pid === pid).map((window) => window.title);
}

/**
 * The not-accessible error for pid, or null when it is readable (or shows no window, so there
 * is nothing to explain). `snapshot` null: the app is not on the accessibility bus at all.
 */
export async function explainUnreadable(desktop: Desktop, pid: number, snapshot: TreeSnapshot | null, progress: Progress): Promise<TandemError | null> {
  if (snapshot && !isContentless(snapshot)) return null;
  const windows = await windowTitles(desktop, pid, progress);
  if (windows.length === 0) return null;
  if (!snapshot) return notAccessibleError({ reason: 'not-registered', pid, windows });
  return notAccessibleError({ reason: 'no-content', pid, app: snapshot.app, ...(snapshot.toolkit ? { toolkit: snapshot.toolkit } : {}), windows });
}

/**
 * The tree, read again while it holds nothing but windows (for at most CONTENT_WAIT_MS): an app
 * that just registered may fill its window a moment later.
 */
export async function readWithContent(desktop: Desktop, pid: number, limits: SnapshotLimits, progress: Progress, first?: TreeSnapshot): Promise<TreeSnapshot> {
  let snapshot = first ?? (await desktop.snapshot(pid, limits, progress));
  const deadline = Math.min(progress.deadline, Date.now() + CONTENT_WAIT_MS);
  while (isContentless(snapshot) && Date.now() + CONTENT_POLL_MS < deadline) {
    await sleep(CONTENT_POLL_MS, progress);
    snapshot = await desktop.snapshot(pid, limits, progress);
  }
  return snapshot;
}

/** Every app with a window on screen that gives nothing to read (for `tandem doctor`). */
export async function findUnreadableApps(desktop: Desktop, progress: Progress, ownPid: number): Promise<UnreadableApp[]> {
  const [windows, apps] = await Promise.all([desktop.windows(undefined, progress), desktop.listApps(progress)]);
  const titlesByPid = new Map<number, string[]>();
  for (const window of windows) {
    if (window.pid <= 0 || window.pid === ownPid) continue;
    titlesByPid.set(window.pid, [...(titlesByPid.get(window.pid) ?? []), window.title]);
  }
  const registered = new Set(apps.map((app) => app.pid));
  const found: UnreadableApp[] = [];
  await Promise.all(
    [...titlesByPid].map(async ([pid, titles]) => {
      if (!registered.has(pid)) {
        found.push({ reason: 'not-registered', pid, windows: titles });
        return;
      }
      const snapshot = await desktop.snapshot(pid, PROBE_LIMITS, withTimeout(progress, PROBE_LIMITS.maxMs * 2)).catch(() => null);
      if (snapshot && isContentless(snapshot)) {
        found.push({ reason: 'no-content', pid, app: snapshot.app, ...(snapshot.toolkit ? { toolkit: snapshot.toolkit } : {}), windows: titles });
      }
    }),
  );
  return found.sort((a, b) => a.pid - b.pid);
}

/** The doctor's line: which apps show windows Tandem cannot read, and why. */
export async function readabilityCheck(desktop: Desktop, progress: Progress, ownPid: number): Promise<PermissionCheck> {
  const title = 'Apps Tandem cannot read';
  let unreadable: UnreadableApp[];
  try {
    unreadable = await findUnreadableApps(desktop, progress, ownPid);
  } catch (error) {
    return { id: 'readable-apps', title, state: 'unknown', detail: `Could not check: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (unreadable.length === 0) return { id: 'readable-apps', title, state: 'granted', detail: 'None: every app with a window on screen exposes its contents.' };
  const lines = unreadable.map((app) => {
    const name = app.app ?? `"${app.windows[0] ?? ''}"`;
    const why = app.reason === 'not-registered' ? 'not on the accessibility bus' : `on the bus, but its windows expose nothing${app.toolkit ? ` (${app.toolkit})` : ''}`;
    return `${name} (pid ${app.pid}): ${why}`;
  });
  return {
    id: 'readable-apps',
    title,
    state: 'unknown',
    detail: lines.join('; '),
    remedy:
      'Restart these apps while Tandem runs (it turns desktop accessibility on), or open them through Tandem (open_application_and_traverse), which starts them with accessibility on. Chromium and Electron apps started by hand also need --force-renderer-accessibility.',
  };
}
