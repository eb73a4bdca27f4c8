// The guard's thread. An active event tap holds up every input event on the machine until its
// callback returns, so it must not share a thread with the engine's JS (a long AX walk or a GC
// pause would freeze the person's input and make macOS disable the tap). This worker loads the
// bindings and runs the tap (cgEventTapThread.ts) on its own run loop.

import { parentPort, workerData } from 'node:worker_threads';
import { loadMacNative } from '../../../native/macos/loadMacNative.js';
import { runTapThread, type TapPort, type TapThreadOptions } from './cgEventTapThread.js';

if (!parentPort) throw new Error('cgEventTapWorker must run as a worker thread');
void runTapThread(parentPort as unknown as TapPort, workerData as TapThreadOptions, loadMacNative);
