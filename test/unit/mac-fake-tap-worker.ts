// An in-process stand-in for the guard's worker thread: it runs the real thread code
// (runTapThread → EventTapSession) over a FakeMacNative, with messages delivered asynchronously
// both ways like a MessagePort's. A test can make it crash, exit, or get stuck (no more pump
// slices, no more messages) to check what the engine's side does about a tap left behind.

import { EventEmitter } from 'node:events';
import { TapThreadHost, type TapWorker } from '../../src/backends/macos/cgEventTapHost.js';
import { runTapThread, type TapCommand, type TapPort, type TapThreadMessage, type TapThreadOptions } from '../../src/backends/macos/cgEventTapThread.js';
import { FakeMacNative } from './mac-fake-native.js';

export class FakeTapWorker extends EventEmitter implements TapWorker {
  /** No more pump slices or messages: like a thread blocked in native code. */
  stuck = false;
  terminated = false;
  readonly commands: TapCommand[] = [];
  private readonly portListeners: Array<(message: TapCommand) => void> = [];
  private exited = false;

  constructor(
    readonly native: FakeMacNative,
    readonly data: TapThreadOptions,
  ) {
    super();
    const port: TapPort = {
      postMessage: (message: TapThreadMessage) => {
        if (this.alive) setImmediate(() => this.emit('message', message));
      },
      on: (_event, listener) => this.portListeners.push(listener),
      close: () => setImmediate(() => this.exit(0)),
    };
    runTapThread(port, data, async () => native, (next) => setTimeout(() => this.alive && !this.stuck && next(), 5));
  }

  private get alive(): boolean {
    return !this.terminated && !this.exited;
  }

  postMessage(message: TapCommand): void {
    this.commands.push(message);
    setImmediate(() => {
      if (this.alive && !this.stuck) for (const listener of this.portListeners) listener(message);
    });
  }

  /** An uncaught error in the thread: Node reports 'error', then 'exit'; nothing tears the tap down. */
  crash(message: string): void {
    this.emit('error', new Error(message));
    this.exit(1);
  }

  /** The thread ends without tearing anything down (a process.exit() in the worker, say). */
  exitNow(): void {
    this.exit(0);
  }

  async terminate(): Promise<number> {
    this.terminated = true;
    // A stuck thread is not joinable (koffi #274): terminate() settles only once it is unstuck
    // (a slow thread), never for one that stays stuck. The poll holds no test process open.
    while (this.stuck) await new Promise((resolve) => setTimeout(resolve, 5).unref());
    await new Promise((resolve) => setImmediate(resolve));
    this.exit(1);
    return 1;
  }

  private exit(code: number): void {
    if (this.exited) return;
    this.exited = true;
    this.emit('exit', code);
  }
}

/** One process's guard thread host over a fake binding, and every worker it spawned. */
export function fakeTapHost(fake = new FakeMacNative()): { fake: FakeMacNative; host: TapThreadHost; workers: FakeTapWorker[] } {
  const workers: FakeTapWorker[] = [];
  const host = new TapThreadHost((data) => {
    const worker = new FakeTapWorker(fake, data);
    workers.push(worker);
    return worker;
  });
  return { fake, host, workers };
}
