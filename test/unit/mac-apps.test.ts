import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyIdentifier, launchArguments, matchesApp, openArguments } from '../../src/backends/macos/macApps.js';
import { appWindows, frontmostWindow, readWindowList } from '../../src/backends/macos/cgWindows.js';
import { accessibilityCheck, checkMacPermissions, screenRecordingCheck, SETTINGS_LINKS } from '../../src/backends/macos/macPermissions.js';
import { CFDecoder } from '../../native/macos/cfDecode.js';
import { FakeMacNative } from './mac-fake-native.js';

test('should tell paths, bundle ids and names apart', () => {
  assert.equal(classifyIdentifier('/Applications/TextEdit.app'), 'path');
  assert.equal(classifyIdentifier('~/notes.txt'), 'path');
  assert.equal(classifyIdentifier('com.apple.TextEdit'), 'bundle-id');
  assert.equal(classifyIdentifier('TextEdit'), 'name');
  assert.equal(classifyIdentifier('Visual Studio Code'), 'name');
  assert.equal(classifyIdentifier('TextEdit.app'), 'name');
});

test('should open through LaunchServices with -a, -b or a path', () => {
  assert.deepEqual(openArguments('TextEdit'), ['-a', 'TextEdit']);
  assert.deepEqual(openArguments('TextEdit.app'), ['-a', 'TextEdit']);
  assert.deepEqual(openArguments('com.apple.calculator'), ['-b', 'com.apple.calculator']);
  assert.deepEqual(openArguments('/Applications/Calculator.app'), ['-a', '/Applications/Calculator.app']);
  assert.deepEqual(openArguments('/tmp/notes.txt'), ['/tmp/notes.txt']);
});

test('should match a running app by name, bundle id or .app path, case-insensitively', () => {
  const app = { pid: 1, name: 'TextEdit', id: 'com.apple.TextEdit' };
  assert.ok(matchesApp(app, 'textedit'));
  assert.ok(matchesApp(app, 'TextEdit.app'));
  assert.ok(matchesApp(app, 'com.apple.textedit'));
  assert.ok(matchesApp(app, '/System/Applications/TextEdit.app'));
  assert.ok(!matchesApp(app, 'Text'));
  assert.ok(!matchesApp(app, '/tmp/TextEdit.txt'));
});

test('should read windows from the window list, keeping normal windows front to back with their owner, stacking place and visibility', () => {
  const fake = new FakeMacNative();
  fake.windowList = [
    { kCGWindowNumber: 10, kCGWindowOwnerPID: 99, kCGWindowOwnerName: 'Dock', kCGWindowLayer: 20, kCGWindowBounds: { X: 0, Y: 0, Width: 1440, Height: 80 }, kCGWindowIsOnscreen: true },
    { kCGWindowNumber: 11, kCGWindowOwnerPID: 42, kCGWindowOwnerName: 'TextEdit', kCGWindowName: 'Untitled', kCGWindowLayer: 0, kCGWindowBounds: { X: 100, Y: 100, Width: 600, Height: 400 }, kCGWindowIsOnscreen: true },
    { kCGWindowNumber: 12, kCGWindowOwnerPID: 7, kCGWindowOwnerName: 'Calculator', kCGWindowLayer: 0, kCGWindowBounds: { X: 0, Y: 0, Width: 230, Height: 400 }, kCGWindowIsOnscreen: true },
  ];
  const decoder = new CFDecoder(fake);
  const entries = readWindowList(fake, decoder, true);
  assert.deepEqual(appWindows(entries), [
    { windowId: 11, pid: 42, title: 'Untitled', bounds: { x: 100, y: 100, width: 600, height: 400 }, app: 'TextEdit', zOrder: 0, onScreen: true },
    { windowId: 12, pid: 7, title: '', bounds: { x: 0, y: 0, width: 230, height: 400 }, app: 'Calculator', zOrder: 1, onScreen: true },
  ]);
  assert.deepEqual(appWindows(entries, 7).map((w) => [w.windowId, w.zOrder]), [[12, 1]], "one app's window keeps its place among all apps' windows");
  assert.equal(frontmostWindow(entries)?.pid, 42);
  decoder.close();
  assert.deepEqual(fake.leaks(), []);
});

test('should describe missing permissions with the Settings deep link the wizard opens', () => {
  const denied = accessibilityCheck('denied', 'AXIsProcessTrusted');
  assert.equal(denied.id, 'accessibility');
  assert.deepEqual(denied.action, { kind: 'open-url', value: SETTINGS_LINKS.accessibility });
  assert.match(denied.remedy ?? '', /Privacy & Security › Accessibility/);
  assert.equal(accessibilityCheck('granted', 'x').action, undefined);
  const screen = screenRecordingCheck('denied', 'CGPreflightScreenCaptureAccess');
  assert.equal(screen.id, 'screen-recording');
  assert.equal(screen.action?.value, 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture');
});

test('should answer both grants from AXIsProcessTrusted and CGPreflightScreenCaptureAccess alone: false is "not granted", never a third state', async () => {
  const fake = new FakeMacNative();
  let screen = false;
  fake.cg.CGPreflightScreenCaptureAccess = () => screen;
  fake.trusted = false;
  assert.deepEqual((await checkMacPermissions(fake)).map((c) => [c.id, c.state, c.action?.value]), [
    ['accessibility', 'denied', SETTINGS_LINKS.accessibility],
    ['screen-recording', 'denied', SETTINGS_LINKS.screenRecording],
  ]);
  fake.trusted = true;
  screen = true;
  assert.deepEqual((await checkMacPermissions(fake)).map((c) => [c.id, c.state, c.action]), [
    ['accessibility', 'granted', undefined],
    ['screen-recording', 'granted', undefined],
  ]);
});

test('launch_app asks LaunchServices not to activate a background launch, and passes documents and argv words apart', () => {
  const request = { kind: 'name' as const, value: 'TextEdit.app', args: ['-NSDocumentRevisionsDebugMode', 'YES'], urls: ['/Users/me/notes.txt'], newInstance: true, background: true };
  assert.deepEqual(launchArguments(request), ['-g', '-n', '-a', 'TextEdit', '/Users/me/notes.txt', '--args', '-NSDocumentRevisionsDebugMode', 'YES']);
  assert.deepEqual(launchArguments({ ...request, kind: 'id', value: 'com.apple.TextEdit', args: [], urls: [], newInstance: false, background: false }), ['-b', 'com.apple.TextEdit']);
  assert.deepEqual(launchArguments({ ...request, kind: 'path', value: '/Applications/Calculator.app', args: [], urls: [], background: false, newInstance: false }), ['-a', '/Applications/Calculator.app']);
});
