// MCP progress for a call whose request carried a progressToken: one notification per step, and
// while a long text is typed, one per ~500 characters the app has taken in. `progress` counts
// steps (a step half typed is half a step), so it only ever grows, as the protocol requires.
// The typed text itself is never in a message: only how many characters.

import type { EngineEventMap, EngineEventName } from '../core/engineApi.js';

export interface ProgressNotice {
  progress: number;
  total: number;
  message: string;
}

const count = (value: number): string => value.toLocaleString('en-US');

/**
 * An engine-event listener for one call that turns its events into notices for `send`, each
 * with a progress greater than the last (anything else is dropped).
 */
export function progressListener(send: (notice: ProgressNotice) => void): <K extends EngineEventName>(event: K, payload: EngineEventMap[K]) => void {
  let steps = 0;
  let last = -1;
  const emit = (notice: ProgressNotice): void => {
    if (notice.progress <= last) return;
    last = notice.progress;
    send(notice);
  };
  return (event, payload) => {
    if (event === 'call-started') {
      const args = (payload as EngineEventMap['call-started']).args;
      steps = Array.isArray(args.steps) ? args.steps.length : 0;
      return;
    }
    if (event === 'step') {
      const { index, label } = payload as EngineEventMap['step'];
      const total = Math.max(steps, index + 1);
      emit({ progress: index, total, message: `step ${index + 1} of ${total}: ${label}` });
      return;
    }
    if (event === 'input-progress') {
      const { index, done, total: characters } = payload as EngineEventMap['input-progress'];
      const total = Math.max(steps, index + 1);
      emit({ progress: index + Math.min(done, characters) / Math.max(1, characters), total, message: `step ${index + 1} of ${total}: ${count(done)} of ${count(characters)} characters typed` });
    }
  };
}
