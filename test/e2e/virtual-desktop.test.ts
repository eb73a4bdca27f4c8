// The virtual desktop harness itself: every other e2e test stands on it, so it must start a
// usable X display with the accessibility bus, and leave nothing behind when stopped.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { isRunning, processInfo } from '../../scripts/lib/processes.js';
import { ensureDesktopPackages, startVirtualDesktop } from '../../scripts/lib/virtualDesktop.js';

const run = promisify(execFile);

/** Zombie or live children of this test process, other than its own tools. */
function childrenOfThisProcess(): string[] {
  return readdirSync('/proc')
    .map(Number)
    .filter(Number.isInteger)
    .flatMap((pid) => {
      const info = processInfo(pid);
      return info && info.ppid === process.pid && info.comm !== 'esbuild' ? [`${pid} ${info.comm} ${info.state}`] : [];
    });
}

test('should start a usable desktop and leave nothing behind, twice in a row', { timeout: 60_000 }, async () => {
  ensureDesktopPackages();
  for (let round = 0; round < 2; round++) {
    const desktop = await startVirtualDesktop();
    let pids: number[] = [];
    try {
      assert.match(desktop.display, /^:\d+$/);
      const { stdout } = await run('xdpyinfo', [], { env: desktop.env });
      assert.match(stdout, /dimensions:\s+1280x800 pixels/);
      assert.match(stdout, /XTEST/);
      assert.match(stdout, /XInputExtension/);
      assert.match(desktop.a11yBusAddress, /^unix:/);
      // GTK apps find the accessibility bus through this root-window property.
      const { stdout: atspi } = await run('xprop', ['-root', 'AT_SPI_BUS'], { env: desktop.env });
      assert.match(atspi, /unix:/);
      assert.ok(desktop.env.HOME?.startsWith(desktop.root), 'HOME is fresh for each desktop');
      assert.equal(desktop.env.NO_AT_BRIDGE, undefined);

      // An app that starts a child of its own, which the desktop must end too.
      const app = desktop.spawnApp('/usr/bin/python3', ['-c', 'import subprocess, time\nsubprocess.Popen(["sleep", "300"])\ntime.sleep(300)']);
      const deadline = Date.now() + 5000;
      while (desktop.appProcesses().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      pids = desktop.appProcesses();
      assert.ok(pids.includes(app.pid!), 'the app is tracked');
      assert.equal(pids.length, 2, 'its child is tracked too');
    } finally {
      await desktop.stop();
    }
    for (const pid of pids) assert.equal(isRunning(pid), false, `pid ${pid} still running`);
    assert.equal(existsSync(desktop.root), false, 'temp dir removed');
    assert.equal(existsSync(`/tmp/.X11-unix/X${desktop.display.slice(1)}`), false, 'X socket removed');
    assert.deepEqual(childrenOfThisProcess(), [], 'no process (nor zombie) left');
  }
});
