// The desktop accessibility switch's bookkeeping (desktopA11ySwitch.ts) over an in-memory
// session: what it turns on, what it records, who restores what, after a clean exit, with other
// Tandem processes around, and after one was killed. (On a real session bus and GSettings key
// file: test/e2e/linux-a11y-switch.test.ts.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DesktopA11ySwitch, parseSwitchRecord, readSwitchStatus, switchRecordPath, type SwitchIo, type SwitchRecord } from '../../src/backends/linux/desktopA11ySwitch.js';
import { desktopA11yCheck } from '../../src/backends/linux/atspiAccessibility.js';

interface Session {
  isEnabled: boolean;
  /** null: no gsettings here. */
  gsettings: boolean | null;
  /** at-spi-bus-launcher writes IsEnabled through to the key when it has the schema. */
  launcherWritesKey: boolean;
  record: SwitchRecord | null;
  alive: Set<number>;
  writes: string[];
}

function session(fields: Partial<Session> = {}): Session {
  return { isEnabled: false, gsettings: false, launcherWritesKey: true, record: null, alive: new Set(), writes: [], ...fields };
}

function io(state: Session, pid: number): SwitchIo {
  state.alive.add(pid);
  return {
    pid,
    readBus: async () => ({ isEnabled: state.isEnabled }),
    setBusEnabled: async (enabled) => {
      state.writes.push(`bus ${enabled}`);
      state.isEnabled = enabled;
      if (state.launcherWritesKey && state.gsettings !== null) state.gsettings = enabled;
    },
    readGsettings: async () => state.gsettings,
    writeGsettings: async (value) => {
      if (state.gsettings === null) return false;
      state.writes.push(`key ${value}`);
      state.gsettings = value;
      return true;
    },
    readRecord: async () => (state.record ? structuredClone(state.record) : null),
    writeRecord: async (record) => {
      state.record = record ? structuredClone(record) : null;
    },
    isAlive: (other) => state.alive.has(other),
  };
}

describe('desktop accessibility switch', () => {
  it('should turn an off switch on, record what it found, and put it back when it leaves', async () => {
    const state = session();
    const held = await DesktopA11ySwitch.turnOn(io(state, 10));
    assert.equal(held.report.changed, true);
    assert.deepEqual([state.isEnabled, state.gsettings], [true, true]);
    assert.deepEqual(state.record, { holders: [10], found: { isEnabled: false, toolkitAccessibility: false } });
    assert.deepEqual(await held.restore(), { restored: true, heldBy: [] });
    assert.deepEqual([state.isEnabled, state.gsettings, state.record], [false, false, null]);
    assert.deepEqual(await held.restore(), { restored: false, heldBy: [] }, 'a second restore does nothing');
  });

  it('should write the GSettings key itself where the launcher does not, and restore it', async () => {
    const state = session({ launcherWritesKey: false });
    const held = await DesktopA11ySwitch.turnOn(io(state, 10));
    assert.deepEqual(state.writes, ['bus true', 'key true']);
    await held.restore();
    assert.deepEqual(state.writes, ['bus true', 'key true', 'bus false', 'key false']);
  });

  it('should work without gsettings at all', async () => {
    const state = session({ gsettings: null });
    const held = await DesktopA11ySwitch.turnOn(io(state, 10));
    assert.deepEqual(state.record?.found, { isEnabled: false, toolkitAccessibility: null });
    await held.restore();
    assert.equal(state.isEnabled, false);
  });

  it('should leave a switch that was on already alone and keep no record', async () => {
    const state = session({ isEnabled: true, gsettings: true });
    const held = await DesktopA11ySwitch.turnOn(io(state, 10));
    assert.equal(held.report.changed, false);
    assert.equal(state.record, null);
    await held.restore();
    assert.deepEqual(state.writes, []);
    assert.equal(state.isEnabled, true);
  });

  it('should keep it on while another Tandem holds it, and let the last one restore', async () => {
    const state = session();
    const first = await DesktopA11ySwitch.turnOn(io(state, 10));
    const second = await DesktopA11ySwitch.turnOn(io(state, 11));
    assert.deepEqual(second.report.otherHolders, [10]);
    assert.equal(second.report.changed, false);
    assert.deepEqual(state.record?.found, { isEnabled: false, toolkitAccessibility: false }, 'the second keeps what the first found, not the on it saw');
    assert.deepEqual(await first.restore(), { restored: false, heldBy: [11] });
    assert.equal(state.isEnabled, true);
    assert.deepEqual(await second.restore(), { restored: true, heldBy: [] });
    assert.equal(state.isEnabled, false);
  });

  it('should adopt the record of a Tandem killed with -9 and restore what it had found', async () => {
    const state = session();
    await DesktopA11ySwitch.turnOn(io(state, 10));
    state.alive.delete(10); // kill -9: no restore ran
    assert.equal(state.isEnabled, true);
    const status = await readSwitchStatus(io(state, 99));
    state.alive.delete(99);
    assert.deepEqual([status.liveHolders, status.deadHolders], [[], [10]]);
    assert.match(desktopA11yCheck(status).detail, /Left on by Tandem pid 10, which ended without putting it back/);
    const next = await DesktopA11ySwitch.turnOn(io(state, 12));
    assert.deepEqual(next.report.adoptedFromDead, [10]);
    assert.equal(next.report.changed, false);
    await next.restore();
    assert.deepEqual([state.isEnabled, state.gsettings, state.record], [false, false, null]);
  });

  it('should read a record back and refuse a broken one', () => {
    assert.deepEqual(parseSwitchRecord('{"holders":[3,"x",-1],"found":{"isEnabled":false,"toolkitAccessibility":true}}'), { holders: [3], found: { isEnabled: false, toolkitAccessibility: true } });
    assert.equal(parseSwitchRecord('{"holders":[3]}'), null);
    assert.equal(parseSwitchRecord('not json'), null);
    assert.equal(parseSwitchRecord(''), null);
  });

  it('should keep one record per session bus, in the runtime folder', () => {
    const a = switchRecordPath({ XDG_RUNTIME_DIR: '/nonexistent-runtime', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/a' }, 1000);
    const b = switchRecordPath({ XDG_RUNTIME_DIR: '/nonexistent-runtime', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/b' }, 1000);
    assert.notEqual(a, b);
    assert.match(a, /tandem-1000\/a11y-switch-[0-9a-f]{12}\.json$/, 'no runtime folder: a per-user folder under tmp');
  });

  it('should say off, and that Tandem turns it on while it serves, in doctor', () => {
    const check = desktopA11yCheck({ bus: { isEnabled: false }, toolkitAccessibility: false, record: null, liveHolders: [], deadHolders: [] });
    assert.equal(check.state, 'unknown');
    assert.match(check.detail, /^Off .*Tandem turns it on while it serves an agent/);
    const other = desktopA11yCheck({ bus: { isEnabled: true }, toolkitAccessibility: true, record: null, liveHolders: [], deadHolders: [] });
    assert.match(other.detail, /not by Tandem: left as it is/);
  });
});
