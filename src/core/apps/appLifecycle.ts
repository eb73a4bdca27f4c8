// launch_app and kill_app: starting an app with arguments and closing one, written once for
// every OS over the Desktop primitives (resolveApp through appArrival.ts, askToQuit,
// signalProcess, processState).
//
// The promise kill_app keeps by default is that no unsaved work is lost: it asks the app to quit
// the way its own close button would and waits; an app that answers with a question ("Save
// changes?") is left running with that question on screen, and the question is handed to the
// model to decide — nothing is ever pressed in it. Only `force` signals the process.
//
// Neither runs as a guarded transaction: no synthetic input is sent, so there is nothing for the
// person's own input to collide with, and nothing to put back afterwards — the point of both is
// to change what runs (like bring_to_front changes what is in front). The one front change they
// can cause is intended: a launched app's window (unless `background`), or the app's own
// "Save changes?" dialog, which is exactly what the model must see next.

import { settleLaunched } from './launchSettle.js';
import { startApp } from './appArrival.js';
import type { Desktop, LaunchRequest, LaunchedApp, QuitRequest } from '../desktop.js';
import { TandemError, type ErrorDetails } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { ElementNode, TreeSnapshot, WindowInfo } from '../model.js';
import { remainingMs, sleep, throwIfAborted, type Progress } from '../progress.js';
import { settle, type SettleOptions } from '../call/settle.js';
import { frontmostFirst } from '../tree/windowChoice.js';

/** How long a politely asked app may take to exit (or to ask its question) before the answer says it still runs. */
export const POLITE_QUIT_WAIT_MS = 8_000;
/** After SIGTERM, how long before SIGKILL. */
export const TERMINATE_GRACE_MS = 3_000;
/** After SIGKILL, how long until the answer says the process is still there (uninterruptible sleep). */
export const KILL_WAIT_MS = 2_000;
/** How often the process, its windows and the front are looked at while waiting (a wait on a condition, not a settle). */
const POLL_MS = 50;
/** Longest wait for a launched app to stop changing before its windows are listed, and for a dialog to fill in. */
const QUIET_CAP_MS = 2_000;
/** Parent hops walked to find Tandem's ancestors (a process tree is never this deep). */
const MAX_ANCESTRY = 64;

/** Roles of a window that asks the person something. */
const DIALOG_ROLE = /^(dialog|alert|sheet|filechooser|colorchooser|fontchooser)$/i;

export interface LaunchArguments {
  name?: string;
  id?: string;
  path?: string;
  args?: string[];
  urls?: string[];
  background?: boolean;
  newInstance?: boolean;
}

function bad(message: string, details?: ErrorDetails<'bad-input'>): TandemError {
  return new TandemError('bad-input', message, details);
}

/**
 * Programs that run whatever their arguments say (shells, interpreters, privilege and process
 * wrappers): launch_app starts apps, it is not a way to run commands unguarded and unseen.
 * A name check, so a speed bump rather than a sandbox (a copied or renamed shell passes): the
 * person's own MCP client decides what the agent may run.
 */
const COMMAND_RUNNERS = /^(?:sh|bash|dash|zsh|ksh|mksh|csh|tcsh|fish|busybox|env|xargs|sudo|su|doas|pkexec|nohup|setsid|timeout|nice|ionice|chroot|python|perl|ruby|node|nodejs|php|lua|tclsh|wish|osascript|open|xdg-open|gio|x-terminal-emulator|xterm)(?:[\d.]*)$/;

/** Core's own check of launch_app's arguments (the MCP schema checked them first; the CLI and the app may not). */
export function checkLaunchRequest(args: LaunchArguments): LaunchRequest {
  const given = (['name', 'id', 'path'] as const).filter((key) => args[key] !== undefined);
  if (given.length !== 1) throw bad(`${given.length ? given.join(' and ') : 'None of name, id and path'} given: one of them names the app.`, { reason: 'app-target', given });
  const kind = given[0];
  const value = args[kind];
  if (typeof value !== 'string' || value.trim() === '' || value.length > LIMITS.queryChars || value.includes('\0')) {
    throw bad(`${kind} must be a non-empty string of at most ${LIMITS.queryChars} characters.`);
  }
  if (kind === 'path' && !value.trim().startsWith('/')) throw bad('path must be absolute (start with /).', { path: value });
  const program = value.trim().split('/').pop() ?? '';
  if (kind !== 'id' && COMMAND_RUNNERS.test(program)) throw bad(`${program} runs commands rather than being an app.`, { reason: 'command-runner', program });
  const list = (field: 'args' | 'urls', max: number, chars: number): string[] => {
    const items = args[field] ?? [];
    if (!Array.isArray(items) || items.length > max) throw bad(`${field} takes at most ${max} strings.`);
    for (const item of items) {
      if (typeof item !== 'string' || item.length > chars || item.includes('\0')) throw bad(`each of ${field} must be a string of at most ${chars} characters without NUL.`);
    }
    return [...items];
  };
  const urls = list('urls', LIMITS.launchUrls, LIMITS.launchUrlChars);
  for (const url of urls) {
    // A document path or a URL with a scheme: never something that reads as an option.
    if (!url.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(url)) throw bad('each of urls must be an absolute path or a URL with a scheme (https:, file:…).', { url });
  }
  return {
    kind,
    value: value.trim(),
    args: list('args', LIMITS.launchArgs, LIMITS.launchArgChars),
    urls,
    newInstance: args.newInstance === true,
    background: args.background === true,
  };
}

export interface LaunchOutcome {
  app: LaunchedApp;
  /** The app's top-level windows, frontmost first. */
  windows: WindowInfo[];
  /** background: the person's front app was still in front ('kept'), was put back ('restored'), or could not be ('failed'). */
  front: 'not-asked' | 'kept' | 'restored' | 'failed';
  /** The new window was still changing when the wait for it ran out. Absent when it settled. */
  settled?: false;
}

/** Waits until pid shows a window on screen; the launch primitive only saw it on the accessibility bus. */
async function windowOnScreen(desktop: Desktop, pid: number, progress: Progress): Promise<WindowInfo[]> {
  for (;;) {
    throwIfAborted(progress);
    const windows = await desktop.windows(pid, progress);
    if (windows.some((window) => window.onScreen !== false && window.bounds !== null)) return windows;
    if (remainingMs(progress) <= POLL_MS) {
      throw new TandemError('timeout', `pid ${pid} started and answers on the accessibility bus, but no window of it came on screen in time.`, { pid, windows: windows.length });
    }
    await sleep(POLL_MS, progress);
  }
}

export async function launchApp(desktop: Desktop, request: LaunchRequest, settleOptions: SettleOptions, progress: Progress): Promise<LaunchOutcome> {
  const frontBefore = request.background ? await desktop.frontmost(progress) : null;
  const app = await startApp(desktop, request, progress);
  // An instance that already ran is answered as it is (its windows may be minimised).
  let settled = true;
  if (!app.alreadyRunning) {
    await windowOnScreen(desktop, app.pid, progress);
    settled = await settleLaunched(desktop, app.pid, settleOptions, QUIET_CAP_MS, progress);
  }
  let front: LaunchOutcome['front'] = 'not-asked';
  if (request.background && frontBefore) {
    // The window manager gave the new window the front (openbox does, whatever the startup
    // notification says): put the person's window back. By now the app has been quiet, so the
    // window manager's own activation of its new window is behind us.
    const now = await desktop.frontmost(progress);
    if (now && now.pid === frontBefore.pid && (frontBefore.windowId === undefined || now.windowId === frontBefore.windowId)) front = 'kept';
    else front = (await desktop.activate(frontBefore.pid, frontBefore.windowId, progress)) ? 'restored' : 'failed';
  } else if (request.background) {
    front = 'kept';
  }
  const windows = frontmostFirst(await desktop.windows(app.pid, progress));
  return { app, windows, front, ...(settled ? {} : { settled: false as const }) };
}

// — kill_app —

export type ProtectedReason = 'tandem' | 'tandem-ancestor' | 'client' | 'init';

/**
 * Processes kill_app never touches: pid 1, Tandem itself and every process above it (its
 * launcher, the MCP client that spawned it, their shells and session), and the connected
 * client's process and its ancestors (socket mode: the relay's side).
 */
export async function protectedPids(desktop: Desktop, ownPid: number, clientPid: number | undefined): Promise<Map<number, ProtectedReason>> {
  const protectedBy = new Map<number, ProtectedReason>([[1, 'init']]);
  const climb = async (start: number, first: ProtectedReason, above: ProtectedReason): Promise<void> => {
    let current: number | null = start;
    for (let hops = 0; current !== null && current > 1 && hops < MAX_ANCESTRY; hops++) {
      if (!protectedBy.has(current)) protectedBy.set(current, hops === 0 ? first : above);
      current = (await desktop.processState(current)).parentPid;
    }
  };
  await climb(ownPid, 'tandem', 'tandem-ancestor');
  if (clientPid !== undefined) await climb(clientPid, 'client', 'client');
  return protectedBy;
}

export type KillStatus = 'exited' | 'asking' | 'still-running';

export interface KillOutcome {
  pid: number;
  app: string;
  status: KillStatus;
  /** 'close': asked politely; 'terminate': SIGTERM; 'kill': SIGTERM, then SIGKILL. */
  how: 'close' | 'terminate' | 'kill';
  unsavedWorkMayBeLost: boolean;
  /** The polite request: windows asked, windows that take no such request. */
  asked?: QuitRequest;
  /** The question the app put up instead of quitting: its window and its elements (indexes of `tree`). */
  dialog?: { windowId?: number; title: string; elements: ElementNode[] };
  /** The app's tree when it is still running after a polite request (element_index valid for the next call). */
  tree?: TreeSnapshot;
  /** Its windows still open. */
  windows: WindowInfo[];
}

/** Refuses what kill_app must never touch, and pids with no window (not an app on this desktop). */
export async function checkKillTarget(desktop: Desktop, pid: number, protectedBy: Map<number, ProtectedReason>, progress: Progress): Promise<{ app: string; windows: WindowInfo[] }> {
  const reason = protectedBy.get(pid);
  if (reason) {
    const what = { init: 'the init process', tandem: "Tandem's own process", 'tandem-ancestor': 'a process Tandem runs under (its launcher or MCP client)', client: 'the MCP client connected to Tandem' }[reason];
    throw bad(`pid ${pid} is ${what}.`, { pid, reason: 'protected-pid', protected: reason });
  }
  const listed = (await desktop.processState(pid)).running ? await desktop.windows(pid, progress) : [];
  // A window whose pid is only the app's claim and proven wrong (a sandbox's own pid numbers, a
  // remote client's) names some other process here: never signal it on that word.
  const windows = listed.filter((window) => window.pidVerified !== false);
  if (windows.length === 0) {
    const all = await desktop.windows(undefined, progress).catch(() => [] as WindowInfo[]);
    const apps = [...new Map(all.filter((w) => w.pid > 0).map((w) => [w.pid, w.app ?? ''])).entries()].slice(0, 30);
    throw new TandemError('unknown-app', `pid ${pid} is not an app with a window on this desktop${listed.length ? ' (a window names it, but the X server says another process owns it)' : ''}.`, {
      reason: 'no-window-app',
      pid,
      claimedOnly: listed.length,
      apps: apps.map(([appPid, name]) => ({ pid: appPid, name })),
    });
  }
  return { app: windows[0].app ?? `pid ${pid}`, windows };
}

async function exited(desktop: Desktop, pid: number, withinMs: number, progress: Progress): Promise<boolean> {
  const until = Date.now() + Math.min(withinMs, remainingMs(progress));
  for (;;) {
    if (!(await desktop.processState(pid)).running) return true;
    if (Date.now() >= until) return false;
    await sleep(POLL_MS, progress);
  }
}

/**
 * The dialog's subtree in the app's tree: the top-level window titled like the window that
 * appeared, else the last dialog-like window, else the last dialog-like element anywhere (a
 * sheet). Windows are the children of the app's root element (AT-SPI's application, AX's
 * AXApplication).
 */
export function dialogElements(tree: TreeSnapshot, title: string | undefined): ElementNode[] {
  const roots = tree.elements.filter((el) => el.parentIndex === null);
  const windows = roots.length === 1 ? tree.elements.filter((el) => el.parentIndex === roots[0].index) : roots;
  const byTitle = title ? windows.filter((el) => el.text === title) : [];
  // A macOS sheet hangs inside the document's window, not beside it.
  const top = byTitle.at(-1) ?? windows.filter((el) => DIALOG_ROLE.test(el.role)).at(-1) ?? tree.elements.filter((el) => DIALOG_ROLE.test(el.role)).at(-1);
  if (!top) return [];
  const inside = new Set<number>([top.index]);
  const subtree: ElementNode[] = [top];
  for (const el of tree.elements) {
    if (el.index > top.index && el.parentIndex !== null && inside.has(el.parentIndex)) {
      inside.add(el.index);
      subtree.push(el);
    }
  }
  return subtree;
}

export async function killApp(
  desktop: Desktop,
  target: { pid: number; app: string; windows: WindowInfo[] },
  force: boolean,
  read: { snapshot: (pid: number) => Promise<TreeSnapshot>; settleOptions: SettleOptions },
  progress: Progress,
  politeWaitMs: number = POLITE_QUIT_WAIT_MS,
): Promise<KillOutcome> {
  const { pid, app } = target;
  if (force) {
    await desktop.signalProcess(pid, 'terminate');
    if (await exited(desktop, pid, TERMINATE_GRACE_MS, progress)) return { pid, app, status: 'exited', how: 'terminate', unsavedWorkMayBeLost: true, windows: [] };
    progress.log(`pid ${pid} still runs ${TERMINATE_GRACE_MS} ms after SIGTERM: sending SIGKILL`);
    await desktop.signalProcess(pid, 'kill');
    const gone = await exited(desktop, pid, KILL_WAIT_MS, progress);
    return { pid, app, status: gone ? 'exited' : 'still-running', how: 'kill', unsavedWorkMayBeLost: true, windows: gone ? [] : await desktop.windows(pid, progress).catch(() => []) };
  }

  const before = new Set(target.windows.map((window) => window.windowId));
  const asked = await desktop.askToQuit(pid, progress);
  const until = Date.now() + Math.min(politeWaitMs, remainingMs(progress));
  let asking: WindowInfo | undefined;
  for (;;) {
    throwIfAborted(progress);
    if (!(await desktop.processState(pid)).running) return { pid, app, status: 'exited', how: 'close', unsavedWorkMayBeLost: false, asked, windows: [] };
    // A window it opened since it was asked is its answer: a question to the person.
    asking = (await desktop.windows(pid, progress).catch(() => [] as WindowInfo[])).find((window) => !before.has(window.windowId));
    if (asking || Date.now() >= until || asked.asked === 0) break;
    await sleep(POLL_MS, progress);
  }
  // Still running: read what it shows (a question in a new window, or in one it had: a sheet).
  await settle(desktop, pid, { ...read.settleOptions, capMs: QUIET_CAP_MS }, progress);
  if (!(await desktop.processState(pid)).running) return { pid, app, status: 'exited', how: 'close', unsavedWorkMayBeLost: false, asked, windows: [] };
  const windows = frontmostFirst(await desktop.windows(pid, progress));
  const tree = await read.snapshot(pid).catch((error: unknown) => {
    progress.log(`could not read pid ${pid}'s tree after asking it to quit: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
  const elements = tree ? dialogElements(tree, asking?.title) : [];
  if (elements.length > 0 || asking) {
    return { pid, app, status: 'asking', how: 'close', unsavedWorkMayBeLost: false, asked, dialog: { windowId: asking?.windowId, title: asking?.title ?? elements[0]?.text ?? '', elements }, tree, windows };
  }
  return { pid, app, status: 'still-running', how: 'close', unsavedWorkMayBeLost: false, asked, tree, windows };
}
