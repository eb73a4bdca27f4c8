// The overlay `tandem mcp --direct` draws itself while it holds the person's input: checked in
// full-screen captures the test takes on its own X connection (what the person sees), not in
// Tandem's own screenshots. The frame must be there during an action, gone after success, Esc,
// the watchdog and kill -9; it must never take focus nor catch a click; and Tandem's own window
// screenshot must not show it.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { X11Connection } from '../../native/linux/x11Connection.js';
import { FixtureApp, McpSession, REPO_ROOT, activeWindowPid, delay, eventually, findElement, type ToolResult } from '../support/e2eHarness.js';
import { captureScreen, isOrange, pixelAt, savePng, type ScreenImage } from '../support/screenCapture.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';

/** The middle of each screen edge: where the frame's four strips run. */
function edgePixels(image: ScreenImage): Array<[number, number, number]> {
  const { width, height } = image;
  return [pixelAt(image, Math.round(width / 2), 2), pixelAt(image, Math.round(width / 2), height - 3), pixelAt(image, 2, Math.round(height / 2)), pixelAt(image, width - 3, Math.round(height / 2))];
}

function frameShown(image: ScreenImage): boolean {
  return edgePixels(image).every(isOrange);
}

function frameGone(image: ScreenImage): boolean {
  return edgePixels(image).every((pixel) => !isOrange(pixel));
}

/** The label: a dark pill at the top centre with light text on it. */
function labelShown(image: ScreenImage): boolean {
  let dark = 0;
  let light = 0;
  for (let x = Math.round(image.width / 2) - 200; x < Math.round(image.width / 2) + 200; x += 2) {
    for (let y = 16; y < 52; y += 2) {
      const [r, g, b] = pixelAt(image, x, y);
      if (r < 0x30 && g < 0x30 && b < 0x30) dark++;
      if (r > 0xd0 && g > 0xd0 && b > 0xd0) light++;
    }
  }
  return dark > 500 && light > 30;
}

describe('the overlay the server draws on X11 while it holds input', { timeout: 240_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;
  let human: SimulatedHuman;
  const outputDir = join(REPO_ROOT, 'test-output', 'screenshots');

  /** Starts a call that keeps the guard up for `ms` (a wait step after typing into the entry). */
  const longCall = (session: McpSession, ms = 2_000): Promise<ToolResult> =>
    session.call('click_and_traverse', { pid: fixture.pid, element: 'Name entry', text: 'x', steps: [{ action: 'wait', ms }] });

  /** The screen rectangle the call's screenshot covers: the fixture window's frame, from the tree file. */
  const windowBounds = async (result: ToolResult): Promise<{ x: number; y: number; width: number; height: number }> => {
    const { info } = await sharp(result.structured.screenshot as string).raw().toBuffer({ resolveWithObject: true });
    const tree = (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
    const frame = findElement(tree, 'Tandem Fixture', 'frame');
    // The capture includes the window manager's decorations: anchor it at the frame's bottom-right.
    return { x: frame.x + frame.width - info.width, y: frame.y + frame.height - info.height, width: info.width, height: info.height };
  };

  /** Resolves once the frame is on screen (the call's guard is up). */
  const frameUp = (): Promise<ScreenImage> => eventually(async () => {
    const image = await captureScreen(desktop.display);
    return frameShown(image) ? image : undefined;
  }, 10_000, 'the frame on screen');

  const noFrameWithin = async (ms: number, what: string): Promise<void> => {
    const started = Date.now();
    await eventually(async () => (frameGone(await captureScreen(desktop.display)) ? true : undefined), ms, `no frame within ${ms} ms of ${what}`);
    assert.ok(Date.now() - started <= ms + 50);
  };

  before(async () => {
    ensureDesktopPackages();
    mkdirSync(outputDir, { recursive: true });
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
    fixture = await FixtureApp.start(desktop);
    human = await SimulatedHuman.connect(desktop.display);
    await server.callOk('refresh_traversal', { pid: fixture.pid });
  });

  after(async () => {
    await human?.close();
    await server?.close();
    await desktop?.stop();
  });

  test('should show the frame on every edge and the label while the call holds input, without taking focus', async () => {
    assert.ok(frameGone(await captureScreen(desktop.display)), 'no frame before the call');
    const call = longCall(server);
    const image = await frameUp();
    assert.ok(labelShown(image), 'the label says what is happening');
    await savePng(image, join(outputDir, 'x11-overlay.png'));
    assert.equal(await activeWindowPid(desktop), fixture.pid, 'the app being driven keeps the focus');
    const result = await call;
    assert.equal(result.isError, false, result.text);
    // The entry still has the keyboard focus after the call: the overlay never took it.
    const tree = (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
    const { readFileSync } = await import('node:fs');
    assert.match(readFileSync(tree, 'utf8'), /^\[Text\] "Name entry" value:"[^"]*".* focused/m);
  });

  test('should be gone after a successful call once the guard has let go (the late-Esc grace period)', async () => {
    const call = longCall(server, 500);
    await frameUp();
    await call;
    await noFrameWithin(300, 'the answer (200 ms grace included)');
  });

  test('should let a click aimed under the label reach the window there', async () => {
    // A window whose Poke button sits right under the label, at the top of the screen.
    const helper = await FixtureApp.start(desktop, ['--helper', '--at', '560,0']);
    try {
      const pokesBefore = helper.eventsNamed('poked').length;
      const result = await server.call('click_and_traverse', { pid: helper.pid, element: 'Poke', role: 'button' });
      assert.equal(result.isError, false, result.text);
      await helper.waitForEvent(() => helper.eventsNamed('poked').length > pokesBefore, 5_000);
      const clicked = /at (\d+),(\d+)/.exec((result.structured.steps as string[])[0]);
      assert.ok(clicked && Number(clicked[2]) < 56, `the click was under the label (${clicked?.[0]})`);
    } finally {
      await helper.stop();
    }
  });

  test('should not appear in Tandem’s own screenshot of the window', async () => {
    // The label lies over the fixture window's title bar: the person sees it there, the window's
    // own screenshot must not (its only orange is the click's crosshair, inside the window).
    const call = longCall(server, 300);
    await frameUp();
    const onScreen = await captureScreen(desktop.display);
    const result = await call;
    const bounds = await windowBounds(result);
    const pill = (rgb: [number, number, number]): boolean => rgb[0] === 0x1c && rgb[1] === 0x1c && rgb[2] === 0x1e;
    const { data, info } = await sharp(result.structured.screenshot as string).raw().toBuffer({ resolveWithObject: true });
    let seenOnScreen = 0;
    let inArtifact = 0;
    for (let y = Math.max(bounds.y, 16); y < Math.min(bounds.y + bounds.height, 52); y++) {
      for (let x = bounds.x; x < bounds.x + bounds.width; x++) {
        if (pill(pixelAt(onScreen, x, y))) seenOnScreen++;
        const at = ((y - bounds.y) * info.width + (x - bounds.x)) * info.channels;
        if (pill([data[at], data[at + 1], data[at + 2]])) inArtifact++;
      }
    }
    assert.ok(seenOnScreen > 100, `the label covers part of the window on screen (${seenOnScreen} pixels)`);
    assert.equal(inArtifact, 0, 'and none of it is in the artifact');
    await delay(300);
  });

  test('should be gone within 100 ms of Esc', async () => {
    const call = longCall(server, 4_000);
    await frameUp();
    await human.pressKey('Escape');
    await noFrameWithin(100, 'Esc');
    const result = await call;
    assert.equal(result.structured.status, 'cancelled', result.text);
    await delay(300);
  });

  test('should be gone within 100 ms of the watchdog', async () => {
    const impatient = await McpSession.start(desktop, { env: { TANDEM_WATCHDOG_MS: '1500' } });
    try {
      // The app hangs 5 s on this click: the call outlives its 1.5 s watchdog.
      const call = impatient.call('click_and_traverse', { pid: fixture.pid, element: 'Slow action', role: 'button', steps: [{ action: 'wait', ms: 1_400 }] });
      await frameUp();
      const result = await call;
      assert.equal(result.structured.status, 'watchdog', result.text);
      await noFrameWithin(100, 'the watchdog answer');
      await fixture.waitForEvent((event) => event.event === 'slow-done', 10_000);
    } finally {
      await impatient.close();
    }
  });

  test('should stay still when the pulse is turned off, and pulse otherwise', async () => {
    const colours = async (session: McpSession): Promise<Set<string>> => {
      const call = longCall(session, 2_000);
      await frameUp();
      const seen = new Set<string>();
      for (let i = 0; i < 8; i++) {
        seen.add(pixelAt(await captureScreen(desktop.display), 2, 400).join(','));
        await delay(90);
      }
      await call;
      await delay(300);
      return seen;
    };
    assert.ok((await colours(server)).size > 1, 'the frame pulses by default');
    const still = await McpSession.start(desktop, { env: { TANDEM_OVERLAY_PULSE: 'off' } });
    try {
      assert.deepEqual([...(await colours(still))], ['255,122,26'], 'one steady orange');
    } finally {
      await still.close();
    }
  });

  test('should follow the desktop’s reduced-motion setting (XSETTINGS Gtk/EnableAnimations = 0)', async () => {
    // A stand-in settings daemon: owns _XSETTINGS_S0 and publishes one setting.
    const daemon = await X11Connection.open(desktop.display);
    try {
      const window = daemon.client.AllocID();
      daemon.client.CreateWindow(window, daemon.root, -10, -10, 1, 1, 0, 0, 1, 0, {});
      const name = Buffer.from('Gtk/EnableAnimations');
      const settings = Buffer.alloc(12 + 4 + 20 + 4 + 4);
      settings.writeUInt8(0, 0); // LSBFirst
      settings.writeUInt32LE(1, 4); // serial
      settings.writeUInt32LE(1, 8); // one setting
      settings.writeUInt8(0, 12); // integer
      settings.writeUInt16LE(name.length, 14);
      name.copy(settings, 16);
      settings.writeUInt32LE(0, 36); // last change serial
      settings.writeInt32LE(0, 40); // value: animations off
      const [selection, property] = await Promise.all([daemon.atom('_XSETTINGS_S0'), daemon.atom('_XSETTINGS_SETTINGS')]);
      daemon.client.ChangeProperty(0, window, property, property, 8, settings);
      daemon.client.SetSelectionOwner(window, selection, 0);
      await daemon.sync();
      const calm = await McpSession.start(desktop);
      try {
        const call = longCall(calm, 1_500);
        await frameUp();
        const seen = new Set<string>();
        for (let i = 0; i < 8; i++) {
          seen.add(pixelAt(await captureScreen(desktop.display), 2, 400).join(','));
          await delay(90);
        }
        await call;
        assert.deepEqual([...seen], ['255,122,26'], 'no pulse under reduced motion; the frame and label stay');
      } finally {
        await calm.close();
      }
    } finally {
      await daemon.close();
    }
    await delay(300);
  });

  // Last: it kills its server.
  test('should be gone within 100 ms of kill -9 of the server', async () => {
    const doomed = await McpSession.start(desktop);
    const call = longCall(doomed, 4_000).catch(() => undefined);
    await frameUp();
    process.kill(doomed.pid, 'SIGKILL');
    await noFrameWithin(100, 'kill -9');
    await call;
    await doomed.close();
  });
});
