// The overlay a server draws itself (no app renderer attached: `tandem mcp --direct`, `tandem
// serve`): up as soon as the guard holds the person's input, saying what is being done in which
// app and that Esc gives control back, updated at each step, gone as soon as the guard lets go
// (also when a call ends without the release event: it must never outlive its guard). When the
// Electron app hosts the engine its renderer draws the overlay instead: exactly one, never two.

import type { EngineEventMap, TandemEngine } from './engineApi.js';

export interface OverlaySurface {
  show(text: string): Promise<void>;
  hide(): Promise<void>;
}

/** "Tandem is typing in mousepad — press Esc to take back control". */
export function overlayText(verb: string, app: string): string {
  const doing = verb.toLowerCase();
  return `Tandem is ${doing} in ${app || 'an app'} — press Esc to take back control`;
}

/** Drives `surface` from the engine's guard events; returns the function that detaches it. */
export function attachServerOverlay(engine: Pick<TandemEngine, 'on'>, surface: OverlaySurface): () => void {
  let current: { callId: number; app: string } | null = null;
  const show = (event: EngineEventMap['guard-engaged']): void => {
    current = { callId: event.callId, app: event.app };
    void surface.show(overlayText(event.verb, event.app));
  };
  const step = (event: EngineEventMap['step']): void => {
    if (current?.callId === event.callId) void surface.show(overlayText(event.verb, current.app));
  };
  const hide = (callId: number): void => {
    if (current?.callId !== callId) return;
    current = null;
    void surface.hide();
  };
  const off = [
    engine.on('guard-engaged', show),
    engine.on('step', step),
    engine.on('guard-released', (event) => hide(event.callId)),
  ];
  return () => {
    for (const unsubscribe of off) unsubscribe();
    if (current) void surface.hide();
    current = null;
  };
}
