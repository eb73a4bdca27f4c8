// Every number and length a caller can send is bounded, in one place: the MCP schemas check
// them first (with a message stating the limit), core checks them again before anything is
// allocated or sent (defence in depth: the engine has other callers), and nothing below ever
// allocates in proportion to a number it did not check. The README lists them.

import { TandemError } from './errors.js';

export const LIMITS = {
  /** |x| and |y| of a point, in screen points: any desktop fits with room to spare. */
  coordinate: 100_000,
  /** width/height of a target rectangle, in points. */
  size: 100_000,
  /** Wheel lines per scroll (a page is ~3–20 lines; 1,000 crosses any list). */
  scrollLines: 1_000,
  /** Characters typed by one type step (a 40,000-character text fits). */
  typedChars: 100_000,
  /** Characters of a value set through the accessibility API. */
  valueChars: 100_000,
  /** Characters of an element's value read into a tree (as long as one call may type); a longer one is cut and marked. */
  readValueChars: 100_000,
  /** Steps in one call. */
  steps: 50,
  /** One wait step, in ms (all waits of a call must also fit its watchdog). */
  waitMs: 5_000,
  /** How long one drag may take from press to release, in ms (its motion events are spread over it; drags and waits must fit the watchdog). */
  dragMs: 10_000,
  /** Characters of an element's text, a role, an app identifier or a path in a query. */
  queryChars: 1_000,
  /** Characters of a key name. */
  keyNameChars: 64,
  /** Modifier keys held at once. */
  modifiers: 8,
  /** The largest pid Linux hands out (pid_max 2^22) and macOS (99,999) both fit. */
  pid: 4_194_304,
  /** element_index: far above any tree Tandem reads in full. */
  elementIndex: 1_000_000,
  /** An app's tree revision, as a caller sends it back (if_revision). */
  revision: 0xffff_ffff,
  /** A window id (an X11 window or a CGWindowID: 32 bits). */
  windowId: 0xffff_ffff,
  /** Presses of one key in one call or step (a line of backspaces, a long list walked with down). */
  keyRepeat: 1_000,
  /** Extra argv words launch_app passes (a command line rarely needs more than a few). */
  launchArgs: 32,
  /** Characters of one of those words. */
  launchArgChars: 1_000,
  /** Documents or URLs launch_app opens at once. */
  launchUrls: 16,
  /** Characters of one document path or URL. */
  launchUrlChars: 4_096,
} as const;

/** Core's own check of a pid (a caller may not have come through the MCP schemas). */
export function checkPid(pid: number): void {
  if (!Number.isInteger(pid) || pid <= 0 || pid > LIMITS.pid) throw new TandemError('bad-input', 'pid must be the whole-number process id of a running app.', { reason: 'pid' });
}

/** The same for a window id; `what` names the step it belongs to, when it does. */
export function checkWindowId(windowId: number | undefined, what?: string): void {
  if (windowId === undefined || (Number.isInteger(windowId) && windowId >= 0 && windowId <= LIMITS.windowId)) return;
  throw new TandemError('bad-input', `${what ? `${what}: ` : ''}window_id must be the id of one of the app's windows.`, { reason: 'window-id' });
}

export type LimitName = keyof typeof LIMITS;
