// Applications registered on the accessibility bus: the registry's children, each a D-Bus
// connection whose pid the bus daemon knows.

import { readFileSync } from 'node:fs';
import { readFile, readlink } from 'node:fs/promises';
import { basename } from 'node:path';
import type { RunningApp } from '../../core/model.js';
import { withTimeout, type Progress } from '../../core/progress.js';
import { IFACE, REGISTRY_BUS_NAME, ROOT_PATH, type ObjectRef } from '../../../native/linux/atspiProtocol.js';
import type { AtspiBus } from './atspiBus.js';
import { parseProcessState } from './procSignals.js';

/** An app as the accessibility bus knows it. */
export interface AtspiApp extends RunningApp {
  busName: string;
  /** The app's root object (ROOT_PATH for every toolkit we know). */
  rootPath: string;
}

/** A frozen app must not hold up the whole listing: its name comes from /proc instead. */
const PER_APP_NAME_TIMEOUT_MS = 500;

export class AtspiApps {
  private readonly bus: AtspiBus;
  /** Unique bus names are never reused, so their pid never changes. */
  private readonly pidByBusName = new Map<string, number>();
  /** Last description per bus name: forPid (every snapshot) reuses it, list() refreshes it. */
  private readonly described = new Map<string, AtspiApp>();

  constructor(bus: AtspiBus) {
    this.bus = bus;
  }

  async list(progress: Progress): Promise<AtspiApp[]> {
    const refs = await this.registeredApps(progress);
    const apps = await Promise.all(refs.map((ref) => this.describe(ref, progress).catch(() => null)));
    return apps.filter((app): app is AtspiApp => app !== null);
  }

  /** Only pid's own app is described: another app being frozen must not slow this down. */
  async forPid(pid: number, progress: Progress): Promise<AtspiApp | null> {
    const refs = await this.registeredApps(progress);
    const pids = await Promise.all(refs.map(([busName]) => this.pidOfBusName(busName, progress).catch(() => -1)));
    const index = pids.indexOf(pid);
    if (index < 0) return null;
    const known = this.described.get(refs[index][0]);
    if (known && !processRunning(pid)) return null;
    return known ?? this.describe(refs[index], progress);
  }

  private async registeredApps(progress: Progress): Promise<ObjectRef[]> {
    const [children] = await this.bus.call(
      { destination: REGISTRY_BUS_NAME, path: ROOT_PATH, interface: IFACE.accessible, member: 'GetChildren' },
      progress,
      'list the applications on the accessibility bus',
    );
    const refs = (children as ObjectRef[] | undefined) ?? [];
    const live = new Set(refs.map(([busName]) => busName));
    for (const busName of this.pidByBusName.keys()) if (!live.has(busName)) this.pidByBusName.delete(busName);
    for (const busName of this.described.keys()) if (!live.has(busName)) this.described.delete(busName);
    return refs;
  }

  private async pidOfBusName(busName: string, progress: Progress): Promise<number> {
    let pid = this.pidByBusName.get(busName);
    if (pid === undefined) {
      pid = await this.bus.pidOf(busName, progress);
      this.pidByBusName.set(busName, pid);
    }
    return pid;
  }

  private async describe([busName, rootPath]: ObjectRef, progress: Progress): Promise<AtspiApp | null> {
    const pid = await this.pidOfBusName(busName, progress);
    if (pid <= 0 || pid === process.pid) return null;
    // The registry drops an app only once it sees its bus name go: for a moment after an app
    // exits it is still listed, and reusing it would hand the agent a pid that is already gone.
    if (!processRunning(pid)) return null;
    const [rootName, exe, comm] = await Promise.all([
      this.bus
        .getProperty(busName, rootPath, IFACE.accessible, 'Name', withTimeout(progress, PER_APP_NAME_TIMEOUT_MS), 'read the app name')
        .then((value) => (typeof value === 'string' ? value : ''))
        .catch(() => ''),
      executableName(pid),
      processName(pid),
    ]);
    const name = rootName || comm || exe || busName;
    const app: AtspiApp = { pid, name, id: exe || comm || undefined, busName, rootPath };
    // A name read while the app was frozen or starting (the /proc fallback) is not kept.
    if (rootName) this.described.set(busName, app);
    return app;
  }
}

/**
 * The process exists and has not exited (procSignals.ts reads the state). Read synchronously: a
 * few microseconds for a /proc file, where the promise version's open/fstat/read/close through
 * the thread pool cost a third of a millisecond on every snapshot.
 */
export function processRunning(pid: number): boolean {
  try {
    return parseProcessState(readFileSync(`/proc/${pid}/stat`, 'utf8')).running;
  } catch {
    return false;
  }
}

/** /proc/<pid>/comm (15 characters at most), '' when unreadable. */
export async function processName(pid: number): Promise<string> {
  try {
    return (await readFile(`/proc/${pid}/comm`, 'utf8')).trim();
  } catch {
    return '';
  }
}

/** Basename of /proc/<pid>/exe, '' when unreadable (another user's process). */
export async function executableName(pid: number): Promise<string> {
  try {
    return basename(await readlink(`/proc/${pid}/exe`)).replace(/ \(deleted\)$/, '');
  } catch {
    return '';
  }
}
