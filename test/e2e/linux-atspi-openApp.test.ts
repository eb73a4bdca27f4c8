// Opening apps on Linux (core's open over the AT-SPI backend's resolve/start/look): by .desktop
// Name, by executable on PATH, reuse of a running instance, and a clear error for an app that
// does not exist.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp } from '../../src/core/apps/appArrival.js';
import { isTandemError } from '../../src/core/errors.js';
import { createProgress } from '../../src/core/progress.js';
import { AtspiAccessibility } from '../../src/backends/linux/atspiAccessibility.js';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';

let desktop: VirtualDesktop;
let accessibility: AtspiAccessibility;

const progress = (timeoutMs = 20_000) => createProgress({ timeoutMs });

before(async () => {
  ensureDesktopPackages();
  desktop = await startVirtualDesktop();
  // A wrapper script on PATH that starts the real app as its child (not exec): the opened pid
  // must be the app's, found through the wrapper's process tree.
  const bin = join(desktop.root, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'tandem-factory-wrapper'), '#!/bin/sh\ngtk3-widget-factory "$@"\n');
  chmodSync(join(bin, 'tandem-factory-wrapper'), 0o755);
  accessibility = await AtspiAccessibility.connect({ env: { ...desktop.env, PATH: `${bin}:${desktop.env.PATH}` } });
});

after(async () => {
  await accessibility?.close();
  await desktop?.stop();
});

test('should open an app by its .desktop Name and then reuse the running instance', { timeout: 60_000 }, async () => {
  const opened = await openApp(accessibility, 'Mousepad', progress());
  assert.equal(opened.reused, false);
  assert.equal(opened.id, 'org.xfce.mousepad');
  assert.ok(desktop.appProcesses().includes(opened.pid), 'the pid is a process of this desktop');
  const app = await accessibility.appForPid(opened.pid, progress());
  assert.equal(app?.name, 'mousepad');
  const tree = await accessibility.snapshot(opened.pid, { maxDepth: 60, maxElements: 5000, maxMs: 5000 }, progress());
  assert.ok(tree.elements.some((element) => element.role === 'Frame' && element.visible), 'its window is on the bus');

  const again = await openApp(accessibility, 'org.xfce.mousepad', progress());
  assert.deepEqual({ pid: again.pid, reused: again.reused }, { pid: opened.pid, reused: true });
});

test('should open an executable found on PATH, through a wrapper script', { timeout: 60_000 }, async () => {
  const opened = await openApp(accessibility, 'tandem-factory-wrapper', progress());
  assert.equal(opened.reused, false);
  const apps = await accessibility.listApps(progress());
  assert.ok(apps.some((app) => app.pid === opened.pid && app.id === 'gtk3-widget-factory'), `the factory is listed with pid ${opened.pid}: ${JSON.stringify(apps)}`);
});

test('should reuse a running app known only by its name on the accessibility bus', { timeout: 60_000 }, async () => {
  const fixture = desktop.spawnApp('/usr/bin/python3', ['test/fixtures/tandem_fixture.py']);
  const deadline = Date.now() + 20_000;
  let name: string | undefined;
  while (!name && Date.now() < deadline) {
    name = (await accessibility.appForPid(fixture.pid!, progress()))?.name;
    if (!name) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(name, 'the fixture registered');
  const opened = await openApp(accessibility, name, progress());
  assert.deepEqual({ pid: opened.pid, reused: opened.reused }, { pid: fixture.pid, reused: true });
});

test('should name what was tried when no app matches', { timeout: 60_000 }, async () => {
  await assert.rejects(openApp(accessibility, 'no-such-app-tandem', progress()), (error) => {
    assert.ok(isTandemError(error, 'unknown-app'));
    assert.match(error.message, /no-such-app-tandem/);
    assert.match(error.message, /\.desktop entry/);
    assert.match(error.message, /PATH/);
    assert.match(error.message, /Running apps: .*mousepad/);
    return true;
  });
});
