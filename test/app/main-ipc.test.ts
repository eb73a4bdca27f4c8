// Main's IPC: only our own windows' main frames are answered, requests are checked against the
// contract, and the feed serves a real engine run (diff, screenshot as a data URL, artifacts).

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { FeedCall, PermissionView, TestRunResult } from '../../src/shared/types.js';
import { COUNTER, act, clickOn } from '../support/engineFixtures.js';
import { startApp, type AppFixture } from './support/appFixture.js';

describe('main IPC', () => {
  let app: AppFixture | undefined;
  afterEach(async () => {
    await app?.cleanup();
    app = undefined;
  });

  it('should answer its own window and refuse strangers, sub-frames and malformed requests', async () => {
    app = await startApp();
    const [wizard] = app.windowsOf('onboarding');
    const state = (await app.electron.fake.invoke('app:get-state', undefined, wizard)) as { status: string };
    assert.equal(state.status, 'idle');
    await assert.rejects(app.electron.fake.invoke('app:get-state', undefined, 'stranger'), /unknown sender/);
    await assert.rejects(app.electron.fake.invoke('app:get-state', undefined, 'subframe'), /unknown sender/);
    await assert.rejects(app.electron.fake.invoke('app:set-paused', { paused: 'yes' }, wizard), /malformed/);
    await assert.rejects(app.electron.fake.invoke('feed:screenshot', { callId: '../../etc/passwd' }, wizard), /malformed/);
    assert.equal(app.fixture.engine.paused, false);
  });

  it('should pause from the window and keep the tray in step', async () => {
    app = await startApp();
    const [wizard] = app.windowsOf('onboarding');
    const state = (await app.electron.fake.invoke('app:set-paused', { paused: true }, wizard)) as { paused: boolean; status: string };
    assert.deepEqual([state.paused, state.status], [true, 'paused']);
    assert.equal(app.fixture.engine.paused, true);
    assert.equal(app.tray.item('pause')?.checked, true);
  });

  it('should feed a real call to the window: diff, screenshot data URL, and its files on request', async () => {
    app = await startApp();
    app.tray.click('feed');
    const [feedWindow] = app.windowsOf('feed');
    const result = await app.fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(result.status, 'ok');

    const cards = (await app.electron.fake.invoke('feed:list', undefined, feedWindow)) as FeedCall[];
    assert.equal(cards.length, 1);
    const [card] = cards;
    assert.equal(card.state, 'ok');
    assert.equal(card.tool, 'act');
    assert.equal(card.app, 'Counter');
    assert.match(card.diff ?? '', /^~ #\d+ \[PushButton\] "Count: 1" \| text: 'Count: 0' -> 'Count: 1'$/m);
    assert.equal(card.hasScreenshot, true);
    const pushed = feedWindow.webContents.sent.filter((message) => message.channel === 'feed:call').map((message) => (message.payload as FeedCall).state);
    assert.deepEqual([pushed[0], pushed.at(-1)], ['running', 'ok'], 'the window saw the call start and finish');

    const dataUrl = (await app.electron.fake.invoke('feed:screenshot', { callId: card.callId }, feedWindow)) as string;
    assert.match(dataUrl, /^data:image\/png;base64,/);
    const png = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
    assert.equal(await app.electron.fake.invoke('feed:screenshot', { callId: 9999 }, feedWindow), null);

    await app.electron.fake.invoke('feed:open-artifact', { callId: card.callId, target: 'file' }, feedWindow);
    await app.electron.fake.invoke('feed:open-artifact', { callId: card.callId, target: 'folder' }, feedWindow);
    assert.deepEqual(app.electron.fake.shownInFolder, [result.file]);
    assert.deepEqual(app.electron.fake.openedPaths, [app.fixture.artifactsDir]);
  });

  it('should run the wizard test as a read-only refresh and report what it read', async () => {
    app = await startApp();
    const [wizard] = app.windowsOf('onboarding');
    const result = (await app.electron.fake.invoke('onboarding:test-refresh', undefined, wizard)) as TestRunResult;
    assert.equal(result.ok, true, result.summary);
    assert.equal(result.app, 'Finder');
    assert.match(result.summary, /^Read \d+ elements/);
    assert.match(result.preview ?? '', /\[Window\] "Desktop"/);
    assert.equal(app.fixture.desktop.guardEngagements, 0, 'the test never takes the keyboard');
  });

  it('should give the Linux doctor checks to the wizard, close it when done and not show it again', async () => {
    app = await startApp();
    const [wizard] = app.windowsOf('onboarding');
    const view = (await app.electron.fake.invoke('permissions:check', undefined, wizard)) as PermissionView;
    assert.equal(view.platform, 'linux');
    assert.deepEqual(view.items.map((item) => item.state), (await app.fixture.engine.checkPermissions()).map((check) => check.state));
    await app.electron.fake.invoke('onboarding:finish', undefined, wizard);
    assert.equal(app.windowsOf('onboarding').length, 0);
  });
});
