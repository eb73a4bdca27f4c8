// The overlay a server draws itself, where no app renderer draws one (`tandem mcp --direct`,
// `tandem serve`, `tandem call`, and the app on Linux): up as soon as the guard holds the
// person's input, saying what is being done in which app and that Esc gives control back,
// updated at each step, down as soon as the guard lets go. The guard announces every release
// (guard.ts); should that event ever be missed, the end of the call takes the overlay down too,
// once the longest grace period the guard may outlive the answer by has passed.

import type { EngineEventMap, TandemEngine } from '../engineApi.js';
import { MAX_GRACE_MS } from '../guard.js';
import { confirmQuestionText, overlayText } from './overlayText.js';

/** After call-finished, how long to wait for the guard's own release before hiding anyway. */
export const SERVER_OVERLAY_FALLBACK_MS = MAX_GRACE_MS + 1_000;

export interface OverlaySurface {
  show(text: string): Promise<void>;
  hide(): Promise<void>;
}

/** Drives `surface` from the engine's guard events; returns the function that detaches it. */
export function attachServerOverlay(engine: Pick<TandemEngine, 'on'>, surface: OverlaySurface, fallbackMs = SERVER_OVERLAY_FALLBACK_MS): () => void {
  let current: { callId: number; app: string; verb: string } | null = null;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const show = (event: EngineEventMap['guard-engaged']): void => {
    current = { callId: event.callId, app: event.app, verb: event.verb };
    void surface.show(overlayText(event.verb, event.app));
  };
  const step = (event: EngineEventMap['step']): void => {
    if (current?.callId !== event.callId) return;
    current.verb = event.verb;
    void surface.show(overlayText(event.verb, current.app));
  };
  // A confirm_before press: the overlay asks the person, then says again what is being done.
  const asked = (event: EngineEventMap['confirm-asked']): void => {
    if (current?.callId === event.callId) void surface.show(confirmQuestionText(event.element, event.app));
  };
  const answered = (event: EngineEventMap['confirm-answered']): void => {
    if (current?.callId === event.callId && event.allowed) void surface.show(overlayText(current.verb, current.app));
  };
  const hide = (callId: number): void => {
    if (current?.callId !== callId) return;
    current = null;
    void surface.hide();
  };
  const finished = (callId: number): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      hide(callId);
    }, fallbackMs);
    timer.unref?.();
    timers.add(timer);
  };
  const off = [
    engine.on('guard-engaged', show),
    engine.on('step', step),
    engine.on('confirm-asked', asked),
    engine.on('confirm-answered', answered),
    engine.on('guard-released', (event) => hide(event.callId)),
    engine.on('call-finished', (event) => finished(event.callId)),
  ];
  return () => {
    for (const unsubscribe of off) unsubscribe();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    if (current) void surface.hide();
    current = null;
  };
}
