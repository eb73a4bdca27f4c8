// The one-line state the tray shows and the renderer's header repeats.

import type { TandemEngine } from '../core/engineApi.js';
import type { AppStateView } from '../shared/types.js';

export function statusText(current: TandemEngine['current'], paused: boolean): string {
  if (current) return `acting: ${current.tool}${current.app ? ` in ${current.app}` : ''}`;
  return paused ? 'paused' : 'idle';
}

export function platformView(platform: NodeJS.Platform): AppStateView['platform'] {
  return platform === 'darwin' || platform === 'linux' ? platform : 'other';
}

/**
 * `finishedCallId`: a call whose call-finished event is being handled — the engine clears
 * `current` only after emitting it, and the tray must not keep saying "acting".
 */
export function appStateView(engine: TandemEngine, platform: NodeJS.Platform, version: string, finishedCallId?: number): AppStateView {
  const running = engine.current;
  const current = running && running.callId !== finishedCallId ? running : null;
  return {
    paused: engine.paused,
    status: statusText(current, engine.paused),
    current: current ? { ...current } : null,
    platform: platformView(platform),
    version,
  };
}
