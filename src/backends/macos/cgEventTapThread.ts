// The guard thread's life, apart from how it gets its bindings: create the tap session, answer
// the engine's messages (heartbeat, release) and pump the tap's run loop in 50 ms slices,
// yielding to this thread's event loop between slices so those messages get through. The real
// worker (cgEventTapWorker.ts) runs it over koffi; unit tests run it over a fake binding.

import type { MacNative } from '../../../native/macos/macNative.js';
import { EventTapSession, type TapMessage } from './cgEventTapSession.js';
import { TapShared } from './cgEventTapShared.js';

export interface TapThreadOptions {
  marker: string;
  heartbeatTimeoutMs: number;
  maxLifetimeMs: number;
  /** TapShared's buffer, shared with the engine's thread. */
  shared: SharedArrayBuffer;
}

export type TapCommand = { type: 'heartbeat' } | { type: 'release' };

/** The part of a worker_threads MessagePort the thread uses. */
export interface TapPort {
  postMessage(message: TapMessage): void;
  on(event: 'message', listener: (message: TapCommand) => void): unknown;
  close(): void;
}

/** `schedule` runs the next pump slice after this thread's event loop had its turn. */
export async function runTapThread(
  port: TapPort,
  options: TapThreadOptions,
  loadNative: () => Promise<MacNative>,
  schedule: (next: () => void) => void = setImmediate,
): Promise<void> {
  const send = (message: TapMessage): void => port.postMessage(message);
  let session: EventTapSession;
  try {
    const native = await loadNative();
    session = new EventTapSession(
      native,
      {
        marker: BigInt(options.marker),
        sliceSeconds: 0.05,
        heartbeatTimeoutMs: options.heartbeatTimeoutMs,
        maxLifetimeMs: options.maxLifetimeMs,
        shared: new TapShared(options.shared),
      },
      send,
    );
  } catch (error) {
    send({ type: 'failed', cause: 'load', reason: `Loading the macOS bindings in the guard thread failed: ${error instanceof Error ? error.message : String(error)}` });
    port.close();
    return;
  }
  port.on('message', (message) => {
    if (message.type === 'heartbeat') session.heartbeat();
    else if (message.type === 'release') session.stop('release');
  });
  if (!session.start()) {
    port.close();
    return;
  }
  const pumpLoop = (): void => {
    if (session.pump()) schedule(pumpLoop);
    else port.close();
  };
  schedule(pumpLoop);
}
