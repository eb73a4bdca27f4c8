// The engine as one socket connection sees it. Every call made through this view carries the
// connection's abort signal (a client that disconnects mid-action cancels only its own call;
// the engine still releases the guard and restores) and the connection's client id for the
// feed. Everything else — the queue, pause, events — is the shared engine's.

import type { ActRequest, CallContext, TandemEngine } from '../../core/engineApi.js';

export interface ConnectionScope {
  signal: AbortSignal;
  /** Read at call time: the label improves once the client has said who it is. */
  clientId(): string;
  /** The peer process (the relay), from the socket's credentials, when known. */
  peerPid?: number;
}

function scoped(context: CallContext | undefined, scope: ConnectionScope): CallContext {
  const signal = context?.signal ? AbortSignal.any([context.signal, scope.signal]) : scope.signal;
  return { ...context, clientId: scope.clientId(), signal, viaSocket: true, ...(scope.peerPid !== undefined ? { clientPid: scope.peerPid } : {}) };
}

export function connectionEngine(engine: TandemEngine, scope: ConnectionScope): TandemEngine {
  return {
    open: (identifier: string, context?: CallContext) => engine.open(identifier, scoped(context, scope)),
    act: (request: ActRequest, context?: CallContext) => engine.act(request, scoped(context, scope)),
    refresh: (pid: number, context?: CallContext, options?: { windowId?: number }) => engine.refresh(pid, scoped(context, scope), options),
    bringToFront: (pid: number, windowId?: number, context?: CallContext) => engine.bringToFront(pid, windowId, scoped(context, scope)),
    listApps: (context?: CallContext) => engine.listApps(scoped(context, scope)),
    listWindows: (pid?: number, onScreenOnly?: boolean, context?: CallContext) => engine.listWindows(pid, onScreenOnly, scoped(context, scope)),
    cursorPosition: (context?: CallContext) => engine.cursorPosition(scoped(context, scope)),
    displays: (context?: CallContext) => engine.displays(scoped(context, scope)),
    launchApp: (args, context?: CallContext) => engine.launchApp(args, scoped(context, scope)),
    killApp: (pid: number, force: boolean, context?: CallContext) => engine.killApp(pid, force, scoped(context, scope)),
    zoom: (pid: number, windowId: number | undefined, region, context?: CallContext) => engine.zoom(pid, windowId, region, scoped(context, scope)),
    checkPermissions: (context?: CallContext) => engine.checkPermissions(scoped(context, scope)),
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
