// The engine as one socket connection sees it. Every call made through this view carries the
// connection's abort signal (a client that disconnects mid-action cancels only its own call;
// the engine still releases the guard and restores) and the connection's client id for the
// feed. Everything else — the queue, pause, events — is the shared engine's.

import type { ActRequest, CallContext, TandemEngine } from '../core/engineApi.js';

export interface ConnectionScope {
  signal: AbortSignal;
  /** Read at call time: the label improves once the client has said who it is. */
  clientId(): string;
}

function scoped(context: CallContext | undefined, scope: ConnectionScope): CallContext {
  const signal = context?.signal ? AbortSignal.any([context.signal, scope.signal]) : scope.signal;
  return { ...context, clientId: scope.clientId(), signal };
}

export function connectionEngine(engine: TandemEngine, scope: ConnectionScope): TandemEngine {
  return {
    open: (identifier: string, context?: CallContext) => engine.open(identifier, scoped(context, scope)),
    act: (request: ActRequest, context?: CallContext) => engine.act(request, scoped(context, scope)),
    refresh: (pid: number, context?: CallContext) => engine.refresh(pid, scoped(context, scope)),
    bringToFront: (pid: number, windowId?: number, context?: CallContext) => engine.bringToFront(pid, windowId, scoped(context, scope)),
    listApps: () => engine.listApps(),
    listWindows: (pid?: number, onScreenOnly?: boolean) => engine.listWindows(pid, onScreenOnly),
    cursorPosition: () => engine.cursorPosition(),
    displays: () => engine.displays(),
    zoom: (pid: number, windowId: number | undefined, region, context?: CallContext) => engine.zoom(pid, windowId, region, scoped(context, scope)),
    checkPermissions: () => engine.checkPermissions(),
    listArtifacts: (limit?: number) => engine.listArtifacts(limit),
    readArtifact: (name: string) => engine.readArtifact(name),
    getConfig: () => engine.getConfig(),
    // The host's one store: a change made over this connection applies to every other one.
    setConfig: (changes: unknown) => engine.setConfig(changes),
    setPaused: (paused: boolean) => engine.setPaused(paused),
    get paused() {
      return engine.paused;
    },
    get current() {
      return engine.current;
    },
    on: (event, listener) => engine.on(event, listener),
    // One connection going away must never close the engine all the others share.
    close: async () => {},
  };
}
