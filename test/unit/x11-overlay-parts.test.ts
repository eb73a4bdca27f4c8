// The pure parts of the server-drawn X11 overlay: the hand-built SHAPE and RandR requests and the
// monitor list they return, GTK's reduced-motion setting in settings.ini, the label's pixels and
// shape, and colour packing for the screen's visual. The drawing itself is proven on a real X
// server in test/e2e/x11-overlay.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseMonitors, rrGetMonitorsRequest, rrSetMonitorRequest } from '../../native/linux/randrRequests.js';
import { SHAPE_KIND, shapeRectanglesRequest } from '../../native/linux/shapeRequests.js';
import type { X11Connection } from '../../native/linux/x11Connection.js';
import { animationsEnabled, enableAnimationsFromIni, settingsIniFiles } from '../../src/backends/linux/gtkAnimations.js';
import { LABEL_COLOURS, renderLabel, roundedRectShape } from '../../src/backends/linux/x11OverlayLabel.js';
import { packPixel, stripRects, zPixmap } from '../../src/backends/linux/x11OverlayWindows.js';

describe('SHAPE and RandR requests', () => {
  it('should build an empty input region and a region of rectangles', () => {
    const empty = shapeRectanglesRequest({ majorOpcode: 129, window: 0x400001, kind: SHAPE_KIND.input, rectangles: [] });
    assert.deepEqual([...empty], [129, 1, 4, 0, 0, 2, 0, 0, 1, 0, 0x40, 0, 0, 0, 0, 0]);
    const two = shapeRectanglesRequest({ majorOpcode: 129, window: 7, kind: SHAPE_KIND.bounding, rectangles: [{ x: 3, y: 0, width: 10, height: 1 }, { x: 0, y: 1, width: 16, height: 5 }] });
    assert.equal(two.readUInt16LE(2) * 4, two.length, 'length field in 4-byte units');
    assert.equal(two.readUInt8(5), SHAPE_KIND.bounding);
    assert.deepEqual([two.readInt16LE(16), two.readInt16LE(18), two.readUInt16LE(20), two.readUInt16LE(22)], [3, 0, 10, 1]);
    assert.deepEqual([two.readInt16LE(24), two.readInt16LE(26), two.readUInt16LE(28), two.readUInt16LE(30)], [0, 1, 16, 5]);
  });

  it('should ask for the active monitors and read them back with their outputs, negative positions kept', () => {
    const request = rrGetMonitorsRequest(140, 0x2a);
    assert.deepEqual([...request], [140, 42, 3, 0, 0x2a, 0, 0, 0, 1, 0, 0, 0]);
    // A reply body (after its 8-byte header): timestamp, 2 monitors, 1 output in all, padding.
    const body = Buffer.alloc(24 + (24 + 4) + 24);
    body.writeUInt32LE(2, 4);
    body.writeUInt32LE(1, 8);
    let at = 24;
    body.writeUInt32LE(301, at); // name atom
    body.writeUInt8(1, at + 4); // primary
    body.writeUInt16LE(1, at + 6); // one output
    body.writeInt16LE(0, at + 8);
    body.writeInt16LE(0, at + 10);
    body.writeUInt16LE(1920, at + 12);
    body.writeUInt16LE(1080, at + 14);
    body.writeUInt32LE(0x63, at + 24); // its output
    at += 28;
    body.writeUInt32LE(302, at);
    body.writeInt16LE(-1280, at + 8);
    body.writeInt16LE(-200, at + 10);
    body.writeUInt16LE(1280, at + 12);
    body.writeUInt16LE(1024, at + 14);
    assert.deepEqual(parseMonitors(body), [
      { name: 301, primary: true, x: 0, y: 0, width: 1920, height: 1080, outputs: [0x63] },
      { name: 302, primary: false, x: -1280, y: -200, width: 1280, height: 1024, outputs: [] },
    ]);
    const set = rrSetMonitorRequest(140, 0x2a, { name: 302, primary: false, x: -1280, y: -200, width: 1280, height: 1024 });
    assert.equal(set.readUInt16LE(2) * 4, set.length);
    assert.deepEqual([set.readInt16LE(16), set.readInt16LE(18), set.readUInt16LE(20), set.readUInt16LE(22)], [-1280, -200, 1280, 1024]);
  });
});

describe('reduced motion in GTK settings.ini', () => {
  it('should read gtk-enable-animations from the [Settings] group only', () => {
    assert.equal(enableAnimationsFromIni('[Settings]\ngtk-enable-animations=false\n'), false);
    assert.equal(enableAnimationsFromIni('[Settings]\ngtk-theme-name = Adwaita\ngtk-enable-animations = 0\n'), false);
    assert.equal(enableAnimationsFromIni('[Settings]\r\ngtk-enable-animations=true\r\n'), true);
    assert.equal(enableAnimationsFromIni('[Other]\ngtk-enable-animations=false\n'), undefined);
    assert.equal(enableAnimationsFromIni('# gtk-enable-animations=false\n[Settings]\n'), undefined);
  });

  it('should look at the person’s own files before the system’s, when no settings daemon answers', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tandem-gtk-'));
    try {
      const files = settingsIniFiles({ HOME: home, XDG_CONFIG_DIRS: '/etc/xdg' });
      assert.deepEqual(files.slice(0, 4), [
        join(home, '.config/gtk-3.0/settings.ini'),
        join(home, '.config/gtk-4.0/settings.ini'),
        '/etc/xdg/gtk-3.0/settings.ini',
        '/etc/xdg/gtk-4.0/settings.ini',
      ]);
      assert.equal(settingsIniFiles({ HOME: home, XDG_CONFIG_HOME: join(home, 'cfg') })[0], join(home, 'cfg/gtk-3.0/settings.ini'));
      // An X connection on which no XSETTINGS manager owns the selection.
      const noDaemon = { atom: async () => 1, request: async () => 0, client: {} } as unknown as X11Connection;
      const env = { HOME: home, XDG_CONFIG_DIRS: join(home, 'none') };
      assert.equal(await animationsEnabled(noDaemon, env), true, 'nothing said: animations on, as in GTK');
      mkdirSync(join(home, '.config/gtk-4.0'), { recursive: true });
      writeFileSync(join(home, '.config/gtk-4.0/settings.ini'), '[Settings]\ngtk-enable-animations=false\n');
      assert.equal(await animationsEnabled(noDaemon, env), false, 'the GTK 4 file says no');
      mkdirSync(join(home, '.config/gtk-3.0'), { recursive: true });
      writeFileSync(join(home, '.config/gtk-3.0/settings.ini'), '[Settings]\ngtk-enable-animations=true\n');
      assert.equal(await animationsEnabled(noDaemon, env), true, 'the GTK 3 file comes first');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

/**
 * The label is drawn only on X11, and its text laid out by Pango with fontconfig's fonts; sharp's
 * macOS build finds fonts another way (or not at all, with no fontconfig file), so what these
 * tests measure is the Linux overlay's layout.
 */
const labelLayoutElsewhere = process.platform !== 'linux' && 'the overlay label is drawn on X11 (Linux) only: its text layout depends on the fonts fontconfig finds there';

describe('the overlay label and frame', () => {
  it('should round the pill’s ends and keep its middle whole', () => {
    const shape = roundedRectShape(200, 40, 20);
    assert.equal(shape.reduce((rows, rect) => rows + rect.height, 0), 40, 'every row covered once');
    assert.ok(shape[0].x >= 12 && shape[0].width <= 200 - 24, `the top row is inset at the corners (${shape[0].x})`);
    const middle = shape.find((rect) => rect.y <= 20 && rect.y + rect.height > 20)!;
    assert.deepEqual([middle.x, middle.width], [0, 200], 'full width halfway down');
    assert.deepEqual(shape.at(-1), { ...shape[0], y: 39 }, 'the bottom mirrors the top');
  });

  it('should render a pill that fits its text, with the orange dot and white text on the dark pill', { skip: labelLayoutElsewhere }, async () => {
    const short = await renderLabel('Tandem is typing in Mousepad — press Esc to take back control', 1200);
    assert.equal(short.height, 40);
    assert.ok(short.width > 400 && short.width < 700, `as wide as the text (${short.width})`);
    const pixel = (x: number, y: number): number[] => [...short.rgb.subarray((y * short.width + x) * 3, (y * short.width + x) * 3 + 3)];
    assert.deepEqual(pixel(22, 20), [0xff, 0x7a, 0x1a], 'the dot');
    assert.deepEqual(pixel(short.width - 10, 20), [LABEL_COLOURS.pill.r, LABEL_COLOURS.pill.g, LABEL_COLOURS.pill.b], 'the pill');
    let white = 0;
    for (let i = 0; i < short.rgb.length; i += 3) if (short.rgb[i] > 0xe0 && short.rgb[i + 1] > 0xe0 && short.rgb[i + 2] > 0xe0) white++;
    assert.ok(white > 300, `text is drawn (${white} white pixels)`);
  });

  it('should wrap a text too long for the monitor instead of running off it', { skip: labelLayoutElsewhere }, async () => {
    const text = `Tandem is typing in ${'Very Long Window Title '.repeat(4)}— press Esc to take back control`;
    const label = await renderLabel(text, 500);
    assert.ok(label.width <= 500, `fits (${label.width})`);
    assert.ok(label.height > 40, `on more lines (${label.height})`);
  });

  it('should pack colours for the screen’s visual and lay four strips around each monitor', () => {
    assert.equal(packPixel({ red: 0xff0000, green: 0xff00, blue: 0xff }, { r: 0xff, g: 0x7a, b: 0x1a }), 0xff7a1a);
    assert.equal(packPixel({ red: 0xff, green: 0xff00, blue: 0xff0000 }, { r: 0xff, g: 0x7a, b: 0x1a }), 0x1a7aff);
    assert.equal(packPixel({ red: 0x3ff00000, green: 0xffc00, blue: 0x3ff }, { r: 0xff, g: 0, b: 0 }), 0x3fc00000, '10 bits a channel');
    assert.deepEqual([...zPixmap({ width: 1, height: 1, rgb: Buffer.from([1, 2, 3]) }, { red: 0xff0000, green: 0xff00, blue: 0xff })], [3, 2, 1, 0]);
    const strips = stripRects({ x: 1920, y: 0, width: 1280, height: 1024 });
    assert.equal(strips.length, 4);
    const covers = (x: number, y: number): boolean => strips.some((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height);
    assert.ok(covers(1920, 500) && covers(3199, 500) && covers(2500, 0) && covers(2500, 1023), 'every edge');
    assert.ok(!covers(2500, 500) && !covers(1919, 500), 'nothing inside, nothing on the next monitor');
  });
});
