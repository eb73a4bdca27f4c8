// Electron main against a fake Electron API: the app is never out of the person's sight or in a
// place that vanishes — a Linux desktop without a tray gets the feed window, and a macOS app run
// from its disk image offers to move to /Applications before it hands out client configs.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { startTandemApp } from '../../src/main/tandemApp.js';
import { startApp, type AppFixture } from './support/appFixture.js';
import { createFakeElectron, FakeBrowserWindow } from './support/fakeElectron.js';

const DMG_LAUNCHER = { command: '/Volumes/Tandem/Tandem.app/Contents/Resources/bin/tandem', args: ['mcp'] };
const INSTALLED_LAUNCHER = { command: '/Applications/Tandem.app/Contents/Resources/bin/tandem', args: ['mcp'] };

describe('no tray on the desktop', () => {
  let app: AppFixture | undefined;
  afterEach(async () => {
    await app?.cleanup();
    app = undefined;
  });

  it('should show the live feed window at start when the desktop hosts no tray icons', async () => {
    app = await startApp({ trayShown: async () => false });
    assert.equal(app.windowsOf('feed').length, 1, 'the feed window is the app’s visible face');
    assert.ok(app.logs.some((line) => /no tray icons/.test(line)), app.logs.join('\n'));
  });

  it('should treat a failed tray check as no tray', async () => {
    app = await startApp({
      trayShown: async () => {
        throw new Error('bus gone');
      },
    });
    assert.equal(app.windowsOf('feed').length, 1);
  });

  it('should quit when its last window closes and there is no tray, and only then', async () => {
    app = await startApp({ trayShown: async () => false });
    const closed = app.electron.fake.appListeners.get('window-all-closed') ?? [];
    for (const listener of closed) (listener as () => void)();
    await app.app.shutdown();
    assert.equal(app.electron.fake.quitCalls, 1, 'quit once the feed window is gone');
  });

  it('should stay in the menu bar with no window open where the tray shows', async () => {
    app = await startApp({ trayShown: async () => true });
    assert.equal(app.windowsOf('feed').length, 0);
    for (const listener of app.electron.fake.appListeners.get('window-all-closed') ?? []) (listener as () => void)();
    assert.equal(app.electron.fake.quitCalls, 0);
  });
});

describe('move to /Applications (macOS)', () => {
  let app: AppFixture | undefined;
  afterEach(async () => {
    await app?.cleanup();
    app = undefined;
  });

  it('should move and start nothing when the person accepts, from the disk image', async () => {
    const electron = createFakeElectron();
    Object.assign(electron.fake, { packaged: true, inApplications: false, messageBoxAnswer: 0, moveResult: true });
    let engines = 0;
    const started = await startTandemApp({
      electron,
      platform: 'darwin',
      createEngine: async () => {
        engines++;
        throw new Error('must not be called: Electron relaunches the moved copy');
      },
      startHost: async () => {
        throw new Error('must not be called');
      },
      paths: { preload: '/p', html: '/h', trayIcon: '/t' },
      launcher: DMG_LAUNCHER,
      artifactsDirectory: '/tmp',
      log: () => {},
    });
    assert.equal(started, null);
    assert.deepEqual(electron.fake.messageBoxes, ['Move Tandem to your Applications folder?']);
    assert.deepEqual(electron.fake.focusAndDialogs, ['focus steal', 'message box'], 'a menu-bar app takes the focus first, or the question may open behind the Finder');
    assert.equal(electron.fake.moveCalls, 1);
    assert.equal(engines, 0);
    assert.equal(electron.fake.trays.length, 0);
  });

  it('should start where it is when declined, and warn in every config that the path will vanish', async () => {
    app = await startApp({
      platform: 'darwin',
      launcher: DMG_LAUNCHER,
      beforeStart: (electron) => Object.assign(electron.fake, { packaged: true, inApplications: false, messageBoxAnswer: 1 }),
    });
    assert.equal(app.electron.fake.moveCalls, 0);
    const configs = (await app.electron.fake.invoke('mcp-config:list', undefined, app.app.windows.show('feed') as FakeBrowserWindow)) as Array<{ where: string; text: string }>;
    assert.ok(configs.length > 0);
    for (const config of configs) {
      assert.match(config.where, /move Tandem\.app to \/Applications/);
      assert.ok(config.text.includes(DMG_LAUNCHER.command));
    }
  });

  it('should ask again from the disk image, but remember "not now" for a stable place outside /Applications', async () => {
    const stable = { command: '/Users/me/Downloads/Tandem.app/Contents/Resources/bin/tandem', args: ['mcp'] };
    app = await startApp({
      platform: 'darwin',
      launcher: stable,
      beforeStart: (electron) => Object.assign(electron.fake, { packaged: true, inApplications: false, messageBoxAnswer: 1 }),
    });
    assert.equal(app.electron.fake.messageBoxes.length, 1);
    assert.ok(existsSync(join(app.electron.fake.userData, 'move-to-applications-declined')));
    const configs = (await app.electron.fake.invoke('mcp-config:list', undefined, app.app.windows.show('feed') as FakeBrowserWindow)) as Array<{ where: string }>;
    assert.ok(configs.every((config) => !/move Tandem\.app/.test(config.where)), 'a stable path needs no warning');

    const { offerMoveToApplications } = await import('../../src/main/moveToApplications.js');
    assert.equal(offerMoveToApplications(app.electron, stable.command, () => {}), 'declined', 'not asked twice');
    assert.equal(app.electron.fake.messageBoxes.length, 1);
    assert.equal(offerMoveToApplications(app.electron, DMG_LAUNCHER.command, () => {}), 'declined', 'but asked again from the disk image');
    assert.equal(app.electron.fake.messageBoxes.length, 2);
  });

  it('should not ask when installed, unpackaged, or off macOS', async () => {
    app = await startApp({
      platform: 'darwin',
      launcher: INSTALLED_LAUNCHER,
      beforeStart: (electron) => Object.assign(electron.fake, { packaged: true, inApplications: true }),
    });
    assert.deepEqual(app.electron.fake.messageBoxes, []);
    await app.cleanup();
    app = await startApp({ platform: 'darwin', launcher: DMG_LAUNCHER, beforeStart: (electron) => Object.assign(electron.fake, { packaged: false, inApplications: false }) });
    assert.deepEqual(app.electron.fake.messageBoxes, [], 'a development run is never moved');
    await app.cleanup();
    app = await startApp({ platform: 'linux', beforeStart: (electron) => Object.assign(electron.fake, { packaged: true, inApplications: false }) });
    assert.deepEqual(app.electron.fake.messageBoxes, []);
  });

  it('should say why when the move fails, and keep running', async () => {
    app = await startApp({
      platform: 'darwin',
      launcher: DMG_LAUNCHER,
      beforeStart: (electron) => Object.assign(electron.fake, { packaged: true, inApplications: false, messageBoxAnswer: 0, moveResult: new Error('permission denied') }),
    });
    assert.equal(app.electron.fake.moveCalls, 1);
    assert.match(app.electron.fake.errorBoxes[0]?.content ?? '', /permission denied[\s\S]*Applications folder/);
    assert.ok(app.host(), 'the app started where it is');
  });
});
