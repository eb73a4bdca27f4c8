// The AT-SPI half of the Linux backend against real GTK apps on a virtual desktop: trees with
// plausible geometry, password fields kept secret, and a frozen app that must not hang a call.
import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { SnapshotLimits } from '../../src/core/desktop.js';
import type { ElementNode, TreeSnapshot } from '../../src/core/model.js';
import { createProgress } from '../../src/core/progress.js';
import { AtspiAccessibility } from '../../src/backends/linux/atspiAccessibility.js';
import { VALUE_READ_CAP } from '../../src/backends/linux/atspiTree.js';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';

const LIMITS: SnapshotLimits = { maxDepth: 60, maxElements: 5000, maxMs: 5000 };
const SCREEN = { width: 1280, height: 800 };

const GTK4_TYPELIB = '/usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-4.0.typelib';
const GTK4_PROBE = `
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gtk, GLib
GLib.set_prgname("tandem-gtk4-probe")
def on_activate(app):
    window = Gtk.ApplicationWindow(application=app, title="GTK4 Probe")
    window.set_default_size(400, 300)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6, margin_top=20, margin_start=30)
    box.append(Gtk.Button(label="Press me"))
    # Calculator keys: the tooltip carries a shortcut; one shows markup, so GTK 4.8 names it
    # by its class ("GtkButton") and only its label child says what it shows.
    box.append(Gtk.Button(label="π", tooltip_text="Pi [Ctrl+P]"))
    square = Gtk.Button(tooltip_text="Square [Ctrl+2]")
    square_label = Gtk.Label()
    square_label.set_markup("x<sup>2</sup>")
    square.set_child(square_label)
    box.append(square)
    box.append(Gtk.PasswordEntry())
    for text, field in (("_Memo", Gtk.Entry(text="gtk4 memo")), ("_Passphrase", Gtk.PasswordEntry(text="gtk4-secret"))):
        row = Gtk.Box(spacing=6)
        label = Gtk.Label(label=text, use_underline=True)
        label.set_mnemonic_widget(field)
        row.append(label)
        row.append(field)
        box.append(row)
    window.set_child(box)
    window.present()
app = Gtk.Application(application_id="org.tandem.Gtk4Probe")
app.connect("activate", on_activate)
app.run(None)
`;

let desktop: VirtualDesktop;
let accessibility: AtspiAccessibility;

/** Root position of a toplevel (what the X11 half supplies in production), read with xwininfo. */
function windowGeometry(title: string): { x: number; y: number; width: number; height: number } {
  const out = execFileSync('xwininfo', ['-name', title], { env: desktop.env }).toString();
  const field = (name: string): number => Number(new RegExp(`${name}:\\s+(-?\\d+)`).exec(out)![1]);
  return { x: field('Absolute upper-left X'), y: field('Absolute upper-left Y'), width: field('Width'), height: field('Height') };
}

before(async () => {
  ensureDesktopPackages();
  desktop = await startVirtualDesktop();
  accessibility = await AtspiAccessibility.connect({
    env: desktop.env,
    windowOrigin: async (_pid, title) => {
      const { x, y } = windowGeometry(title);
      return { x, y };
    },
  });
});

after(async () => {
  await accessibility?.close();
  await desktop?.stop();
});

const progress = (timeoutMs = 10_000) => createProgress({ timeoutMs });

/** Starts an app and waits until its tree shows a window holding `ready` (a condition, not a delay). */
async function startApp(command: string, args: string[], ready: (elements: ElementNode[]) => boolean): Promise<{ child: ChildProcess; snapshot: TreeSnapshot }> {
  const child = desktop.spawnApp(command, args);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const app = await accessibility.appForPid(child.pid!, progress());
    if (app) {
      const snapshot = await accessibility.snapshot(child.pid!, LIMITS, progress());
      if (ready(snapshot.elements)) return { child, snapshot };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${command} did not show its window on the accessibility bus`);
}

const find = (elements: ElementNode[], role: string, text: string | RegExp): ElementNode | undefined =>
  elements.find((element) => element.role === role && (typeof text === 'string' ? element.text === text : text.test(element.text)));

function assertOnScreen(element: ElementNode | undefined, what: string): void {
  assert.ok(element, `${what} is in the tree`);
  assert.ok(element.visible, `${what} is visible`);
  const bounds = element.bounds;
  assert.ok(bounds, `${what} has bounds`);
  assert.ok(bounds.width > 0 && bounds.height > 0, `${what} has a size: ${JSON.stringify(bounds)}`);
  assert.ok(bounds.x < SCREEN.width && bounds.y < SCREEN.height && bounds.x + bounds.width > 0 && bounds.y + bounds.height > 0, `${what} is on the screen: ${JSON.stringify(bounds)}`);
}

function assertWellFormed(snapshot: TreeSnapshot): void {
  snapshot.elements.forEach((element, index) => {
    assert.equal(element.index, index);
    if (index === 0) {
      assert.equal(element.parentIndex, null);
      return;
    }
    const parent = snapshot.elements[element.parentIndex!];
    assert.ok(parent && parent.index < index, 'parents come before children (pre-order)');
    assert.equal(element.depth, parent.depth + 1);
  });
  const identities = snapshot.elements.map((element) => element.identity);
  assert.equal(new Set(identities).size, identities.length, 'identities are unique');
}

test('should read the whole widget factory with on-screen geometry', { timeout: 60_000 }, async () => {
  const { child, snapshot } = await startApp('gtk3-widget-factory', [], (elements) => Boolean(find(elements, 'CheckBox', 'checkbutton')?.visible));
  assert.equal(snapshot.pid, child.pid);
  assert.equal(snapshot.app, 'gtk3-widget-factory');
  assert.equal(snapshot.truncated, undefined);
  assert.ok(snapshot.elements.length > 150, `widget factory has ${snapshot.elements.length} elements`);
  assert.equal(snapshot.elements[0].role, 'Application');
  assertWellFormed(snapshot);
  assertOnScreen(find(snapshot.elements, 'CheckBox', 'checkbutton'), 'a check box');
  assertOnScreen(find(snapshot.elements, 'ToggleButton', 'togglebutton'), 'a toggle button');
  assertOnScreen(find(snapshot.elements, 'PageTab', 'page 1'), 'a notebook tab');
  // Tree view rows are not in the AT-SPI cache: they come from the live walk.
  assertOnScreen(find(snapshot.elements, 'TableCell', 'Andrea'), 'a tree view cell');
  // On/off is a check box's value (checked, unchecked, and mixed for the factory's inconsistent ones), not `selected`.
  const checkBoxes = snapshot.elements.filter((element) => element.role === 'CheckBox' && element.visible);
  assert.ok(checkBoxes.every((element) => element.actionable && element.selected === undefined));
  assert.deepEqual([...new Set(checkBoxes.map((element) => element.value))].sort(), ['checked', 'mixed', 'unchecked'], 'the three states are read');
  assert.ok(checkBoxes.some((element) => element.enabled), 'enabled states are read');
  // A check box toggles through its action; the app reports the new state.
  const toggled = checkBoxes.find((element) => element.enabled && element.value === 'unchecked')!;
  await accessibility.setSelected(toggled, true, progress());
  await accessibility.waitForQuiet(child.pid!, 100, 3000, progress());
  const afterToggle = await accessibility.snapshot(child.pid!, LIMITS, progress());
  assert.equal(afterToggle.elements.find((element) => element.identity === toggled.identity)?.value, 'checked');
  // What the other kinds of control hold: a combo box's choice (not as its name, which GTK 3
  // makes of the choice), a spin button's and a slider's number, an entry's text.
  const combos = snapshot.elements.filter((element) => element.role === 'ComboBox' && element.visible);
  const aligned = combos.find((element) => element.value === 'Left');
  assert.ok(aligned, `a combo box shows its choice as its value: ${combos.map((element) => `${element.text}=${element.value}`).join(', ')}`);
  assert.equal(aligned.text, '', 'and not as its name');
  assert.ok(combos.some((element) => element.value === 'Andrea'), 'an icon combo box shows its chosen row');
  assert.ok(snapshot.elements.some((element) => element.role === 'SpinButton' && element.value === '50'), 'a spin button shows its number');
  assert.ok(snapshot.elements.some((element) => element.role === 'Slider' && element.value === '50'), 'a slider shows its number');
  assert.ok(snapshot.elements.some((element) => element.role === 'Text' && element.value === 'entry' && element.editable), 'an entry shows its text and takes typing');
  assert.ok(snapshot.elements.every((element) => element.role !== 'Label' || !element.editable), 'labels do not take typing');
  // Hidden menu items are in the tree but not visible, with no geometry.
  const hidden = snapshot.elements.filter((element) => !element.visible);
  assert.ok(hidden.length > 0 && hidden.every((element) => element.bounds === null || element.bounds.width >= 0));
});

test('should read mousepad: menus, the editor and its text', { timeout: 60_000 }, async () => {
  const { snapshot } = await startApp('mousepad', [], (elements) => elements.some((element) => element.role === 'Frame' && element.visible));
  assertWellFormed(snapshot);
  assert.ok(snapshot.elements.length > 200, `mousepad has ${snapshot.elements.length} elements`);
  assertOnScreen(find(snapshot.elements, 'Menu', 'File'), 'the File menu');
  const editor = snapshot.elements.find((element) => element.role === 'Text' && element.visible && element.bounds!.width > 200);
  assertOnScreen(editor, 'the editor');
  // Closed menus: items present, not visible, still actionable through AT-SPI.
  const quit = find(snapshot.elements, 'MenuItem', /^Quit/);
  assert.ok(quit && !quit.visible && quit.actionable && quit.bounds === null);

  // An opened menu: its items are on screen, listed in the order they appear, top to bottom.
  await accessibility.performAction({ element: find(snapshot.elements, 'Menu', 'File')!, action: 'press' }, progress());
  await accessibility.waitForQuiet(snapshot.pid, 150, 3000, progress());
  const menuOpen = await accessibility.snapshot(snapshot.pid, LIMITS, progress());
  const fileMenu = find(menuOpen.elements, 'Menu', 'File')!;
  const items = menuOpen.elements.filter((element) => element.parentIndex === fileMenu.index && element.visible && element.role === 'MenuItem');
  assert.ok(items.length > 5, `the File menu shows its items: ${items.map((item) => item.text).join(', ')}`);
  const tops = items.map((item) => item.bounds!.y);
  assert.deepEqual(tops, [...tops].sort((a, b) => a - b), 'menu items come in screen order');
  await accessibility.performAction({ element: find(menuOpen.elements, 'Menu', 'File')!, action: 'press' }, progress());

  await accessibility.setValue(editor!, 'Hello from Tandem', progress());
  await accessibility.waitForQuiet(snapshot.pid, 100, 3000, progress());
  const after = await accessibility.snapshot(snapshot.pid, LIMITS, progress());
  assert.ok(after.elements.some((element) => element.role === 'Text' && element.value === 'Hello from Tandem'), 'the editor text is read through the Text interface, as its value');

  // A document longer than what is read: the start is read, and the value says more follows.
  const page = `${'0123456789'.repeat(12_000)}THE END`;
  await accessibility.setValue(editor!, page, progress());
  await accessibility.waitForQuiet(snapshot.pid, 100, 3000, progress());
  const big = (await accessibility.snapshot(snapshot.pid, LIMITS, progress())).elements.find((element) => element.identity === editor!.identity)!;
  assert.equal(big.value?.length, VALUE_READ_CAP, 'read up to the cap');
  assert.equal(big.value, page.slice(0, VALUE_READ_CAP));
  assert.equal(big.valueTruncated, true, 'marked as cut');
  await accessibility.setValue(editor!, page.slice(0, VALUE_READ_CAP), progress());
  await accessibility.waitForQuiet(snapshot.pid, 100, 3000, progress());
  const exact = (await accessibility.snapshot(snapshot.pid, LIMITS, progress())).elements.find((element) => element.identity === editor!.identity)!;
  assert.equal(exact.value?.length, VALUE_READ_CAP);
  assert.equal(exact.valueTruncated, undefined, 'a text exactly as long as the cap is whole, not cut');
});

test('should mark a password field secure and never expose what was typed into it', { timeout: 60_000 }, async () => {
  const secret = 'hunter2-Zq9!tandem';
  const { child, snapshot } = await startApp('/usr/bin/python3', ['test/fixtures/tandem_fixture.py'], (elements) => Boolean(find(elements, 'PasswordText', 'Password')?.visible));
  const lines: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const password = find(snapshot.elements, 'PasswordText', 'Password')!;
  assert.equal(password.secure, true);
  assert.deepEqual(snapshot.elements.filter((element) => element.secure).map((element) => element.text), ['Password', 'Passphrase'], 'both password fields, by their names');

  await accessibility.setValue(password, secret, progress());
  await accessibility.performAction({ element: password, action: 'press' }, progress());
  // The app itself saw the whole secret (it reports only its length).
  const deadline = Date.now() + 10_000;
  while (!lines.some((line) => line.includes('password-submitted')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const submitted = lines.map((line) => JSON.parse(line) as { event: string; length?: number }).find((event) => event.event === 'password-submitted');
  assert.equal(submitted?.length, secret.length);

  const after = await accessibility.snapshot(child.pid!, LIMITS, progress());
  const again = after.elements.find((element) => element.identity === password.identity)!;
  assert.equal(again.secure, true);
  assert.equal(again.text, 'Password');
  assert.equal(again.value, undefined, 'no value is read for it');
  assert.ok(!JSON.stringify(after).includes(secret), 'the secret is nowhere in the snapshot');
  assert.ok(!JSON.stringify(after).includes('hunter2'), 'not even part of it');
});

test('should report the accessibility bus and its apps as a granted check', async () => {
  const checks = await accessibility.checks(progress());
  const check = checks.find((entry) => entry.id === 'atspi-bus');
  assert.ok(check, `an atspi-bus check among ${checks.map((entry) => entry.id).join(', ')}`);
  assert.equal(check.state, 'granted');
  assert.match(check.detail, /gtk3-widget-factory/);
});

test('should return in time from a frozen app, flagged truncated', { timeout: 60_000 }, async () => {
  const { child } = await startApp('/usr/bin/python3', ['test/fixtures/tandem_fixture.py'], (elements) => Boolean(find(elements, 'PushButton', /^Count/)?.visible));
  process.kill(child.pid!, 'SIGSTOP');
  try {
    const snapshot = await accessibility.snapshot(child.pid!, { ...LIMITS, maxMs: 1500 }, progress(3000));
    assert.equal(snapshot.truncated?.reason, 'time');
    assert.match(snapshot.truncated!.detail, /did not answer|stopped after/);
    // The rest of the bus still answers while one app is frozen.
    const apps = await accessibility.listApps(progress());
    assert.ok(apps.some((app) => app.pid === child.pid));
  } finally {
    process.kill(child.pid!, 'SIGCONT');
  }
  const thawed = await accessibility.snapshot(child.pid!, LIMITS, progress());
  assert.equal(thawed.truncated, undefined);
});

test('should place GTK4 widgets in screen coordinates and keep its password entry secure', { skip: !existsSync(GTK4_TYPELIB) && 'gir1.2-gtk-4.0 is not installed', timeout: 60_000 }, async () => {
  const { snapshot } = await startApp('/usr/bin/python3', ['-c', GTK4_PROBE], (elements) => Boolean(find(elements, 'PushButton', 'Press me')?.visible));
  const window = windowGeometry('GTK4 Probe');
  const button = find(snapshot.elements, 'PushButton', 'Press me');
  assertOnScreen(button, 'the GTK4 button');
  // GTK 4.8 reports window-relative extents: without the window origin the button would sit
  // near the screen's top-left corner, outside its window.
  const bounds = button!.bounds!;
  assert.ok(bounds.x >= window.x && bounds.y >= window.y, `button ${JSON.stringify(bounds)} inside window ${JSON.stringify(window)}`);
  assert.ok(bounds.x + bounds.width <= window.x + window.width && bounds.y + bounds.height <= window.y + window.height);
  const password = snapshot.elements.find((element) => element.role === 'PasswordText');
  assert.ok(password?.secure && password.visible, 'the GTK4 password entry is found, visible and secure');
  assert.equal(password.text, '', 'an unlabelled one has no name (GTK 4.8 offers its class name, "GtkPasswordEntry")');
  // Labelled fields: named by their label, the entry showing its text, the password entry none.
  assert.equal(find(snapshot.elements, 'Text', 'Memo')?.value, 'gtk4 memo');
  const passphrase = find(snapshot.elements, 'PasswordText', 'Passphrase');
  assert.ok(passphrase?.secure && passphrase.value === undefined, 'the labelled password entry keeps its name and shows no value');
  assert.ok(!JSON.stringify(snapshot.elements.map(({ handle: _handle, ...rest }) => rest)).includes('gtk4-secret'));
  // Keys named by what they show: the label child, not the tooltip and its shortcut.
  assert.ok(find(snapshot.elements, 'PushButton', 'π'), 'the π key');
  assert.ok(find(snapshot.elements, 'PushButton', 'x2'), 'the key GTK names "GtkButton", by its label child');
  assert.ok(!snapshot.elements.some((element) => /Ctrl\+/.test(element.text)), 'no tooltip shortcut as a name');
});
