// The small inspection reads (list_applications, list_windows, zoom, get_screen_size,
// get_cursor_position, check_permissions), each in its own call record: started and finished
// events, a one-line summary, no files.

import type { CallRecord } from './callRecord.js';
import { emptyResult, failedReadResult } from './callResults.js';
import type { Desktop, SnapshotLimits } from '../desktop.js';
import { TandemError, toTandemError } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { Rect } from '../model.js';
import type { Progress } from '../progress.js';
import { secureAreas } from '../tree/redact.js';
import { chooseWindow } from '../tree/windowChoice.js';
import { zoomInto, type ZoomImage } from '../artifacts/zoom.js';

/** The small inspection reads, as the feed and the call record name them. */
export const INSPECTION = {
  apps: 'list_applications',
  windows: 'list_windows',
  zoom: 'zoom',
  displays: 'get_screen_size',
  cursor: 'get_cursor_position',
  permissions: 'check_permissions',
} as const;

/**
 * A small inspection read in its own call record: started and finished events (the feed and
 * the caller's progress hear of it), a one-line summary, no files. It does not become the
 * engine's `current` call: reads that do not queue may run while an action does.
 */
export async function inspect<T>(
  record: CallRecord,
  pid: number | undefined,
  args: Record<string, unknown>,
  progress: () => Progress,
  read: (progress: Progress) => Promise<T>,
  describe: (value: T) => string,
): Promise<T> {
  const tool = record.tool;
  record.start(pid, args);
  try {
    const value = await read(progress());
    record.finish({ ...emptyResult(tool, pid), summary: describe(value) });
    return value;
  } catch (error) {
    const failure = toTandemError(error);
    record.finish(failedReadResult(tool, pid, failure));
    throw failure;
  }
}

/** A crop of one of pid's windows (window_id, else its frontmost) around `region` (screen points, as the tree prints them), password fields painted over; `shown` in screen points too. */
export async function zoomRead(desktop: Desktop, limits: SnapshotLimits, pid: number, windowId: number | undefined, region: Rect, progress: Progress): Promise<ZoomImage> {
  const window = chooseWindow(await desktop.windows(pid, progress), pid, windowId);
  const [screenshot, tree] = await Promise.all([
    desktop.screenshot({ windowId: window.windowId, pid }, progress),
    desktop.snapshot(pid, limits, progress),
  ]);
  const { x: left, y: top } = window.bounds;
  const image = await zoomInto(screenshot, window.bounds, { ...region, x: region.x - left, y: region.y - top }, secureAreas(tree.elements), { pid, windowId: window.windowId });
  return { ...image, shown: { ...image.shown, x: image.shown.x + left, y: image.shown.y + top } };
}

/** A zoom region: x, y (screen points) and a positive size, each within the coordinate bound. */
export function checkZoomRegion(region: Rect): void {
  const numbers = [region?.x, region?.y, region?.width, region?.height];
  if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= LIMITS.coordinate) || !(region.width > 0 && region.height > 0)) {
    throw new TandemError('bad-input', 'region needs x, y (screen points, as the tree prints them) and a positive width and height, each within ±100,000.');
  }
}
