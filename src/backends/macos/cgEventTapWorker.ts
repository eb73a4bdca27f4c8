// The guard's thread. An active event tap holds up every input event on the machine until its
// callback returns, so it must not share a thread with the engine's JS (a long AX walk or a GC
// pause would freeze the person's input and make macOS disable the tap). This worker loads the
// bindings once and runs the tap of every engagement (cgEventTapThread.ts) on its own run loop;
// it lives as long as the process (cgEventTapHost.ts).

import { parentPort, workerData } from 'node:worker_threads';
import { loadMacNative } from '../../../native/macos/loadMacNative.js';
import { runTapThread, type TapPort, type TapThreadOptions } from './cgEventTapThread.js';

if (!parentPort) throw new Error('cgEventTapWorker must run as a worker thread');
runTapThread(parentPort as unknown as TapPort, workerData as TapThreadOptions, loadMacNative);
