// Turning the desktop's accessibility switch on while Tandem runs, the way a screen reader does
// when it starts (Orca: org.a11y.Status IsEnabled := true), and putting it back as it was found
// when the last Tandem process of the session exits.
//
// Why: Chromium, Electron and Firefox load their accessibility bridge only when the switch is on
// at their start (or when told by their own environment variable). Apps the person starts while
// Tandem runs then register on the accessibility bus; apps started earlier stay unreadable until
// restarted (core reports those, see readability.ts).
//
// What is written: IsEnabled on the session bus (at-spi-bus-launcher also writes it through to
// GSettings when the schema is installed), and the GSettings key toolkit-accessibility itself
// when `gsettings` can read it and the launcher did not already. ScreenReaderEnabled is left
// alone: Tandem is not a screen reader, and apps may change how they behave for one.
//
// Several Tandem processes of one session (a server, a `tandem call`, the app) share the switch
// through a small record file: who holds it, and what the setting was before the first of them
// changed it. The last one to exit restores that. After `kill -9` nobody restores: the switch
// stays on (harmless: apps expose their trees, as under a screen reader) and the record names a
// dead holder; the next Tandem start adopts the record and restores the original state when it
// exits. `tandem doctor` says which of these cases holds.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A11yBusStatus, type A11yBusState } from './a11yBusStatus.js';
import { readToolkitAccessibility, writeToolkitAccessibility } from './gsettingsCli.js';

/** The switch as it was before the first Tandem process changed it. */
export interface FoundSetting {
  isEnabled: boolean;
  /** toolkit-accessibility; null where gsettings or its schema is missing. */
  toolkitAccessibility: boolean | null;
}

/** The shared record: who holds the switch on, and what to restore once nobody does. */
export interface SwitchRecord {
  holders: number[];
  found: FoundSetting;
}

/** Everything the switch touches, injectable for unit tests. */
export interface SwitchIo {
  readonly pid: number;
  readBus(): Promise<A11yBusState>;
  setBusEnabled(enabled: boolean): Promise<void>;
  readGsettings(): Promise<boolean | null>;
  writeGsettings(value: boolean): Promise<boolean>;
  readRecord(): Promise<SwitchRecord | null>;
  /** null removes the record. */
  writeRecord(record: SwitchRecord | null): Promise<void>;
  isAlive(pid: number): boolean;
}

export interface TurnOnReport {
  /** This process turned IsEnabled and/or toolkit-accessibility on. */
  changed: boolean;
  /** What was found (this start's reading, or the record of an earlier Tandem). */
  found: FoundSetting;
  /** Earlier holders that died without restoring (kill -9): their record was taken over. */
  adoptedFromDead: number[];
  /** Other running Tandem processes that also hold it. */
  otherHolders: number[];
}

export interface RestoreReport {
  /** The switch was put back to what was found. */
  restored: boolean;
  /** Still held on by these running Tandem processes: nothing was changed. */
  heldBy: number[];
}

export class DesktopA11ySwitch {
  private released = false;

  private constructor(
    private readonly io: SwitchIo,
    readonly report: TurnOnReport,
  ) {}

  /** Turns the switch on (if it is off) and records this process as a holder. */
  static async turnOn(io: SwitchIo): Promise<DesktopA11ySwitch> {
    const record = await io.readRecord();
    const previous = (record?.holders ?? []).filter((pid) => pid !== io.pid);
    const otherHolders = previous.filter((pid) => io.isAlive(pid));
    const adoptedFromDead = previous.filter((pid) => !io.isAlive(pid));
    const bus = await io.readBus();
    const gsettings = await io.readGsettings();
    const found: FoundSetting = record?.found ?? { isEnabled: bus.isEnabled, toolkitAccessibility: gsettings };

    let changed = false;
    if (!bus.isEnabled) {
      await io.setBusEnabled(true);
      changed = true;
    }
    // The launcher writes the key itself when it has the schema: only write what is still off.
    if (gsettings === false && (await io.readGsettings()) === false && (await io.writeGsettings(true))) changed = true;

    const mustRestore = !found.isEnabled || found.toolkitAccessibility === false;
    if (mustRestore) await io.writeRecord({ holders: [...otherHolders, io.pid], found });
    else if (record) await io.writeRecord(null);
    return new DesktopA11ySwitch(io, { changed, found, adoptedFromDead, otherHolders });
  }

  /** Leaves the record; the last holder puts the switch back as found. Idempotent. */
  async restore(): Promise<RestoreReport> {
    if (this.released) return { restored: false, heldBy: [] };
    this.released = true;
    const record = await this.io.readRecord();
    if (!record) return { restored: false, heldBy: [] };
    const heldBy = record.holders.filter((pid) => pid !== this.io.pid && this.io.isAlive(pid));
    if (heldBy.length > 0) {
      await this.io.writeRecord({ ...record, holders: heldBy });
      return { restored: false, heldBy };
    }
    const { found } = record;
    if (!found.isEnabled && (await this.io.readBus()).isEnabled) await this.io.setBusEnabled(false);
    // Setting IsEnabled wrote the key too where the launcher has the schema: fix only a difference.
    if (found.toolkitAccessibility !== null && (await this.io.readGsettings()) !== found.toolkitAccessibility) {
      await this.io.writeGsettings(found.toolkitAccessibility);
    }
    await this.io.writeRecord(null);
    return { restored: true, heldBy: [] };
  }
}

// — the real I/O —

const BUS_TIMEOUT_MS = 3_000;

/** Where the record lives: per user, per session bus (two sessions of one user do not share it). */
export function switchRecordPath(env: NodeJS.ProcessEnv, uid: number = process.getuid?.() ?? 0): string {
  const runtime = env.XDG_RUNTIME_DIR && existsSync(env.XDG_RUNTIME_DIR) ? join(env.XDG_RUNTIME_DIR, 'tandem') : join(tmpdir(), `tandem-${uid}`);
  const session = createHash('sha256').update(env.DBUS_SESSION_BUS_ADDRESS ?? '').digest('hex').slice(0, 12);
  return join(runtime, `a11y-switch-${session}.json`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but another user's (not ours, but alive all the same).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function parseSwitchRecord(text: string): SwitchRecord | null {
  try {
    const value = JSON.parse(text) as Partial<SwitchRecord>;
    const found = value.found as Partial<FoundSetting> | undefined;
    if (!Array.isArray(value.holders) || typeof found?.isEnabled !== 'boolean') return null;
    const holders = value.holders.filter((pid): pid is number => Number.isInteger(pid) && pid > 0);
    const toolkitAccessibility = typeof found.toolkitAccessibility === 'boolean' ? found.toolkitAccessibility : null;
    return { holders, found: { isEnabled: found.isEnabled, toolkitAccessibility } };
  } catch {
    return null;
  }
}

/** The session's switch, its GSettings key and the record file, for this process. */
export function systemSwitchIo(env: NodeJS.ProcessEnv): SwitchIo {
  const recordPath = switchRecordPath(env);
  const withBus = async <T>(work: (status: A11yBusStatus) => Promise<T>): Promise<T> => {
    const status = await A11yBusStatus.open(env, BUS_TIMEOUT_MS);
    try {
      return await work(status);
    } finally {
      status.close();
    }
  };
  return {
    pid: process.pid,
    readBus: () => withBus((status) => status.read(BUS_TIMEOUT_MS)),
    setBusEnabled: (enabled) => withBus((status) => status.setEnabled(enabled, BUS_TIMEOUT_MS)),
    readGsettings: () => readToolkitAccessibility(env),
    writeGsettings: (value) => writeToolkitAccessibility(value, env),
    readRecord: async () => parseSwitchRecord(await readFile(recordPath, 'utf8').catch(() => '')),
    writeRecord: async (record) => {
      if (record === null) {
        await rm(recordPath, { force: true });
        return;
      }
      await mkdir(join(recordPath, '..'), { recursive: true, mode: 0o700 });
      await writeFile(recordPath, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    },
    isAlive: processAlive,
  };
}

/** What `tandem doctor` shows: the switch now, and who holds it. */
export interface SwitchStatus {
  bus: A11yBusState;
  toolkitAccessibility: boolean | null;
  record: SwitchRecord | null;
  liveHolders: number[];
  deadHolders: number[];
}

export async function readSwitchStatus(io: SwitchIo): Promise<SwitchStatus> {
  const [bus, toolkitAccessibility, record] = await Promise.all([io.readBus(), io.readGsettings(), io.readRecord()]);
  const holders = record?.holders ?? [];
  return {
    bus,
    toolkitAccessibility,
    record,
    liveHolders: holders.filter((pid) => io.isAlive(pid)),
    deadHolders: holders.filter((pid) => !io.isAlive(pid)),
  };
}
