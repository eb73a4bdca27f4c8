// Whether the call opened a menu or a popup list in the target app: items shown now that were
// not shown before. Putting the person's front app back (restore.ts) takes the focus from the
// target, and toolkits close an open menu when their window loses it (GTK, Chromium's <select>
// list): items the answer lists as visible are then gone, and a click on one in the next call
// lands on whatever lies under it. The answer says so.

import type { ElementNode } from '../model.js';

/** Roles of the items of a menu or a popup list (Chromium's <select> list uses MenuItem). */
const MENU_ITEM_ROLES = new Set(['MenuItem', 'CheckMenuItem', 'RadioMenuItem']);

export function openedMenu(before: readonly ElementNode[], after: readonly ElementNode[]): boolean {
  const shownBefore = new Set<string>();
  for (const element of before) if (element.visible && element.identity !== undefined) shownBefore.add(element.identity);
  return after.some((element) => element.visible && MENU_ITEM_ROLES.has(element.role) && (element.identity === undefined || !shownBefore.has(element.identity)));
}
