// Permission status for the wizard: the engine's checks on every platform (on macOS the backend's
// one check); macOS asks for a grant through the system (Electron's Accessibility prompt, the
// engine's Screen Recording request) and offers a relaunch where macOS applies the grant only to
// a new process; Linux only ever opens URLs the engine produced.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TandemEngine } from '../../src/core/engineApi.js';
import type { PermissionCheck } from '../../src/core/model.js';
import { Permissions } from '../../src/main/permissions.js';
import { createFakeElectron } from './support/fakeElectron.js';

function engineWith(checks: PermissionCheck[], requested: string[] = []): TandemEngine {
  return { checkPermissions: async () => checks, requestPermission: async (id: string) => void requested.push(id) } as unknown as TandemEngine;
}

describe('permissions', () => {
  it("should report macOS Accessibility and Screen Recording as the engine's one check says, and ask for them through the system", async () => {
    const electron = createFakeElectron();
    const prompts: boolean[] = [];
    electron.systemPreferences.isTrustedAccessibilityClient = (prompt) => {
      prompts.push(prompt);
      // Electron would say "trusted" here: the wizard must not ask it, only the engine's check counts.
      return true;
    };
    electron.systemPreferences.getMediaAccessStatus = () => 'not-determined';
    const checks: PermissionCheck[] = [
      { id: 'accessibility', title: 'Accessibility', state: 'denied', detail: 'not trusted (AXIsProcessTrusted)', remedy: 'turn it on', action: { kind: 'open-url', value: 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility' } },
      { id: 'screen-recording', title: 'Screen Recording', state: 'granted', detail: 'ok (CGPreflightScreenCaptureAccess)' },
    ];
    const requested: string[] = [];
    const permissions = new Permissions(electron, engineWith(checks, requested), 'darwin');

    const view = await permissions.check();
    assert.equal(view.platform, 'darwin');
    assert.deepEqual(
      view.items.map((item) => [item.id, item.state, item.detail, item.action?.kind, item.action?.label]),
      [
        ['accessibility', 'denied', 'not trusted (AXIsProcessTrusted)', 'prompt', 'Allow…'],
        ['screen-recording', 'granted', 'ok (CGPreflightScreenCaptureAccess)', 'prompt', 'Open settings'],
      ],
    );
    assert.equal(prompts.length, 0, 'no second check through Electron');

    await permissions.request('accessibility');
    assert.deepEqual(prompts, [true], "Electron's prompt, which lists Tandem in Settings");
    assert.deepEqual(requested, [], 'Accessibility is asked through Electron in the app');
    assert.deepEqual(electron.fake.openedUrls, [], 'the prompt alone: it has its own "Open System Settings", a pane now would be a second window');
    await permissions.request('screen-recording');
    assert.equal(electron.fake.openedUrls.at(-1), 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture', 'granted: the button reads "Open settings"');
    assert.deepEqual(requested, [], 'no prompt for a grant already given');
  });

  it('should prompt the first time and open the Settings pane only once the grant was asked for and is still missing', async () => {
    const electron = createFakeElectron();
    const prompts: boolean[] = [];
    electron.systemPreferences.isTrustedAccessibilityClient = (prompt) => {
      prompts.push(prompt);
      return false;
    };
    const denied: PermissionCheck[] = [
      { id: 'accessibility', title: 'Accessibility', state: 'denied', detail: 'not trusted' },
      { id: 'screen-recording', title: 'Screen Recording', state: 'denied', detail: 'not granted' },
    ];
    const requested: string[] = [];
    const permissions = new Permissions(electron, engineWith(denied, requested), 'darwin');

    await permissions.request('screen-recording');
    assert.deepEqual([requested, electron.fake.openedUrls], [['screen-recording'], []], "the first time: CGRequestScreenCaptureAccess's prompt only");
    await permissions.request('accessibility');
    assert.deepEqual([prompts, electron.fake.openedUrls], [[true], []], "the first time: the Accessibility prompt only");

    // Asked and refused: macOS may not prompt again, the pane is the way. A new start remembers it.
    const later = new Permissions(electron, engineWith(denied, requested), 'darwin');
    await later.request('accessibility');
    await later.request('screen-recording');
    assert.deepEqual(electron.fake.openedUrls, ['x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility', 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture']);
    assert.deepEqual([prompts, requested], [[true], ['screen-recording']], 'no second prompt over the pane');
  });

  it('should offer the relaunch for Screen Recording only while it is not granted, since macOS applies it to a new process', async () => {
    const electron = createFakeElectron();
    const screen = (state: 'granted' | 'denied'): PermissionCheck[] => [
      { id: 'accessibility', title: 'Accessibility', state: 'denied', detail: 'not trusted' },
      { id: 'screen-recording', title: 'Screen Recording', state, detail: state },
    ];
    const denied = await new Permissions(electron, engineWith(screen('denied')), 'darwin').check();
    assert.deepEqual(denied.items.map((item) => [item.id, item.relaunchToApply ?? false]), [['accessibility', false], ['screen-recording', true]]);
    const granted = await new Permissions(electron, engineWith(screen('granted')), 'darwin').check();
    assert.deepEqual(granted.items.map((item) => item.relaunchToApply ?? false), [false, false]);
  });

  it('should show the Linux doctor checks, open their links and never run their commands', async () => {
    const electron = createFakeElectron();
    const checks: PermissionCheck[] = [
      { id: 'display', title: 'X display', state: 'granted', detail: ':99' },
      { id: 'atspi-bus', title: 'Accessibility bus', state: 'denied', detail: 'no bus', remedy: 'enable it', action: { kind: 'run-command', value: 'gsettings set org.gnome.desktop.interface toolkit-accessibility true' } },
      { id: 'help', title: 'Help', state: 'unknown', detail: '?', action: { kind: 'open-url', value: 'https://example.invalid/help' } },
    ];
    const permissions = new Permissions(electron, engineWith(checks), 'linux');
    const view = await permissions.check();
    assert.deepEqual(view.items.map((item) => [item.id, item.state, item.action?.kind]), [
      ['display', 'granted', undefined],
      ['atspi-bus', 'denied', 'run-command'],
      ['help', 'unknown', 'open-url'],
    ]);
    await permissions.request('atspi-bus');
    assert.deepEqual(electron.fake.openedUrls, [], 'a command is shown to the person, not run');
    await permissions.request('help');
    assert.deepEqual(electron.fake.openedUrls, ['https://example.invalid/help']);
  });
});
