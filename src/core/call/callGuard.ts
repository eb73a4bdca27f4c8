// The guard engaged for one call and announced as it comes and goes (the feed, the overlay):
// for a foreground call's steps (callLifecycle.ts), or just for a question in a call that holds
// none (confirmPress.ts).

import type { GuardSession } from '../guard.js';
import { overlayText } from '../overlay/overlayText.js';
import type { CallState } from './callState.js';

/** Holds the person's input for `state`'s call, the overlay saying `verb` in its app. */
export function engageCallGuard(state: CallState, verb: string): Promise<GuardSession> {
  const label = overlayText(verb, state.appName);
  return state.deps.guard.engage(
    state.progress,
    {
      onEngaged: () => state.record.emit('guard-engaged', { callId: state.callId, tool: state.request.tool, label, verb, app: state.appName }),
      onReleased: (reason) => state.record.emit('guard-released', { callId: state.callId, reason }),
      log: state.log,
    },
    state.options.watchdogMs,
  );
}
