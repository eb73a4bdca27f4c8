// The onboarding wizard in real Chromium over a fake window.tandem: it shows each permission's
// state as main reports it (and follows changes live), its buttons call the matching API, and
// the last step offers every MCP client's config.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { mcpClientConfigs } from '../../src/shared/mcpClientConfig.js';
import type { PermissionView, TestRunResult } from '../../src/shared/types.js';
import { chromiumAvailable, launchBrowser, openView } from './support/rendererHarness.js';

const configs = mcpClientConfigs({ command: '/opt/Tandem/resources/bin/tandem', args: ['mcp'] }, 'linux');

function linuxChecks(xinput: 'granted' | 'denied'): PermissionView {
  return {
    platform: 'linux',
    checkedAt: 0,
    items: [
      { id: 'display', title: 'X display', state: 'granted', detail: 'Connected to :99 (X.Org 21.1).' },
      {
        id: 'xinput',
        title: 'XInput 2 (input guard)',
        state: xinput,
        detail: xinput === 'granted' ? 'XInput 2.2 available.' : 'XInput 2 is missing: the guard cannot block your mouse and keyboard.',
        remedy: 'Run Tandem on an X11 session (not Wayland).',
        action: { kind: 'open-url', label: 'Open settings', value: 'https://example.invalid/help/xinput' },
      },
      {
        id: 'atspi-bus',
        title: 'Accessibility bus',
        state: 'unknown',
        detail: 'The AT-SPI bus did not answer.',
        remedy: 'Start it, then reopen the app.',
        action: { kind: 'run-command', label: 'Copy command', value: 'gsettings set org.gnome.desktop.interface toolkit-accessibility true' },
      },
    ],
  };
}

const macPermissions: PermissionView = {
  platform: 'darwin',
  checkedAt: 0,
  items: [
    { id: 'accessibility', title: 'Accessibility', state: 'denied', detail: 'Lets Tandem read app windows.', remedy: 'Turn Tandem on in System Settings.', action: { kind: 'prompt', label: 'Allow…' } },
    { id: 'screen-recording', title: 'Screen Recording', state: 'granted', detail: 'Lets Tandem take screenshots.', action: { kind: 'prompt', label: 'Open settings' } },
  ],
};

const testResult: TestRunResult = {
  ok: true,
  app: 'Mousepad',
  pid: 4242,
  elementCount: 57,
  summary: 'Read 57 elements (41 visible) from Mousepad.',
  preview: '[Application] "Mousepad" x:0 y:0 w:0 h:0 visible\n[Frame] "Untitled 1 - Mousepad" x:120 y:80 w:640 h:480 visible',
};

describe('onboarding wizard', { skip: !chromiumAvailable() && 'no /usr/bin/chromium' }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  it('should show the Linux doctor checks with their states, remedies and working buttons', async () => {
    const view = await openView(browser, 'onboarding', {
      checkPermissions: linuxChecks('denied'),
      requestPermission: linuxChecks('denied'),
      runTestRefresh: testResult,
      listMcpConfigs: configs,
    }, { width: 680, height: 760 });
    const { page } = view;
    await page.locator('[data-permission="xinput"]').waitFor();
    assert.equal(await page.locator('[data-permission="display"] .badge').getAttribute('data-state'), 'granted');
    assert.equal(await page.locator('[data-permission="xinput"] .badge').textContent(), 'Not granted');
    assert.equal(await page.locator('[data-permission="atspi-bus"] .badge').textContent(), 'Unknown');
    assert.match((await page.locator('[data-permission="xinput"] .remedy').textContent()) ?? '', /X11 session/);
    assert.equal(await page.locator('[data-permission="atspi-bus"] code.command').textContent(), 'gsettings set org.gnome.desktop.interface toolkit-accessibility true');
    // A command remedy gets a copy button (main copies the command it produced itself).
    await page.locator('[data-action="copy-atspi-bus"]').click();
    await page.locator('[data-action="copy-atspi-bus"]', { hasText: 'Copied' }).waitFor();
    assert.deepEqual((await view.calls()).filter((call) => call.method === 'copyPermissionCommand').map((call) => call.request), [{ id: 'atspi-bus' }]);
    assert.equal(await page.locator('[data-permission="display"] .remedy').count(), 0, 'no remedy for a granted check');
    await view.screenshot('wizard');

    await page.locator('[data-action="xinput"]').click();
    assert.deepEqual((await view.calls()).filter((call) => call.method === 'requestPermission').map((call) => call.request), [{ id: 'xinput' }]);

    // The person fixes it elsewhere: the step follows without a click (live status).
    await view.setResponse('checkPermissions', linuxChecks('granted'));
    await page.locator('[data-permission="xinput"] .badge[data-state="granted"]').waitFor({ timeout: 5000 });
  });

  it('should run the harmless test, then offer a copy button per MCP client and finish', async () => {
    const view = await openView(browser, 'onboarding', {
      checkPermissions: linuxChecks('granted'),
      runTestRefresh: testResult,
      listMcpConfigs: configs,
    }, { width: 680, height: 900 });
    const { page } = view;
    await page.locator('[data-action="next"]').click();
    await page.locator('[data-action="test"]').click();
    await page.locator('.test-result[data-ok="true"]').waitFor();
    assert.match((await page.locator('.test-result').textContent()) ?? '', /57 elements.*Mousepad/);
    assert.match((await page.locator('.test-result pre').textContent()) ?? '', /\[Frame\] "Untitled 1 - Mousepad"/);

    await page.locator('[data-action="next"]').click();
    await page.locator('.copy-block').first().waitFor();
    const clients = await page.locator('.copy-block').evaluateAll((blocks) => blocks.map((block) => block.getAttribute('data-client')));
    assert.deepEqual(clients, ['claude-desktop', 'claude-code', 'cursor', 'vscode']);
    assert.match((await page.locator('[data-client="claude-code"] pre').textContent()) ?? '', /^claude mcp add --scope user tandem -- \/opt\/Tandem\/resources\/bin\/tandem mcp$/);
    await page.locator('[data-client="cursor"] button').click();
    await page.locator('[data-client="cursor"] button', { hasText: 'Copied' }).waitFor();
    await page.locator('[data-action="finish"]').click();

    const calls = await view.calls();
    assert.ok(calls.some((call) => call.method === 'runTestRefresh'));
    assert.deepEqual(calls.filter((call) => call.method === 'copyMcpConfig').map((call) => call.request), [{ client: 'cursor' }]);
    assert.equal(calls.at(-1)?.method, 'finishOnboarding');
  });

  it('should give each macOS permission its own step whose button asks for it', async () => {
    const view = await openView(browser, 'onboarding', { checkPermissions: macPermissions, requestPermission: macPermissions });
    const { page } = view;
    await page.locator('[data-permission="accessibility"]').waitFor();
    assert.equal(await page.locator('[data-permission="accessibility"] .badge').getAttribute('data-state'), 'denied');
    assert.equal(await page.locator('[data-permission="screen-recording"]').count(), 0, 'one permission per step');
    await page.locator('[data-action="accessibility"]').click();
    await page.locator('[data-action="next"]').click();
    await page.locator('[data-permission="screen-recording"] .badge[data-state="granted"]').waitFor();
    await page.locator('[data-action="screen-recording"]').click();
    const requests = (await view.calls()).filter((call) => call.method === 'requestPermission').map((call) => call.request);
    assert.deepEqual(requests, [{ id: 'accessibility' }, { id: 'screen-recording' }]);
  });

  it('should offer to relaunch Tandem for Screen Recording, which macOS applies only to a new process, naming the step to come back to', async () => {
    const screenOff: PermissionView = {
      ...macPermissions,
      items: [
        macPermissions.items[0],
        { ...macPermissions.items[1], state: 'denied', detail: 'Tandem takes no screenshots.', action: { kind: 'prompt', label: 'Allow…' }, relaunchToApply: true },
      ],
    };
    const view = await openView(browser, 'onboarding', { checkPermissions: screenOff, requestPermission: screenOff, getResumeStep: null });
    const { page } = view;
    await page.locator('[data-permission="accessibility"]').waitFor();
    assert.equal(await page.locator('[data-action="relaunch"]').count(), 0, 'Accessibility applies at once: no relaunch');
    await page.locator('[data-action="next"]').click();
    await page.locator('[data-permission="screen-recording"] [data-action="relaunch"]').waitFor();
    assert.match((await page.locator('[data-relaunch]').textContent()) ?? '', /only when Tandem starts again/);
    await page.locator('[data-action="screen-recording"]').click();
    await page.locator('[data-action="relaunch"]').click();
    await page.locator('[data-action="relaunch"]', { hasText: 'Relaunching…' }).waitFor();
    const relaunches = (await view.calls()).filter((call) => call.method === 'relaunchApp').map((call) => call.request);
    assert.deepEqual(relaunches, [{ resumeStep: 'screen-recording' }]);

    // Granted after the restart: the step says so and offers no relaunch.
    await view.setResponse('checkPermissions', macPermissions);
    await page.locator('[data-permission="screen-recording"] .badge[data-state="granted"]').waitFor({ timeout: 5000 });
    assert.equal(await page.locator('[data-action="relaunch"]').count(), 0);
  });

  it('should reopen at the step it was relaunched from', async () => {
    const view = await openView(browser, 'onboarding', { checkPermissions: macPermissions, getResumeStep: 'screen-recording' });
    const { page } = view;
    await page.locator('[data-permission="screen-recording"] .badge[data-state="granted"]').waitFor({ timeout: 5000 });
    assert.equal(await page.locator('[data-permission="accessibility"]').count(), 0);
    assert.equal(await page.locator('.progress li.current').evaluate((item) => [...item.parentElement!.children].indexOf(item)), 1);
    await page.locator('[data-action="next"]').click();
    await page.locator('[data-action="test"]').waitFor();
  });

  it('should say why relaunching failed and let the person try again', async () => {
    const screenOff: PermissionView = { ...macPermissions, items: [{ ...macPermissions.items[1], state: 'denied', relaunchToApply: true }] };
    const view = await openView(browser, 'onboarding', { checkPermissions: screenOff, relaunchApp: { __reject: "Error invoking remote method 'app:relaunch': Error: the settings folder is read-only" } });
    const { page } = view;
    await page.locator('[data-action="relaunch"]').click();
    await page.locator('[data-relaunch] [data-failure]', { hasText: 'Relaunching failed: the settings folder is read-only' }).waitFor({ timeout: 5000 });
    assert.equal(await page.locator('[data-action="relaunch"]').isEnabled(), true);
  });

  it('should say why the permissions could not be checked, and try again, instead of hanging', async () => {
    const view = await openView(browser, 'onboarding', {
      checkPermissions: { __reject: "Error invoking remote method 'permissions:check': Error: The accessibility bus did not answer within 3000 ms." },
    });
    const { page } = view;
    await page.locator('[data-state="check-failed"]').waitFor({ timeout: 5000 });
    assert.match((await page.locator('[data-state="check-failed"]').textContent()) ?? '', /could not be checked.*The accessibility bus did not answer within 3000 ms\./);
    assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /Error invoking remote method/);
    await view.setResponse('checkPermissions', linuxChecks('granted'));
    await page.locator('[data-action="retry"]').click();
    await page.locator('[data-permission="xinput"]').waitFor({ timeout: 5000 });
  });

  it('should say why each other call failed: a request, a copy, the test, the client configs, finishing', async () => {
    const failing = (reason: string) => ({ __reject: `Error invoking remote method 'x': Error: ${reason}` });
    const view = await openView(browser, 'onboarding', {
      checkPermissions: linuxChecks('denied'),
      requestPermission: failing('no browser to open the page with'),
      copyPermissionCommand: failing('the clipboard is not available'),
      runTestRefresh: failing('the engine is closing'),
      listMcpConfigs: failing('the launcher path could not be found'),
      copyMcpConfig: failing('the clipboard is not available'),
      finishOnboarding: failing('the settings folder is read-only'),
    }, { width: 680, height: 900 });
    const { page } = view;
    await page.locator('[data-action="xinput"]').click();
    await page.locator('[data-failure]', { hasText: 'The permissions could not be checked: no browser to open the page with' }).waitFor({ timeout: 5000 });
    await page.locator('[data-action="copy-atspi-bus"]').click();
    await page.locator('[data-permission="atspi-bus"] [data-failure]', { hasText: 'Copying the command failed: the clipboard is not available' }).waitFor({ timeout: 5000 });
    assert.equal(await page.locator('[data-action="copy-atspi-bus"]').textContent(), 'Copy', 'not "Copied" when it was not');

    await page.locator('[data-action="next"]').click();
    await page.locator('[data-action="test"]').click();
    await page.locator('[data-failure]', { hasText: 'The test could not run: the engine is closing' }).waitFor({ timeout: 5000 });
    assert.equal(await page.locator('[data-action="test"]').isEnabled(), true, 'the test can be run again');

    await page.locator('[data-action="next"]').click();
    await page.locator('[data-failure]', { hasText: 'The client configurations could not be made: the launcher path could not be found' }).waitFor({ timeout: 5000 });
    await view.setResponse('listMcpConfigs', configs);
    await page.locator('[data-action="retry-configs"]').click();
    await page.locator('.copy-block').first().waitFor({ timeout: 5000 });
    await page.locator('[data-client="cursor"] button').click();
    await page.locator('[data-client="cursor"] [data-failure]', { hasText: 'Copying failed: the clipboard is not available' }).waitFor({ timeout: 5000 });
    await page.locator('[data-action="finish"]').click();
    await page.locator('[data-failure]', { hasText: 'Closing the wizard failed: the settings folder is read-only' }).waitFor({ timeout: 5000 });
    assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /Error invoking remote method/);
  });
});
