import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress } from '../../src/core/progress.js';
import { MacDesktop } from '../../src/backends/macos/macDesktop.js';
import { FakeMacNative } from './mac-fake-native.js';
import { modelText } from '../support/modelText.js';

const progress = () => createProgress({ timeoutMs: 10_000 });
const LIMITS = { maxDepth: 20, maxElements: 1000, maxMs: 5000 };

function setup() {
  const fake = new FakeMacNative();
  fake.addApp(42, {
    role: 'AXApplication',
    title: 'Notes',
    children: [{ role: 'AXWindow', title: 'Note', windowId: 9, position: { x: 10, y: 10 }, size: { width: 300, height: 200 }, children: [{ role: 'AXButton', title: 'New', position: { x: 20, y: 20 }, size: { width: 40, height: 20 }, actions: ['AXPress'] }] }],
  });
  fake.windowList = [{ kCGWindowNumber: 9, kCGWindowOwnerPID: 42, kCGWindowOwnerName: 'Notes', kCGWindowLayer: 0, kCGWindowBounds: { X: 10, Y: 10, Width: 300, Height: 200 }, kCGWindowIsOnscreen: true }];
  return { fake, desktop: new MacDesktop(fake) };
}

test('should snapshot, act, type and move the pointer through the desktop, then leave nothing allocated', async () => {
  const { fake, desktop } = setup();
  assert.equal(desktop.platform, 'darwin');
  const snap = await desktop.snapshot(42, LIMITS, progress());
  assert.deepEqual(snap.elements.map((e) => `${e.role}:${e.text}`), ['Application:Notes', 'Window:Note', 'Button:New']);
  await desktop.performAction({ element: snap.elements[2], action: 'press' }, progress());
  assert.equal(fake.performed.length, 1);
  await desktop.click({ x: 40, y: 30 }, { button: 'left', count: 2, modifiers: [] }, progress());
  await desktop.typeText('hi\n', progress());
  await desktop.pressKey('s', ['meta'], progress());
  assert.ok(fake.posted.length >= 9);
  await desktop.moveCursor({ x: 1, y: 2 });
  assert.deepEqual(await desktop.cursorPosition(), { x: 1, y: 2 });
  assert.deepEqual(await desktop.windows(42, progress()), [{ windowId: 9, pid: 42, title: '', bounds: { x: 10, y: 10, width: 300, height: 200 }, app: 'Notes', zOrder: 0, onScreen: true }]);
  await desktop.close();
  assert.deepEqual(fake.leaks(), []);
});

test('should refuse accessibility work without the grant, naming the setting', async () => {
  const { fake, desktop } = setup();
  fake.trusted = false;
  await assert.rejects(desktop.snapshot(42, LIMITS, progress()), (e: Error & { code?: string }) => e.code === 'permission' && /Privacy & Security › Accessibility/.test(modelText(e)));
  await assert.rejects(desktop.appForPid(42, progress()), (e: Error & { code?: string }) => e.code === 'permission');
  const checks = await desktop.checkPermissions(progress());
  assert.deepEqual(checks.map((c) => [c.id, c.state]), [['accessibility', 'denied'], ['screen-recording', 'granted']]);
  assert.equal(checks[0].action?.kind, 'open-url');
});

test('should stop typing at the cancellation checkpoint between chunks', async () => {
  const { fake, desktop } = setup();
  const controller = new AbortController();
  const cancelled = createProgress({ timeoutMs: 10_000, signal: controller.signal });
  const typing = desktop.typeText('x'.repeat(200), cancelled);
  controller.abort();
  await assert.rejects(typing);
  assert.ok(fake.posted.length < 20, `${fake.posted.length} events posted after the abort`);
});

test('should name the elements at a point from the window down, as the tree names them (AXUIElementCopyElementAtPosition)', async () => {
  const { fake, desktop } = setup();
  const [, window, button] = (await desktop.snapshot(42, LIMITS, progress())).elements;
  assert.deepEqual(await desktop.accessibleAtPoint(window, { x: 40, y: 30 }, progress()), [window.identity, button.identity], 'the button, inside its window');
  assert.deepEqual(await desktop.accessibleAtPoint(window, { x: 200, y: 150 }, progress()), [window.identity], 'the window alone where no child is');
  assert.equal(await desktop.accessibleAtPoint(window, { x: 900, y: 700 }, progress()), null, 'nothing of the app there');
  await desktop.close();
  assert.deepEqual(fake.leaks(), []);
});
