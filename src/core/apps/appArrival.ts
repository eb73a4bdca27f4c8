// Reuse or start, then wait for the window: open_application and launch_app written once for
// every OS over three backend primitives — resolve the request (what runs already, how to start
// it), start it, and look once whether it answers with a window (desktop.ts ResolvedApp,
// StartedApp). The backends only answer; the polling and the deadline are here.

import type { ArrivedApp, Desktop, LaunchRequest, LaunchedApp, OpenedApp, StartedApp } from '../desktop.js';
import type { RunningApp } from '../model.js';
import { sleep, throwIfAborted, type Progress } from '../progress.js';

/** How often a started app is looked at (a wait on a condition, not a settle). */
const ARRIVAL_POLL_MS = 50;
/** Longest one look may take (an app that stops answering the bus must not eat the whole wait). */
const ARRIVAL_LOOK_MS = 1_000;

/** Looks at a started app until it answers with a window; its own error once the wait is over. */
export async function waitForArrival(started: StartedApp, progress: Progress): Promise<ArrivedApp> {
  const deadline = started.windowWaitMs === undefined ? progress.deadline : Math.min(progress.deadline, Date.now() + started.windowWaitMs);
  for (;;) {
    throwIfAborted(progress);
    const arrived = await started.arrived({ ...progress, deadline: Math.min(deadline, Date.now() + ARRIVAL_LOOK_MS) });
    if (arrived) return arrived;
    // A process that died as it started is answered then, not after the whole wait.
    const failure = started.failed?.();
    if (failure) throw failure;
    if (Date.now() >= deadline) throw started.notArrived();
    await sleep(Math.min(ARRIVAL_POLL_MS, Math.max(0, deadline - Date.now())), progress);
  }
}

function appOf(arrived: ArrivedApp): RunningApp {
  return arrived.id === undefined ? { pid: arrived.pid, name: arrived.name } : { pid: arrived.pid, name: arrived.name, id: arrived.id };
}

/** open_application: the running instance as it is, else a started one once it shows a window. */
export async function openApp(desktop: Pick<Desktop, 'resolveApp'>, identifier: string, progress: Progress): Promise<OpenedApp> {
  const resolved = await desktop.resolveApp({ kind: 'any', value: identifier }, progress);
  if (resolved.running && !resolved.startsWhenRunning) return { ...resolved.running, reused: true };
  const arrived = await waitForArrival(await resolved.start(progress), progress);
  return { ...appOf(arrived), reused: resolved.running !== null };
}

/**
 * launch_app's start: the running instance unless a new one is asked for, else a started one
 * once it shows a window (or the running instance a single-instance app handed its work to).
 */
export async function startApp(desktop: Pick<Desktop, 'resolveApp'>, request: LaunchRequest, progress: Progress): Promise<LaunchedApp> {
  const resolved = await desktop.resolveApp(request, progress);
  if (resolved.running && !request.newInstance && !resolved.startsWhenRunning) return { ...resolved.running, alreadyRunning: true, handedOver: false };
  const arrived = await waitForArrival(await resolved.start(progress), progress);
  return { ...appOf(arrived), alreadyRunning: false, handedOver: arrived.handedOver };
}
