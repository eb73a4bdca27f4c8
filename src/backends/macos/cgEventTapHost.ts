// The one guard thread of the process, spawned on first use and kept: every engagement of the
// guard is an 'engage' and a 'release' message to it, never a new Worker ended by terminate()
// (koffi issue #274: a worker that loaded thread-spawning libraries may never become joinable,
// which would hang every release). The host routes the thread's messages to the engagement they
// name. A thread that stops answering a release is never waited on again: the host marks the
// guard unusable (later engagements are refused with guard-unavailable) and lets it go — and
// tells the exit paths (stuckThreads.ts), since Node's exit joins worker threads and would wait
// on it for ever: they end the process with SIGKILL instead.

import { Worker } from 'node:worker_threads';
import { outsideAsar } from '../outsideAsar.js';
import { noteStuckThread } from '../stuckThreads.js';
import { fileURLToPath } from 'node:url';
import { TandemError } from '../../core/errors.js';
import type { TapMessage } from './cgEventTapSession.js';
import { TANDEM_EVENT_MARKER } from './cgEventTapPolicy.js';
import type { TapCommand, TapEngagement, TapThreadMessage, TapThreadOptions } from './cgEventTapThread.js';

/** The part of a worker_threads Worker the host uses (unit tests supply an in-process one). */
export interface TapWorker {
  postMessage(message: TapCommand): void;
  on(event: 'message', listener: (message: TapThreadMessage) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<number>;
  /** Lets the process exit while the thread idles between engagements. */
  unref?(): void;
}

/** What one engagement hears from the thread. */
export interface TapEngagementEvents {
  message(message: TapMessage): void;
  /** The thread failed (an uncaught error); 'exit' follows. */
  error(error: Error): void;
  /** The thread is gone. */
  exit(): void;
}

/** One engagement's line to the thread. */
export interface TapChannel {
  readonly id: number;
  /** Never throws: a thread that is gone reports it through 'exit'. */
  send(command: TapCommand): void;
  /** Stops routing the thread's messages to this engagement. */
  close(): void;
}

/** How long close() waits for the thread to end; a thread marked unusable is left to a SIGKILL exit (stuckThreads.ts). */
const CLOSE_WAIT_MS = 1_000;

/**
 * The worker file next to this one: the compiled .js in every build; when running from sources
 * under tsx (development, unit tests) a tiny bootstrap registers tsx in the worker first.
 */
export function spawnTapWorker(workerData: TapThreadOptions): TapWorker {
  if (!fileURLToPath(import.meta.url).endsWith('.ts')) return new Worker(outsideAsar(new URL('./cgEventTapWorker.js', import.meta.url)), { workerData });
  const source = new URL('./cgEventTapWorker.ts', import.meta.url).href;
  return new Worker(`import('tsx/esm/api').then((tsx) => tsx.register()).then(() => import(${JSON.stringify(source)}))`, { eval: true, workerData });
}

export class TapThreadHost {
  private worker: TapWorker | null = null;
  /** Why the guard may not be engaged again in this process (the thread stopped answering). */
  private unusable: string | null = null;
  private nextId = 1;
  /** Open engagements, with the thread each runs on (a thread's end concerns only its own). */
  private readonly engagements = new Map<number, { events: TapEngagementEvents; worker: TapWorker }>();

  constructor(private readonly spawn: (data: TapThreadOptions) => TapWorker = spawnTapWorker) {}

  /** Engages the thread (spawned if there is none yet). Throws guard-unavailable once it stopped answering. */
  open(events: TapEngagementEvents, engagement: Omit<TapEngagement, 'id'>): TapChannel {
    if (this.unusable !== null) {
      throw new TandemError('guard-unavailable', `The input guard's thread stopped answering earlier (${this.unusable}), so Tandem will not hold the keyboard and mouse again until it restarts.`, {
        reason: 'guard-thread-stuck',
      });
    }
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    this.engagements.set(id, { events, worker });
    const channel: TapChannel = {
      id,
      send: (command) => {
        try {
          worker.postMessage(command);
        } catch (error) {
          console.error('[tandem] messaging the guard thread:', error);
        }
      },
      close: () => void this.engagements.delete(id),
    };
    channel.send({ type: 'engage', engagement: { ...engagement, id } });
    return channel;
  }

  /** The thread did not answer in time: never use it again, and end it without waiting on it. */
  markUnusable(reason: string): void {
    this.unusable ??= reason;
    const endedAfterAll = noteStuckThread(`the macOS input guard's thread: ${reason}`);
    const worker = this.worker;
    this.worker = null;
    // Ended after all (only slow): the exit need not kill the process. The guard stays refused.
    if (worker) void worker.terminate().then(endedAfterAll, () => undefined);
    else endedAfterAll();
  }

  /** Ends the thread (it takes down any tap first); waits for it a bounded time only. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    try {
      worker.postMessage({ type: 'shutdown' });
    } catch {
      // already gone
    }
    let timer: NodeJS.Timeout | undefined;
    const terminated = worker.terminate().then(() => true, () => true);
    const ended = await Promise.race([
      terminated,
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    // Not ended (koffi #274: a thread that never becomes joinable): a normal exit would wait on it.
    if (!ended) void terminated.then(noteStuckThread(`the macOS input guard's thread did not end within ${CLOSE_WAIT_MS} ms of shutdown`));
  }

  private start(): TapWorker {
    const worker = this.spawn({ marker: TANDEM_EVENT_MARKER.toString() });
    worker.unref?.();
    this.worker = worker;
    const each = (call: (events: TapEngagementEvents) => void): void => {
      for (const open of [...this.engagements.values()]) if (open.worker === worker) call(open.events);
    };
    worker.on('message', (message) => {
      const { id, ...rest } = message;
      this.engagements.get(id)?.events.message(rest as TapMessage);
    });
    worker.on('error', (error) => each((events) => events.error(error)));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      each((events) => events.exit());
    });
    return worker;
  }
}
