import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress } from '../../src/core/progress.js';
import { MacDesktop } from '../../src/backends/macos/macDesktop.js';
import { AX_MESSAGING_TIMEOUT_S } from '../../src/backends/macos/axElement.js';
import type { TandemError } from '../../src/core/errors.js';
import { selectAllKey } from '../../src/core/call/stepRunners/selectAll.js';
import type { LayoutKey } from '../../native/macos/macNative.js';
import { FakeMacNative, type FakeElement } from './mac-fake-native.js';
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

/** An app whose dialog window lies over its document's button, with the elements kept to inspect. */
function twoWindows() {
  const fake = new FakeMacNative();
  const saveButton: FakeElement = { role: 'AXButton', title: 'Save', position: { x: 30, y: 30 }, size: { width: 60, height: 20 } };
  const dialog: FakeElement = { role: 'AXWindow', subrole: 'AXDialog', title: 'Save?', windowId: 8, position: { x: 20, y: 20 }, size: { width: 100, height: 60 }, children: [saveButton] };
  const docButton: FakeElement = { role: 'AXButton', title: 'New', position: { x: 20, y: 20 }, size: { width: 40, height: 20 } };
  const document: FakeElement = { role: 'AXWindow', title: 'Note', windowId: 9, position: { x: 10, y: 10 }, size: { width: 300, height: 200 }, children: [docButton] };
  // The first window listed is the front one: the fake hit-tests in this order.
  const app: FakeElement = { role: 'AXApplication', title: 'Notes', children: [dialog, document] };
  fake.addApp(42, app);
  return { fake, app, saveButton, desktop: new MacDesktop(fake) };
}

test('should name the window in front when the point falls on another window of the app', async () => {
  const { fake, desktop } = twoWindows();
  const elements = (await desktop.snapshot(42, LIMITS, progress())).elements;
  const byText = (text: string) => elements.find((e) => e.text === text)!;
  assert.deepEqual(await desktop.accessibleAtPoint(byText('Note'), { x: 40, y: 35 }, progress()), [byText('Save?').identity, byText('Save').identity], 'the dialog and its button, not the document under them; never the application');
  await desktop.close();
  assert.deepEqual(fake.leaks(), []);
});

test("should ask the app, not the screen, so another app's window in front answers nothing of its own", async () => {
  const fake = new FakeMacNative();
  // Listed first, the other app is what a system-wide hit test would find at the point.
  fake.addApp(7, { role: 'AXApplication', title: 'Other', children: [{ role: 'AXWindow', title: 'Over', position: { x: 0, y: 0 }, size: { width: 500, height: 500 }, children: [{ role: 'AXButton', title: 'Theirs', position: { x: 30, y: 20 }, size: { width: 50, height: 30 } }] }] });
  fake.addApp(42, { role: 'AXApplication', title: 'Notes', children: [{ role: 'AXWindow', title: 'Note', position: { x: 10, y: 10 }, size: { width: 300, height: 200 }, children: [{ role: 'AXButton', title: 'New', position: { x: 20, y: 20 }, size: { width: 40, height: 20 } }] }] });
  const desktop = new MacDesktop(fake);
  const [, window, button] = (await desktop.snapshot(42, LIMITS, progress())).elements;
  assert.deepEqual(await desktop.accessibleAtPoint(window, { x: 40, y: 30 }, progress()), [window.identity, button.identity]);
  await desktop.close();
  assert.deepEqual(fake.leaks(), []);
});

test('should bound each AX call of the hit test by the time left and give the app its own timeout back', async () => {
  const { fake, saveButton, desktop } = twoWindows();
  const elements = (await desktop.snapshot(42, LIMITS, progress())).elements;
  const app = fake.apps.get(42)!;
  fake.messagingTimeouts.length = 0;
  await desktop.accessibleAtPoint(elements[1], { x: 40, y: 35 }, createProgress({ timeoutMs: 300 }));
  const appTimeouts = fake.messagingTimeouts.filter((t) => t.element === app).map((t) => t.seconds);
  assert.equal(appTimeouts.length, 2, 'bounded for the hit test, then put back');
  assert.ok(appTimeouts[0] > 0 && appTimeouts[0] <= 0.3, `the hit test itself was bounded by the 300 ms left (${appTimeouts[0]} s)`);
  assert.equal(appTimeouts[1], AX_MESSAGING_TIMEOUT_S, "the app's element keeps the session's timeout");
  const walked = fake.messagingTimeouts.find((t) => t.element === saveButton)?.seconds;
  assert.ok(walked !== undefined && walked > 0 && walked <= 0.3, `the button's AXParent read was bounded by the 300 ms left (${walked} s)`);
  await desktop.close();
});

test('should report a hung app or a refused accessibility API as the failure it is, and release everything', async () => {
  for (const [error, code] of [[-25204, 'timeout'], [-25211, 'permission']] as const) {
    const { fake, app, desktop } = twoWindows();
    const elements = (await desktop.snapshot(42, LIMITS, progress())).elements;
    app.error = error;
    await assert.rejects(desktop.accessibleAtPoint(elements[1], { x: 40, y: 35 }, progress()), (e: TandemError) => e.code === code);
    await desktop.close();
    assert.deepEqual(fake.leaks(), []);
  }
});

/** A layout's letters (keyboardLayoutKeys) at their keycodes; everything else types nothing here. */
function layoutWith(letters: Record<string, number>): LayoutKey[] {
  const keys: LayoutKey[] = Array.from({ length: 128 }, (_, keycode) => ({ keycode, plain: '', shifted: '' }));
  for (const [letter, keycode] of Object.entries(letters)) keys[keycode] = { keycode, plain: letter, shifted: letter.toUpperCase() };
  return keys;
}

test("should press select-all on the key that types 'a' on the person's layout: on AZERTY kVK_ANSI_A would be Command-Q", async () => {
  const { fake, desktop } = setup();
  fake.keyboardLayout = layoutWith({ q: 0x00, a: 0x0c, z: 0x0d, w: 0x06 });
  const { key, modifiers } = selectAllKey('darwin');
  await desktop.pressKey(key, modifiers, progress());
  assert.deepEqual(fake.posted.map((e) => [e.keycode, e.flags]), [[0x0c, 0x100000n], [0x0c, 0x100000n]]);
  fake.posted.length = 0;
  await desktop.pressKey('Z', ['meta'], progress());
  assert.deepEqual(fake.posted.map((e) => [e.keycode, e.flags]), [[0x0d, 0x120000n], [0x0d, 0x120000n]], 'a capital: its key with Shift');
  fake.posted.length = 0;
  // A layout without Latin letters keeps the ANSI key (what macOS matches shortcuts against there).
  fake.keyboardLayout = layoutWith({ ф: 0x00 });
  await desktop.pressKey(key, modifiers, progress());
  assert.deepEqual(fake.posted.map((e) => e.keycode), [0x00, 0x00]);
  await desktop.close();
});

test('should read the keyboard layout for letters only: named keys and digits keep their kVK codes', async () => {
  const { fake, desktop } = setup();
  // A layout that would move every key it names, were it consulted.
  fake.keyboardLayout = layoutWith({ a: 0x0c, '1': 0x00, '\r': 0x00 });
  await desktop.pressKey('return', [], progress());
  await desktop.pressKey('escape', [], progress());
  await desktop.pressKey('1', ['meta'], progress());
  assert.equal(fake.layoutReads, 0, 'no Text Input Source call for a named key or a digit');
  assert.deepEqual(fake.posted.filter((e) => e.type === 10).map((e) => e.keycode), [0x24, 0x35, 0x12]);
  await desktop.pressKey('a', ['meta'], progress());
  assert.equal(fake.layoutReads, 1);
  await desktop.close();
});

test('should post select-all on macOS as Command (kCGEventFlagMaskCommand) with kVK_ANSI_A', async () => {
  const { fake, desktop } = setup();
  const { key, modifiers } = selectAllKey('darwin');
  await desktop.pressKey(key, modifiers, progress());
  assert.deepEqual(
    fake.posted.map((e) => [e.type, e.keycode, e.flags]),
    [
      [10, 0x00, 0x100000n],
      [11, 0x00, 0x100000n],
    ],
  );
  await desktop.close();
});
