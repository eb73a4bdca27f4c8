// The guard thread's life, apart from how it gets its bindings. One thread serves every
// engagement of the process (koffi issue #274: a worker that loaded thread-spawning libraries
// may never become joinable, so a Worker per engagement ended by terminate() could hang each
// release): the engine engages and releases the tap by message. While engaged the thread pumps
// the tap's run loop in 50 ms slices, yielding to its event loop between slices so heartbeats
// and the release get through; between engagements it only waits for the next message. The real
// worker (cgEventTapWorker.ts) runs it over koffi; unit tests run it over a fake binding.

import type { MacNative } from '../../../native/macos/macNative.js';
import { EventTapSession, type TapMessage } from './cgEventTapSession.js';
import { TapShared } from './cgEventTapShared.js';

/** What the thread gets once, at spawn. */
export interface TapThreadOptions {
  marker: string;
}

/** One engagement: its id tags every message about it, so a late one is never taken for the next's. */
export interface TapEngagement {
  id: number;
  heartbeatTimeoutMs: number;
  maxLifetimeMs: number;
  /** TapShared's buffer for this engagement, shared with the engine's thread. */
  shared: SharedArrayBuffer;
}

export type TapCommand =
  | { type: 'engage'; engagement: TapEngagement }
  | { type: 'heartbeat'; id: number }
  | { type: 'release'; id: number }
  /** The engine is closing: take down any tap and end the thread. */
  | { type: 'shutdown' };

/** A session's message, tagged with its engagement. */
export type TapThreadMessage = TapMessage & { id: number };

/** The part of a worker_threads MessagePort the thread uses. */
export interface TapPort {
  postMessage(message: TapThreadMessage): void;
  on(event: 'message', listener: (message: TapCommand) => void): unknown;
  close(): void;
}

/** `schedule` runs the next pump slice after this thread's event loop had its turn. */
export function runTapThread(
  port: TapPort,
  options: TapThreadOptions,
  loadNative: () => Promise<MacNative>,
  schedule: (next: () => void) => void = setImmediate,
): void {
  let native: MacNative | null = null;
  let loadFailure: string | null = null;
  const loading = loadNative().then(
    (loaded) => void (native = loaded),
    (error: unknown) => void (loadFailure = `Loading the macOS bindings in the guard thread failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  let current: { id: number; session: EventTapSession } | null = null;

  const engage = (engagement: TapEngagement): void => {
    const send = (message: TapMessage): void => port.postMessage({ ...message, id: engagement.id });
    if (!native) {
      send({ type: 'failed', cause: 'load', reason: loadFailure ?? 'the macOS bindings are not loaded' });
      port.close(); // useless without bindings: the engine spawns a new thread next time
      return;
    }
    // Engagements never overlap (the engine waits for each release); should one linger, end it.
    current?.session.stop('release');
    const session = new EventTapSession(
      native,
      {
        marker: BigInt(options.marker),
        sliceSeconds: 0.05,
        heartbeatTimeoutMs: engagement.heartbeatTimeoutMs,
        maxLifetimeMs: engagement.maxLifetimeMs,
        shared: new TapShared(engagement.shared),
      },
      send,
    );
    if (!session.start()) return;
    current = { id: engagement.id, session };
    const pumpLoop = (): void => {
      if (current?.session !== session) return;
      if (session.pump()) schedule(pumpLoop);
      else current = null;
    };
    schedule(pumpLoop);
  };

  const handle = (command: TapCommand): void => {
    switch (command.type) {
      case 'engage':
        engage(command.engagement);
        break;
      case 'heartbeat':
        if (current?.id === command.id) current.session.heartbeat();
        break;
      case 'release':
        if (current?.id === command.id) {
          current.session.stop('release');
          current = null;
        } else {
          // Already down (it ended by itself, or never came up): confirm, so release() need not wait.
          port.postMessage({ type: 'released', reason: 'release', id: command.id });
        }
        break;
      case 'shutdown':
        current?.session.stop('release');
        current = null;
        port.close();
        break;
    }
  };
  // Commands keep their order: each waits for the bindings, which load once.
  port.on('message', (command) => void loading.then(() => handle(command)));
}
