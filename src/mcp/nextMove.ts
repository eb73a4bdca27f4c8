// The `hint:` line of every call answer — what the model should do next — written here and only
// here, from the facts of the CallResult (status, error code, who cancelled, a handoff, an app
// that exited). Core reports what happened; it never names a tool or advises the model.

import type { CallResult } from '../core/call/result.js';
import { guidanceFor } from './errors.js';

const AFTER_ACTION = 'Read the diff file for what changed; call refresh_traversal for the full tree with coordinates; look at the screenshot.';

export function nextMoveFor(result: CallResult): string {
  if (result.appSwitch) {
    return `A new window from pid ${result.appSwitch.pid} (${result.appSwitch.app}) took the front: its tree is below; act on that pid next.`;
  }
  switch (result.status) {
    case 'ok':
      if (result.appExited) return `${result.app} exited; call list_applications to see what is running.`;
      // A read (open, refresh, a window's state) hands out a tree to act on; an action a diff.
      if (result.stepsTotal === 0) {
        return `Grep the tree file for the element you want (the #N its line starts with is its element_index); then act on pid ${result.pid} by text or element_index.`;
      }
      return AFTER_ACTION;
    case 'cancelled':
      return result.cancelledBy === 'person'
        ? 'The person pressed Esc: stop, and ask them before trying again.'
        : 'The call was cancelled before it finished; call refresh_traversal to see the current state.';
    case 'watchdog':
      return guidanceFor('watchdog');
    case 'error':
      return guidanceFor(result.error?.code ?? 'internal', result.error?.reason);
  }
}

/** A tree in the answer was cut short: what that means for the model. */
export function truncationText(result: CallResult): string | undefined {
  const cut = result.truncated;
  if (!cut) return undefined;
  return `the tree of pid ${cut.pid} was cut short (${cut.reason}: ${cut.detail}); act on what is listed or refresh later`;
}
