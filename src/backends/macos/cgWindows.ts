// Windows from CGWindowListCopyWindowInfo: live (no AppKit cache), top-left points, front to
// back. Window titles are empty without Screen Recording; ids and bounds are always there.

import type { Rect, WindowInfo } from '../../core/model.js';
import type { MacNative } from '../../../native/macos/macNative.js';
import { kCGNullWindowID, kCGWindowListExcludeDesktopElements, kCGWindowListOptionOnScreenOnly } from '../../../native/macos/macNative.js';
import type { CFDecoder } from '../../../native/macos/cfDecode.js';
import { withCFScope } from '../../../native/macos/cfScope.js';

export interface CGWindowEntry extends WindowInfo {
  owner: string;
  layer: number;
  onScreen: boolean;
}

/** Reads the window list; `onScreenOnly` false also lists minimised windows and other Spaces. */
export function readWindowList(native: Pick<MacNative, 'cf' | 'cg'>, decoder: CFDecoder, onScreenOnly: boolean): CGWindowEntry[] {
  const { cf, cg } = native;
  const keys = cg.windowInfoKeys;
  const option = (onScreenOnly ? kCGWindowListOptionOnScreenOnly : 0) | kCGWindowListExcludeDesktopElements;
  return withCFScope(cf, (scope) => {
    const list = scope.adopt(cg.CGWindowListCopyWindowInfo(option, kCGNullWindowID));
    const entries: CGWindowEntry[] = [];
    for (const dict of decoder.arrayItems(list)) {
      const windowId = decoder.number(decoder.dictValue(dict, keys.kCGWindowNumber));
      const pid = decoder.number(decoder.dictValue(dict, keys.kCGWindowOwnerPID));
      if (windowId === null || pid === null) continue;
      const boundsDict = decoder.dictValue(dict, keys.kCGWindowBounds);
      const rect = boundsDict !== null ? cg.CGRectMakeWithDictionaryRepresentation(boundsDict) : null;
      const bounds: Rect | null = rect ? { x: rect.origin.x, y: rect.origin.y, width: rect.size.width, height: rect.size.height } : null;
      entries.push({
        windowId,
        pid,
        title: decoder.string(decoder.dictValue(dict, keys.kCGWindowName)) ?? '',
        owner: decoder.string(decoder.dictValue(dict, keys.kCGWindowOwnerName)) ?? '',
        layer: decoder.number(decoder.dictValue(dict, keys.kCGWindowLayer)) ?? 0,
        onScreen: decoder.boolean(decoder.dictValue(dict, keys.kCGWindowIsOnscreen)) ?? onScreenOnly,
        bounds,
      });
    }
    return entries;
  });
}

/** Normal app windows (layer 0) of pid, or of every app, front to back (zOrder counts among all apps' normal windows). */
export function appWindows(entries: readonly CGWindowEntry[], pid?: number): WindowInfo[] {
  return entries
    .filter((w) => w.layer === 0)
    .map(({ windowId, pid: owner, title, bounds, owner: app, onScreen }, zOrder) => ({ windowId, pid: owner, title, bounds, app, zOrder, onScreen }))
    .filter((w) => pid === undefined || w.pid === pid);
}

/** The frontmost normal window: the first layer-0 on-screen window (the list is front to back). */
export function frontmostWindow(entries: readonly CGWindowEntry[]): CGWindowEntry | undefined {
  return entries.find((w) => w.layer === 0 && w.onScreen && (w.bounds?.width ?? 0) > 1 && (w.bounds?.height ?? 0) > 1);
}
