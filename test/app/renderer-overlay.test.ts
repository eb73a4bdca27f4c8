// The overlay view in real Chromium: nothing drawn while the guard is off, the pill with the
// engine's label while it is on, gone again on release.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { OverlayController } from '../../src/main/overlayController.js';
import { COUNTER, act, clickOn, engineFixture } from '../support/engineFixtures.js';
import { createFakeElectron, FakeBrowserWindow } from './support/fakeElectron.js';
import { chromiumAvailable, launchBrowser, openView } from './support/rendererHarness.js';

describe('overlay view', { skip: !chromiumAvailable() && 'no /usr/bin/chromium' }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  it('should show the pill exactly while the guard is engaged and hide it on release', async () => {
    const view = await openView(browser, 'overlay', {}, { width: 1280, height: 720, colorScheme: 'dark' });
    const { page } = view;
    await page.waitForSelector('#root', { state: 'attached' });
    assert.equal(await page.locator('.overlay').count(), 0, 'nothing is drawn before a guard engages');
    // The page's background stays transparent so only the tint shows over the desktop.
    assert.equal(await page.evaluate('getComputedStyle(document.body).backgroundColor'), 'rgba(0, 0, 0, 0)');

    await view.emit('overlay:state', { visible: true, label: 'Tandem is clicking in Mousepad — press Esc to take back control' });
    await page.locator('.overlay-pill').waitFor();
    assert.equal(await page.locator('.overlay-label').textContent(), 'Tandem is clicking in Mousepad — press Esc to take back control');
    assert.equal(await page.locator('.overlay-dot').count(), 1);
    const pill = await page.locator('.overlay-pill').boundingBox();
    assert.ok(pill, 'pill is laid out');
    const centreX = pill.x + pill.width / 2;
    const centreY = pill.y + pill.height / 2;
    assert.ok(Math.abs(centreX - 640) < 2 && Math.abs(centreY - 360) < 2, `pill is centred (got ${centreX}, ${centreY})`);

    // Over a fake desktop background so the screenshot shows what a person would see.
    await page.evaluate(`document.body.style.minHeight = '100vh'; document.body.style.background = 'linear-gradient(135deg, #3a4a5e, #8b9bac)'`);
    await view.screenshot('overlay');
    await page.evaluate(`document.body.style.background = ''`);

    await view.emit('overlay:state', { visible: false, label: '' });
    await page.locator('.overlay').waitFor({ state: 'detached' });
    assert.equal(await page.locator('.overlay-pill').count(), 0);
  });

  it('should ask the person, larger and as a dialog, while a press waits for their Enter or Esc', async () => {
    const view = await openView(browser, 'overlay', {}, { width: 1280, height: 720 });
    const { page } = view;
    await page.waitForSelector('#root', { state: 'attached' });
    const question = 'Tandem wants to press "Delete" in Mail — Enter to allow, Esc to refuse';
    await view.emit('overlay:state', { visible: true, label: question, asking: true });
    await page.locator('.overlay.asking').waitFor();
    assert.equal(await page.locator('.overlay-label').textContent(), question);
    assert.equal(await page.locator('.overlay').getAttribute('role'), 'alertdialog');
    await view.emit('overlay:state', { visible: true, label: 'Tandem is clicking in Mail — press Esc to take back control' });
    await page.locator('.overlay:not(.asking)').waitFor();
    assert.equal(await page.locator('.overlay').getAttribute('role'), 'status');
  });

  it('should be transparent before the bundle has run, in light and dark, so a loading overlay never flashes opaque', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page } = await openView(browser, 'overlay', {}, { width: 400, height: 300, colorScheme, javaScript: false });
      await page.waitForLoadState('load');
      const backgrounds = await page.evaluate('[getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor]');
      assert.deepEqual(backgrounds, ['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)'], `${colorScheme}: nothing painted before the view is set`);
      // And the screen under it shows through: the page paints no pixel of its own.
      const png = await page.screenshot({ omitBackground: true });
      const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      assert.ok(data.every((value, index) => index % 4 !== 3 || value === 0), `${colorScheme}: every pixel is transparent`);
      await page.context().close();
    }
  });

  it('should follow a real engine\'s guard through main\'s overlay controller', async () => {
    const view = await openView(browser, 'overlay', {}, { width: 800, height: 500 });
    const { page } = view;
    await page.waitForSelector('#root', { state: 'attached' });
    const fixture = await engineFixture();
    const electron = createFakeElectron();
    const overlay = new OverlayController({
      electron,
      page: { webPreferences: {}, load: async () => {} },
      log: (message) => assert.fail(message),
    });
    overlay.attach(fixture.engine);
    overlay.prepare();
    // main → renderer: what main sends the overlay window goes into the real page.
    const delivered: Promise<void>[] = [];
    FakeBrowserWindow.all[0].webContents.forward = (channel, payload) => delivered.push(view.emit(channel, payload));

    // The click stays in flight until the person presses Esc (the delay ends early on abort).
    fixture.desktop.behave('click', { delayMs: 60_000, once: true });
    const action = fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
    await page.locator('.overlay-label').waitFor();
    assert.equal(await page.locator('.overlay-label').textContent(), 'Tandem is clicking in Counter — press Esc to take back control');
    assert.equal(fixture.desktop.guardEngaged, true);
    fixture.desktop.human.pressEscape();
    const result = await action;
    await Promise.all(delivered);
    assert.equal(result.status, 'cancelled');
    assert.equal(fixture.desktop.guardEngaged, false);
    await page.locator('.overlay').waitFor({ state: 'detached' });
    overlay.dispose();
    await fixture.cleanup();
  });
});
