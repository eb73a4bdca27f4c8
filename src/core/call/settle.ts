// Settle: wait until the target app has stopped changing — its tree quiet and its windows done
// painting — before the screenshot and the tree after are taken, and until a window that the
// action launched in another process is there to be seen.

import type { Desktop, PaintWatch, SettleOutcome } from '../desktop.js';
import type { RunningApp, TreeSnapshot } from '../model.js';
import { sleep, throwIfAborted, type Progress } from '../progress.js';
import { busyIndicatorAreas } from './busyIndicators.js';
import { isAppHelperProcess } from '../apps/helperProcess.js';

export interface SettleOptions {
  /**
   * How long an app must send no accessibility events before its tree counts as settled, the
   * read itself included. Default 45 ms: measured GTK apps send one change's events with gaps
   * of at most 16 ms (a file dialog building itself for 115 ms included). A read during which
   * the app sent events is read again (call/callState.ts), so a read the backend verified is quiet
   * time: only what the app's last read did not cover is waited before reading (quietBeforeRead).
   */
  quietMs: number;
  /** Least quiet before a read starts, however long reads take. Default 10 ms. */
  minQuietMs: number;
  /**
   * Quiet before a read where the backend cannot tell whether the app changed during it (macOS
   * today): nothing verifies the read, so the longer wait the engine always used. Default 150 ms.
   */
  unverifiedQuietMs: number;
  /**
   * How long the app's windows must have been left unpainted before they count as finished
   * painting (where the backend can see paints: X DAMAGE). Default 30 ms, two frames at 60 Hz: a
   * repaint in progress draws at least every other frame. A `settle_quiet_ms` below it lowers it.
   */
  paintQuietMs: number;
  /** Never wait longer than this (the `settle_max_ms` setting). Default 1 500 ms. */
  capMs: number;
  /** Fixed wait when the backend cannot observe events ('unsupported'). Default 300 ms. */
  fallbackMs: number;
  /**
   * Longest wait for a window from a process the action launched. Default 6 000 ms: a GTK
   * dialog (zenity) maps in 0.1–0.3 s warm, but a cold start on a loaded machine was seen
   * past 3 s. A process that shows no window by then is still named in the answer.
   */
  launchCapMs: number;
  /** How often a launched process is checked for a window. Default 25 ms. */
  launchPollMs: number;
}

export const DEFAULT_SETTLE: SettleOptions = { quietMs: 45, minQuietMs: 10, paintQuietMs: 30, unverifiedQuietMs: 150, capMs: 1_500, fallbackMs: 300, launchCapMs: 6_000, launchPollMs: 25 };

/**
 * The settle options the person's settings ask for: the bound and the tree's quiet period; paint
 * needs no longer a quiet period than the tree, and an unverified quiet never a shorter one.
 */
export function settleFromSettings(settings: { settle_max_ms: number; settle_quiet_ms: number }): SettleOptions {
  return {
    ...DEFAULT_SETTLE,
    capMs: settings.settle_max_ms,
    quietMs: settings.settle_quiet_ms,
    paintQuietMs: Math.min(settings.settle_quiet_ms, DEFAULT_SETTLE.paintQuietMs),
    unverifiedQuietMs: Math.max(DEFAULT_SETTLE.unverifiedQuietMs, settings.settle_quiet_ms),
  };
}

/**
 * The quiet to wait for before reading: quietMs less what the read will verify, judged by the
 * app's last read; all of quietMs before a first read; unverifiedQuietMs where the backend
 * cannot tell whether the app changed during a read.
 */
export function quietBeforeRead(options: SettleOptions, lastRead: TreeSnapshot | undefined): number {
  if (!lastRead) return options.quietMs;
  if (lastRead.changedWhileReading === undefined) return options.unverifiedQuietMs;
  return Math.max(options.minQuietMs, options.quietMs - lastRead.elapsedMs);
}

/** Reads the app's tree now: for the busy indicators it shows (busyIndicators.ts). */
export type TreeReader = () => Promise<TreeSnapshot>;

/**
 * How long the windows may go on being painted after the tree fell quiet before the tree is read
 * for busy indicators that would explain it (a spinner the action started, a page switched to).
 */
export const BUSY_CHECK_AFTER_MS = 150;

/** The paint watch of one settle: opened again when busy indicators turn up. */
interface Watching {
  paints: PaintWatch;
  /** Busy indicators have been looked for (or cannot be): no more reads. */
  busyChecked: boolean;
}

/**
 * Waits until pid is quiet enough to be read: its tree quiet (see quietBeforeRead; `lastRead` is
 * its latest tree) and then its windows unpainted for paintQuietMs, within capMs. Paints inside
 * the busy indicators of `lastRead` do not count, nor, once painting has gone on for
 * BUSY_CHECK_AFTER_MS after the tree fell quiet, those inside the ones a tree read by
 * `readTree` shows. 'cap' when the bound ran out first: the answer then says the app had not settled.
 */
export async function settle(desktop: Desktop, pid: number, options: SettleOptions, progress: Progress, lastRead?: TreeSnapshot, readTree?: TreeReader): Promise<SettleOutcome> {
  const giveUpAt = Math.min(Date.now() + options.capMs, progress.deadline);
  // Watched from the start, so paints during the tree's wait count; a backend that cannot
  // watch (or fails to) leaves the tree's word alone.
  const paints = await desktop.watchPaint(pid, progress, busyIndicatorAreas(lastRead?.elements)).catch(() => null);
  const watching: Watching | null = paints && { paints, busyChecked: !readTree };
  try {
    let outcome = await desktop.waitForQuiet(pid, quietBeforeRead(options, lastRead), options.capMs, progress);
    // Without accessibility events there is nothing to observe: give the app a fixed moment.
    if (outcome === 'unsupported') await sleep(options.fallbackMs, progress);
    if (outcome !== 'cap' && watching) {
      if ((await untilPaintingStops(desktop, pid, watching, options, giveUpAt, progress, readTree)) === 'cap') outcome = 'cap';
    }
    if (outcome === 'cap') progress.log(`the app was still changing after ${options.capMs} ms; reading its tree anyway`);
    return outcome;
  } finally {
    watching?.paints.close();
  }
}

/**
 * Reads the tree for busy indicators and, when it shows some, watches the windows again without
 * them. true when the watch was replaced.
 */
async function ignoreBusyIndicators(desktop: Desktop, pid: number, watching: Watching, readTree: TreeReader, progress: Progress): Promise<boolean> {
  watching.busyChecked = true;
  const tree = await readTree().catch(() => null);
  const areas = busyIndicatorAreas(tree?.elements);
  if (areas.length === 0) return false;
  const paints = await desktop.watchPaint(pid, progress, areas).catch(() => null);
  if (!paints) return false;
  watching.paints.close();
  watching.paints = paints;
  progress.log(`the app kept painting: its tree shows ${areas.length} busy indicator(s) (spinner, progress bar), whose own repaints are not waited for`);
  return true;
}

/**
 * Waits until no window of the app was painted for paintQuietMs. Painting that went on after
 * the tree fell quiet means the app was still at work: its tree is waited on again (briefly)
 * before the paints are, so a change drawn late is in the tree read after.
 */
async function untilPaintingStops(desktop: Desktop, pid: number, watching: Watching, options: SettleOptions, giveUpAt: number, progress: Progress, readTree?: TreeReader): Promise<'quiet' | 'cap'> {
  for (;;) {
    const treeQuietAt = Date.now();
    // A watch opened again does not know the paints before it: the tree is waited on again.
    let watchReplaced = false;
    for (;;) {
      const paints = watching.paints;
      const quietSince = paints.lastPaintAt() ?? paints.since;
      const now = Date.now();
      if (now - quietSince >= options.paintQuietMs) break;
      if (now >= giveUpAt) return 'cap';
      if (!watching.busyChecked && readTree && now - treeQuietAt >= BUSY_CHECK_AFTER_MS) {
        if (await ignoreBusyIndicators(desktop, pid, watching, readTree, progress)) watchReplaced = true;
        continue;
      }
      const busyCheckAt = watching.busyChecked ? giveUpAt : treeQuietAt + BUSY_CHECK_AFTER_MS;
      await paintOrTimeout(paints, Math.min(quietSince + options.paintQuietMs, giveUpAt, busyCheckAt) - now);
      throwIfAborted(progress);
    }
    const lastPaint = watching.paints.lastPaintAt();
    if (!watchReplaced && (lastPaint === undefined || lastPaint <= treeQuietAt)) return 'quiet';
    const tree = await desktop.waitForQuiet(pid, options.minQuietMs, Math.max(0, giveUpAt - Date.now()), progress);
    if (tree === 'cap') return 'cap';
  }
}

/** Resolves at the watch's next paint or after ms, whichever comes first. */
function paintOrTimeout(paints: PaintWatch, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, ms));
    void paints.nextPaint().then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** What became of the processes an action launched. */
export interface LaunchOutcome {
  kind: 'none' | 'window' | 'exited' | 'cap';
  /** The launched processes still running when the wait ended. */
  running: RunningApp[];
  /** A window one of them mapped (kind 'window'), active or not yet. */
  window?: { pid: number; app: string; windowId: number };
}

/**
 * When the action started other processes (a helper window, a browser for a link), waits until
 * one of them maps a window (the window manager need not have made it active yet), until all
 * of them have exited, or launchCapMs. Costs one question to the backend when nothing was
 * launched. Call it once the app has handled the action's input (paced input guarantees that):
 * a busy app runs its click handler, and starts the process, only then.
 */
export async function waitForLaunches(desktop: Desktop, pid: number, sinceMs: number, options: SettleOptions, progress: Progress): Promise<LaunchOutcome> {
  const launchedNow = async (): Promise<RunningApp[]> =>
    (await desktop.launchedSince(pid, sinceMs, progress)).filter((proc) => !isAppHelperProcess(proc.commandLine)).map(({ pid, name, id }) => ({ pid, name, ...(id ? { id } : {}) }));
  let launched = await launchedNow();
  if (launched.length === 0) return { kind: 'none', running: [] };
  const names = (apps: RunningApp[]): string => apps.map((app) => `${app.name} (pid ${app.pid})`).join(', ');
  progress.log(`the action started ${names(launched)}: waiting up to ${options.launchCapMs} ms for a window`);
  const giveUpAt = Math.min(Date.now() + options.launchCapMs, progress.deadline);
  for (;;) {
    const byPid = new Map(launched.map((app) => [app.pid, app]));
    const [front, windows] = await Promise.all([desktop.frontmost(progress), desktop.windows(undefined, progress)]);
    const shown = front && front.windowId !== undefined && byPid.has(front.pid) ? { pid: front.pid, windowId: front.windowId } : windows.find((window) => byPid.has(window.pid));
    if (shown) return { kind: 'window', running: launched, window: { pid: shown.pid, app: byPid.get(shown.pid)!.name, windowId: shown.windowId } };
    if (Date.now() >= giveUpAt) {
      progress.log(`${names(launched)} showed no window within ${options.launchCapMs} ms; going on`);
      return { kind: 'cap', running: launched };
    }
    await sleep(Math.min(options.launchPollMs, Math.max(0, giveUpAt - Date.now())), progress);
    throwIfAborted(progress);
    launched = await launchedNow();
    if (launched.length === 0) return { kind: 'exited', running: [] };
  }
}
