// The guard overlay in Electron main (fake Electron API, real Engine on the scripted desktop):
// one window per display, shown exactly while the guard is engaged, never left behind, never in
// the way of the action.

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { OverlayState } from '../../src/shared/types.js';
import { COUNTER, act, clickOn, typeText } from '../support/engineFixtures.js';
import { SettingsStore } from '../../src/core/settings.js';
import { startApp, type AppFixture } from './support/appFixture.js';
import { FakeBrowserWindow } from './support/fakeElectron.js';

const TWO_DISPLAYS = [
  { id: 1, bounds: { x: 0, y: 0, width: 1440, height: 900 } },
  { id: 2, bounds: { x: 1440, y: -200, width: 1920, height: 1080 } },
];

function overlayShown(app: AppFixture): boolean[] {
  return app.windowsOf('overlay').map((window) => window.isVisible());
}

function lastState(window: FakeBrowserWindow): OverlayState | undefined {
  return window.webContents.last('overlay:state') as OverlayState | undefined;
}

describe('guard overlay', () => {
  let app: AppFixture | undefined;
  afterEach(async () => {
    await app?.cleanup();
    app = undefined;
  });

  it('should cover every display with a click-through, top-most, protected overlay exactly while the guard is engaged', async () => {
    app = await startApp({ displays: TWO_DISPLAYS, platform: 'darwin' });
    assert.deepEqual(app.engineRequests(), [{ serverOverlay: false }], 'the engine draws none: one overlay, never two');
    const windows = app.windowsOf('overlay');
    assert.equal(windows.length, 2, 'one overlay per display');
    assert.deepEqual(overlayShown(app), [false, false], 'hidden while idle');

    let during: boolean[] = [];
    let statesDuring: Array<OverlayState | undefined> = [];
    app.fixture.desktop.when('click', () => {
      during = overlayShown(app!);
      statesDuring = windows.map(lastState);
    }, { once: true });
    const result = await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0')));

    assert.equal(result.status, 'ok');
    assert.deepEqual(during, [true, true], 'shown on every display while acting');
    assert.deepEqual(statesDuring, [
      { visible: true, label: 'Tandem is clicking in Counter — press Esc to take back control' },
      { visible: true, label: 'Tandem is clicking in Counter — press Esc to take back control' },
    ]);
    assert.deepEqual(overlayShown(app), [false, false], 'hidden once the guard is released');
    assert.deepEqual(windows.map(lastState), [{ visible: false, label: '' }, { visible: false, label: '' }]);

    windows.forEach((window, index) => {
      assert.deepEqual(window.bounds, TWO_DISPLAYS[index].bounds, 'covers its whole display');
      assert.equal(window.ignoreMouseEvents, true, 'click-through');
      assert.equal(window.alwaysOnTopLevel, 'screen-saver', 'above everything');
      assert.equal(window.allWorkspaces, true, 'on every workspace');
      assert.equal(window.contentProtection, true, 'kept out of screenshots');
      assert.equal(window.options.focusable, false, 'never takes focus');
      assert.equal(window.options.transparent, true);
      assert.equal(window.options.frame, false);
      assert.equal(window.options.enableLargerThanScreen, true, 'macOS would push it below the menu bar');
      assert.equal(window.options.roundedCorners, false);
      assert.deepEqual(window.allWorkspacesOptions, { visibleOnFullScreen: true, skipTransformProcessType: true }, 'the menu-bar app stays out of the Dock');
    });
  });

  it('should move its windows when a display changes size, without rebuilding them (no flash)', async () => {
    app = await startApp({ platform: 'darwin' });
    const [window] = app.windowsOf('overlay');
    app.electron.fake.displays[0] = { id: 1, bounds: { x: 0, y: 0, width: 1920, height: 1200 } };
    app.electron.fake.emitScreen('display-metrics-changed');
    assert.deepEqual(app.windowsOf('overlay'), [window], 'the same window');
    assert.deepEqual(window.bounds, { x: 0, y: 0, width: 1920, height: 1200 });
  });

  it('should leave the overlay to the engine on Linux: no renderer overlay window at all', async () => {
    app = await startApp({ platform: 'linux' });
    assert.deepEqual(app.engineRequests(), [{ serverOverlay: true }], 'the engine draws it on the X server');
    assert.equal(app.windowsOf('overlay').length, 0);
    let during = -1;
    app.fixture.desktop.when('click', () => (during = app!.windowsOf('overlay').length), { once: true });
    await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(during, 0, 'not even while acting: the X11 overlay is the only one');
  });

  it('should say what each step does: clicking, then typing', async () => {
    app = await startApp({ platform: 'darwin' });
    const [window] = app.windowsOf('overlay');
    const seen: Array<string | undefined> = [];
    app.fixture.desktop.when('click', () => seen.push(lastState(window)?.label), { once: true });
    app.fixture.desktop.when('type ', () => seen.push(lastState(window)?.label), { once: true });
    const result = await app.fixture.engine.act(act(COUNTER, clickOn('Name'), typeText('hi')));
    assert.equal(result.status, 'ok', result.error?.message);
    assert.deepEqual(seen, ['Tandem is clicking in Counter — press Esc to take back control', 'Tandem is typing in Counter — press Esc to take back control']);
  });

  it('should ask the person before a press on their confirm_before list, then say what it does again once they allowed it', async () => {
    // "Count" on the person's list: the counter button asks first.
    app = await startApp({ platform: 'darwin', engineOptions: { settings: new SettingsStore({ env: { TANDEM_CONFIRM_BEFORE: 'Count' } }) } });
    const [window] = app.windowsOf('overlay');
    const seen: Array<OverlayState | undefined> = [];
    let focusAskedWhileAsking: boolean | undefined;
    app.fixture.engine.on('confirm-asked', () => {
      seen.push(lastState(window));
      focusAskedWhileAsking = window.focusAsked;
      app!.fixture.desktop.human.pressEnter();
    });
    app.fixture.desktop.when('click', () => seen.push(lastState(window)), { once: true });
    const result = await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(result.status, 'ok', result.error?.message);
    assert.deepEqual(seen, [
      { visible: true, label: 'Tandem wants to press "Count: 0" in Counter — Enter to allow, Esc to refuse', asking: true },
      { visible: true, label: 'Tandem is clicking in Counter — press Esc to take back control' },
    ]);
    // The person's Enter must go to the guard from the app they were in: the question never takes the focus.
    assert.equal(focusAskedWhileAsking, false, 'shown with showInactive, never show() or focus()');
    assert.equal(window.options.focusable, false);
  });

  it('should leave no overlay when the guard cannot be engaged', async () => {
    app = await startApp({ platform: 'darwin' });
    app.fixture.desktop.behave('engageGuard', { fail: new Error('grab refused') });
    const result = await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.notEqual(result.status, 'ok');
    assert.deepEqual(overlayShown(app), [false]);
    assert.equal(app.app.overlay.visible, false);
  });

  it('should take the overlay down when the person presses Esc', async () => {
    app = await startApp({ platform: 'darwin' });
    app.fixture.desktop.when('click', () => app!.fixture.desktop.human.pressEscape(), { once: true });
    const result = await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0'), clickOn('Name')));
    assert.equal(result.status, 'cancelled');
    assert.deepEqual(overlayShown(app), [false]);
    assert.equal(app.fixture.desktop.guardEngaged, false);
  });

  it('should never block the action when the overlay windows cannot be created', async () => {
    app = await startApp({
      platform: 'darwin',
      beforeStart: () => {
        // Only the overlay's windows (transparent) fail; the wizard still opens.
        FakeBrowserWindow.failWhen = (options) => options.transparent === true;
      },
    });
    const result = await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
    FakeBrowserWindow.failWhen = undefined;
    assert.equal(result.status, 'ok', 'the action ran without an overlay');
    assert.equal(app.fixture.desktop.find(COUNTER, 'Count: 1').role, 'PushButton');
    assert.equal(app.fixture.desktop.guardEngaged, false);
    assert.ok(app.logs.some((line) => /overlay: (prepare|show) failed: fake: window creation failed/.test(line)), app.logs.join('\n'));
  });

  it('should tell a page that loads late that the guard is engaged', async () => {
    app = await startApp({ platform: 'darwin' });
    const [window] = app.windowsOf('overlay');
    app.fixture.desktop.when('click', () => window.webContents.finishLoading(), { once: true });
    let sentOnLoad: OverlayState | undefined;
    app.fixture.desktop.when('click', () => (sentOnLoad = lastState(window)), { once: true });
    await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.deepEqual(sentOnLoad, { visible: true, label: 'Tandem is clicking in Counter — press Esc to take back control' });
  });

  it('should follow a new display', async () => {
    app = await startApp({ platform: 'darwin' });
    assert.equal(app.windowsOf('overlay').length, 1);
    app.electron.fake.displays.push({ id: 7, bounds: { x: 1280, y: 0, width: 800, height: 600 } });
    app.electron.fake.emitScreen('display-added');
    assert.equal(app.windowsOf('overlay').length, 2);
    let during: boolean[] = [];
    app.fixture.desktop.when('click', () => (during = overlayShown(app!)), { once: true });
    await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.deepEqual(during, [true, true]);
  });
});
