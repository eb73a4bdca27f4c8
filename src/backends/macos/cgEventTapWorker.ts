// The guard's thread. An active event tap holds up every input event on the machine until its
// callback returns, so it must not share a thread with the engine's JS (a long AX walk or a GC
// pause would freeze the person's input and make macOS disable the tap). This worker loads the
// bindings, creates the tap on its own run loop and pumps it in 50 ms slices, yielding to its
// event loop between slices so messages from the main thread (heartbeat, release) get through.

import { parentPort, workerData } from 'node:worker_threads';
import { loadMacNative } from '../../../native/macos/loadMacNative.js';
import { EventTapSession, type TapMessage } from './cgEventTapSession.js';

interface WorkerOptions {
  marker: string;
  heartbeatTimeoutMs: number;
  maxLifetimeMs: number;
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('cgEventTapWorker must run as a worker thread');
  const options = workerData as WorkerOptions;
  const send = (message: TapMessage): void => port.postMessage(message);
  let session: EventTapSession | null = null;
  try {
    const native = await loadMacNative();
    session = new EventTapSession(native, {
      marker: BigInt(options.marker),
      sliceSeconds: 0.05,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs,
      maxLifetimeMs: options.maxLifetimeMs,
    }, send);
  } catch (error) {
    send({ type: 'failed', cause: 'load', reason: `Loading the macOS bindings in the guard thread failed: ${error instanceof Error ? error.message : String(error)}` });
    port.close();
    return;
  }
  const active = session;
  port.on('message', (message: { type: 'heartbeat' | 'release' }) => {
    if (message.type === 'heartbeat') active.heartbeat();
    else if (message.type === 'release') active.stop('release');
  });
  if (!active.start()) {
    port.close();
    return;
  }
  const pumpLoop = (): void => {
    if (active.pump()) setImmediate(pumpLoop);
    else port.close();
  };
  setImmediate(pumpLoop);
}

void main();
