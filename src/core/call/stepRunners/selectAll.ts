// replace: true where accessibility cannot empty the field (Chromium's inputs offer no
// EditableText): its whole text is selected with the select-all key, as a person would, and the
// typed text goes over the selection. The key is pressed only with the focus in the field: in a
// one-line field nothing else, elsewhere it would select the whole page or document.

import type { Desktop, KeyName } from '../../desktop.js';
import { TandemError } from '../../errors.js';
import type { ElementNode, Modifier } from '../../model.js';
import { refind } from '../../tree/elementIndex.js';
import { holds } from '../../tree/lineage.js';
import type { CallState } from '../callState.js';

/** The platform's select-all key: the one place it is chosen (macOS: Command-A, written, not run here; X11 toolkits: Control-A). */
export function selectAllKey(platform: Desktop['platform']): { key: KeyName; modifiers: Modifier[] } {
  return { key: 'a', modifiers: [platform === 'darwin' ? 'meta' : 'control'] };
}

/** The element, or one inside it, has the keyboard focus in `elements` (a combo box's entry is inside the box). */
export function focusIsIn(elements: readonly ElementNode[], field: ElementNode): boolean {
  const now = refind(elements, field);
  if (!now) return false;
  const focused = elements.find((el) => el.focused);
  return focused !== undefined && holds(elements, now, focused);
}

/**
 * Selects all `field` holds with the select-all key, once a fresh tree shows the focus in it.
 * Returns the keys pressed (for the answer). Throws before pressing anything when the focus is
 * elsewhere: nothing was typed then.
 */
export async function selectAllOfField(state: CallState, field: ElementNode, label: string): Promise<string> {
  state.treeIsStale = true;
  const tree = await state.freshTree();
  if (!focusIsIn(tree.elements, field)) {
    throw new TandemError('unsupported', `${label} cannot be emptied through accessibility and did not take the keyboard focus, so its text was not selected (the select-all key would have reached something else): nothing was typed.`, {
      reason: 'focus-not-in-field',
      index: field.index,
    });
  }
  const { key, modifiers } = selectAllKey(state.desktop.platform);
  state.progress.log(`selecting all of ${label}`);
  await state.desktop.pressKey(key, modifiers, state.progress);
  state.treeIsStale = true;
  return [...modifiers, key].join('+');
}
