// Whether the Linux desktop shows tray icons (native/linux/statusNotifierHost.ts), asked of a
// real session bus daemon, and how `tandem doctor` says it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { statusNotifierHostState } from '../../native/linux/statusNotifierHost.js';
import { doctorPassed, formatCheck, trayCheck } from '../../src/launcher/doctorChecks.js';

const DBUS_DAEMON = '/usr/bin/dbus-daemon';

describe('tray host', () => {
  let daemon: ChildProcess | undefined;
  after(() => daemon?.kill());

  it('should answer no-session-bus without an address or with a dead one', async () => {
    assert.equal(await statusNotifierHostState({}), 'no-session-bus');
    assert.equal(await statusNotifierHostState({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' }, 300), 'no-session-bus');
  });

  it('should answer no-watcher on a session bus where nothing hosts tray icons (stock GNOME)', { skip: !existsSync(DBUS_DAEMON) && 'no dbus-daemon' }, async () => {
    daemon = spawn(DBUS_DAEMON, ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const address = await new Promise<string>((resolve, reject) => {
      daemon!.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      daemon!.once('error', reject);
    });
    assert.equal(await statusNotifierHostState({ DBUS_SESSION_BUS_ADDRESS: address }), 'no-watcher');
  });

  it('should tell doctor where Tandem went without failing it', () => {
    const missing = trayCheck('no-watcher');
    assert.equal(missing.state, 'unknown');
    assert.equal(doctorPassed([missing]), true, 'no tray is not a missing requirement');
    assert.match(formatCheck(missing), /live feed window instead[\s\S]*→ .*AppIndicator extension/);
    assert.equal(trayCheck('hosted').state, 'granted');
  });
});
