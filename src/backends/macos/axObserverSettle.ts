// Settle after an action: listen to the app's AX notifications and return once it has been quiet
// for quietMs (or the cap passed). In plain Node nobody runs this thread's CFRunLoop, so the wait
// pumps it in short slices (callbacks then fire synchronously inside CFRunLoopRunInMode); in
// Electron main the Cocoa run loop delivers them and the wait only sleeps. When the observer
// cannot be set up the answer is 'unsupported' and core falls back to a fixed delay.

import type { SettleOutcome } from '../../core/desktop.js';
import { type Progress, sleep, throwIfAborted } from '../../core/progress.js';
import type { NullableRef, Ref } from '../../../native/macos/macNative.js';
import { AXErrorCode } from './axErrors.js';
import type { AxSession } from './axElement.js';

export const SETTLE_NOTIFICATIONS = [
  'AXValueChanged',
  'AXUIElementDestroyed',
  'AXCreated',
  'AXFocusedUIElementChanged',
  'AXFocusedWindowChanged',
  'AXTitleChanged',
  'AXWindowCreated',
  'AXSelectedTextChanged',
  'AXSelectedChildrenChanged',
  'AXLayoutChanged',
  'AXMenuOpened',
  'AXMenuClosed',
] as const;

export interface SettleOptions {
  /** Pump this thread's CFRunLoop (plain Node) or leave it to the host's run loop (Electron). */
  pumpRunLoop: boolean;
  now?: () => number;
}

export async function waitForQuietAx(session: AxSession, pid: number, quietMs: number, capMs: number, progress: Progress, options: SettleOptions): Promise<SettleOutcome> {
  const { ax, cf, callbacks } = session.native;
  const now = options.now ?? Date.now;
  const started = now();
  let lastChange = started;
  let notifications = 0;
  const callback = callbacks.registerObserverCallback(() => {
    try {
      lastChange = now();
      notifications++;
    } catch {
      // never throw into native code
    }
  });
  let observer: Ref | null = null;
  let source: NullableRef = null;
  let runLoop: Ref | null = null;
  const added: Ref[] = [];
  const app = session.app(pid);
  try {
    const out: NullableRef[] = [null];
    if (ax.AXObserverCreate(pid, callback, out) !== AXErrorCode.success || out[0] === null) return 'unsupported';
    observer = out[0];
    for (const name of SETTLE_NOTIFICATIONS) {
      const error = ax.AXObserverAddNotification(observer, app, session.name(name), null);
      if (error === AXErrorCode.success || error === AXErrorCode.notificationAlreadyRegistered) added.push(session.name(name));
    }
    source = ax.AXObserverGetRunLoopSource(observer);
    if (added.length === 0 || source === null) return 'unsupported';
    runLoop = cf.CFRunLoopGetCurrent();
    cf.CFRunLoopAddSource(runLoop, source, cf.kCFRunLoopDefaultMode);
    for (;;) {
      throwIfAborted(progress);
      if (options.pumpRunLoop) {
        cf.CFRunLoopRunInMode(cf.kCFRunLoopDefaultMode, 0.01, false);
        await new Promise<void>((resolve) => setImmediate(resolve));
      } else {
        await sleep(20, progress);
      }
      const t = now();
      if (t - lastChange >= quietMs) {
        progress.log(`settled after ${t - started} ms (${notifications} accessibility notifications)`);
        return 'quiet';
      }
      if (t - started >= capMs || t >= progress.deadline) return 'cap';
    }
  } finally {
    if (observer !== null) {
      for (const name of added) ax.AXObserverRemoveNotification(observer, app, name);
      if (source !== null && runLoop !== null) cf.CFRunLoopRemoveSource(runLoop, source, cf.kCFRunLoopDefaultMode);
      cf.CFRelease(observer);
    }
    callbacks.unregister(callback);
  }
}
