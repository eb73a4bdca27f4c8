// The overlay `tandem mcp --direct` draws itself while it holds the person's input, checked in
// full-screen captures the test takes on its own X connection (what the person sees), never in
// Tandem's own screenshots. The frame and label must be there during an action, on every
// monitor; gone within 100 ms after success (once the late-Esc grace period is over), Esc, the
// watchdog, the client's cancel and kill -9; they must never take the focus nor catch a click;
// Tandem's own window screenshot must not show them; the pulse follows the desktop's
// reduced-motion setting and the TANDEM_OVERLAY_PULSE setting.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { X11Connection } from '../../native/linux/x11Connection.js';
import { parseMonitors, rrDeleteMonitorRequest, rrGetMonitorsRequest, rrSetMonitorRequest } from '../../native/linux/randrRequests.js';
import { FixtureApp, McpSession, REPO_ROOT, activeWindowPid, delay, eventually, findElement, type ToolResult } from '../support/e2eHarness.js';
import { captureScreen, isOrange, pixelAt, savePng, type ScreenImage } from '../support/screenCapture.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';

const FRAME_ORANGE = '255,122,26';

/** The middle of each edge of `area`, a few pixels in: where the frame's four strips run. */
function edgePixels(image: ScreenImage, area = { x: 0, y: 0, width: image.width, height: image.height }): Array<[number, number, number]> {
  const { x, y, width, height } = area;
  const midX = x + Math.round(width / 2);
  const midY = y + Math.round(height / 2);
  return [pixelAt(image, midX, y + 2), pixelAt(image, midX, y + height - 3), pixelAt(image, x + 2, midY), pixelAt(image, x + width - 3, midY)];
}

function frameShown(image: ScreenImage, area?: { x: number; y: number; width: number; height: number }): boolean {
  return edgePixels(image, area).every(isOrange);
}

function frameGone(image: ScreenImage): boolean {
  return edgePixels(image).every((pixel) => !isOrange(pixel));
}

/** A label at the top centre of `area`: dark pill pixels with light text on them. */
function labelShown(image: ScreenImage, area = { x: 0, width: image.width }): boolean {
  let dark = 0;
  let light = 0;
  const centre = area.x + Math.round(area.width / 2);
  for (let x = Math.max(area.x, centre - 200); x < Math.min(area.x + area.width, centre + 200); x += 2) {
    for (let y = 16; y < 52; y += 2) {
      const [r, g, b] = pixelAt(image, x, y);
      if (r === 0x1c && g === 0x1c && b === 0x1e) dark++;
      if (r > 0xd0 && g > 0xd0 && b > 0xd0) light++;
    }
  }
  return dark > 500 && light > 30;
}

/**
 * A stand-in settings daemon: owns _XSETTINGS_S0 and publishes Gtk/EnableAnimations, as GNOME's,
 * Xfce's or MATE's settings daemon does when the person turns animations off (or on).
 */
async function settingsDaemon(display: string, enableAnimations: boolean): Promise<{ set(enable: boolean): Promise<void>; close(): Promise<void> }> {
  const connection = await X11Connection.open(display);
  const window = connection.client.AllocID();
  connection.client.CreateWindow(window, connection.root, -10, -10, 1, 1, 0, 0, 1, 0, {});
  const [selection, property] = await Promise.all([connection.atom('_XSETTINGS_S0'), connection.atom('_XSETTINGS_SETTINGS')]);
  let serial = 0;
  const publish = async (enable: boolean): Promise<void> => {
    const name = Buffer.from('Gtk/EnableAnimations');
    const settings = Buffer.alloc(12 + 4 + 20 + 4 + 4);
    settings.writeUInt8(0, 0); // LSBFirst
    settings.writeUInt32LE(++serial, 4);
    settings.writeUInt32LE(1, 8); // one setting
    settings.writeUInt8(0, 12); // an integer
    settings.writeUInt16LE(name.length, 14);
    name.copy(settings, 16);
    settings.writeUInt32LE(serial, 36); // last change serial
    settings.writeInt32LE(enable ? 1 : 0, 40);
    connection.client.ChangeProperty(0, window, property, property, 8, settings);
    await connection.sync();
  };
  await publish(enableAnimations);
  connection.client.SetSelectionOwner(window, selection, 0);
  await connection.sync();
  return { set: publish, close: () => connection.close() };
}

describe('the overlay the server draws on X11 while it holds input', { timeout: 300_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  /** A second server that only reads (no guard, no overlay): the app's AT-SPI state during a call. */
  let observer: McpSession;
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
  const frameUp = (): Promise<ScreenImage> =>
    eventually(async () => {
      const image = await captureScreen(desktop.display);
      return frameShown(image) ? image : undefined;
    }, 10_000, 'the frame on screen');

  /** Resolves once the frame and the label are both on screen (the label follows its frame by the few ms a new text takes to render). */
  const overlayUp = (): Promise<ScreenImage> =>
    eventually(async () => {
      const image = await captureScreen(desktop.display);
      return frameShown(image) && labelShown(image) ? image : undefined;
    }, 10_000, 'the frame and the label on screen');

  const noFrameWithin = async (ms: number, what: string): Promise<void> => {
    const started = Date.now();
    await eventually(async () => (frameGone(await captureScreen(desktop.display)) ? true : undefined), ms, `no frame within ${ms} ms of ${what}`);
    assert.ok(Date.now() - started <= ms + 50);
  };

  /** The colours the left edge shows over ~0.9 s of a call that holds the guard. */
  const edgeColours = async (session: McpSession): Promise<string[]> => {
    const call = longCall(session, 2_000);
    await frameUp();
    const seen = new Set<string>();
    for (let i = 0; i < 9; i++) {
      seen.add(pixelAt(await captureScreen(desktop.display), 2, 400).join(','));
      await delay(100);
    }
    await call;
    await delay(300);
    return [...seen];
  };

  before(async () => {
    ensureDesktopPackages();
    mkdirSync(outputDir, { recursive: true });
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
    observer = await McpSession.start(desktop);
    fixture = await FixtureApp.start(desktop);
    human = await SimulatedHuman.connect(desktop.display);
    await server.callOk('refresh_traversal', { pid: fixture.pid });
  });

  after(async () => {
    await human?.close();
    await observer?.close();
    await server?.close();
    await desktop?.stop();
  });

  test('should show the frame on every edge and the label while the call holds input, and leave the app its focus throughout', async () => {
    assert.ok(frameGone(await captureScreen(desktop.display)), 'no frame before the call');
    const focusEventsBefore = fixture.eventsNamed('window-focus').length;
    const call = longCall(server, 2_500);
    const image = await overlayUp();
    await savePng(image, join(outputDir, 'x11-overlay-fixture.png'));

    // Sampled all through the call, by probes independent of the acting server: the window
    // manager's active window, and the entry's focused state on the accessibility bus.
    let samples = 0;
    let settled = false;
    void call.finally(() => (settled = true));
    while (!settled) {
      assert.equal(await activeWindowPid(desktop), fixture.pid, 'the app being driven stays the active window');
      const tree = readFileSync((await observer.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string, 'utf8');
      if (!settled) {
        assert.match(tree, /^#\d+ \[Text\] "Name entry".* focused/m, 'the entry keeps the keyboard focus');
        samples++;
      }
      await delay(150);
    }
    const result = await call;
    assert.equal(result.isError, false, result.text);
    assert.ok(samples >= 3, `focus sampled during the call (${samples} times)`);
    assert.deepEqual(fixture.eventsNamed('window-focus').slice(focusEventsBefore).filter((event) => event.focused === false), [], 'the app never saw its window lose focus');
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
      assert.ok(clicked && Number(clicked[2]) >= 14 && Number(clicked[2]) < 54, `the click was under the label (${clicked?.[0]})`);
    } finally {
      await helper.stop();
    }
  });

  test('should not appear in Tandem’s own screenshot of the window', async () => {
    // The label lies over the fixture window's title bar: the person sees it there, the window's
    // own screenshot must not (its only orange is the click's crosshair, inside the window).
    const call = longCall(server, 1_000);
    const onScreen = await overlayUp();
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

  test('should be gone within 100 ms of the client cancelling the call', async () => {
    const controller = new AbortController();
    const call = server.client.callTool(
      { name: 'click_and_traverse', arguments: { pid: fixture.pid, element: 'Name entry', text: 'x', steps: [{ action: 'wait', ms: 4_000 }] } },
      undefined,
      { signal: controller.signal, timeout: 30_000 },
    );
    const settled = call.then(() => 'answered', () => 'rejected');
    await frameUp();
    controller.abort();
    await noFrameWithin(100, 'the cancel');
    assert.equal(await settled, 'rejected', 'the client gave up on the call');
    // The server runs one action at a time: once a read has answered, the cancelled call is over.
    await server.callOk('refresh_traversal', { pid: fixture.pid });
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

  test('should frame every monitor and label each, and follow the monitors from one call to the next', async () => {
    const rr = await X11Connection.open(desktop.display);
    const randr = await rr.request<{ majorOpcode: number }>((callback) => rr.client.QueryExtension('RANDR', callback));
    const names = await Promise.all([rr.atom('TANDEM-TEST-LEFT'), rr.atom('TANDEM-TEST-RIGHT')]);
    const left = { x: 0, y: 0, width: 640, height: desktop.height };
    const right = { x: 640, y: 0, width: 640, height: desktop.height };
    try {
      // Two monitors side by side on the one Xvfb output, as a desktop splitting a wide screen does.
      const [whole] = await rr.requestRaw(rrGetMonitorsRequest(randr.majorOpcode, rr.root), parseMonitors);
      rr.sendRaw(rrSetMonitorRequest(randr.majorOpcode, rr.root, { name: names[0], primary: true, ...left, outputs: whole.outputs }));
      rr.sendRaw(rrSetMonitorRequest(randr.majorOpcode, rr.root, { name: names[1], primary: false, ...right }));
      await rr.sync();
      const call = longCall(server, 1_500);
      const image = await eventually(async () => {
        const shot = await captureScreen(desktop.display);
        return frameShown(shot, left) && frameShown(shot, right) && labelShown(shot, left) && labelShown(shot, right) ? shot : undefined;
      }, 10_000, 'a frame and a label on each monitor');
      assert.ok(isOrange(pixelAt(image, 637, 400)) && isOrange(pixelAt(image, 642, 400)), 'both frames run along the edge the monitors share');
      await savePng(image, join(outputDir, 'x11-overlay-two-monitors.png'));
      await call;
      await delay(300);
    } finally {
      for (const name of names) rr.sendRaw(rrDeleteMonitorRequest(randr.majorOpcode, rr.root, name));
      await rr.sync();
      await rr.close();
    }
    // Back to one monitor: the next call's frame has no edge down the middle.
    const call = longCall(server, 800);
    const image = await frameUp();
    assert.ok(!isOrange(pixelAt(image, 637, 400)) && !isOrange(pixelAt(image, 642, 400)), 'no frame where the monitors met');
    await call;
    await delay(300);
  });

  test('should pulse only when the desktop allows animations and the setting does not turn it off', async () => {
    // This desktop has no settings daemon, and GTK's settings.ini asks for no animations
    // (scripts/lib/virtualDesktop.ts writes gtk-enable-animations=false): a steady frame.
    assert.deepEqual(await edgeColours(server), [FRAME_ORANGE], 'settings.ini: reduced motion');
    const daemon = await settingsDaemon(desktop.display, true);
    try {
      // The running daemon's XSETTINGS outrank settings.ini, as for GTK apps; read at each call.
      assert.ok((await edgeColours(server)).length > 1, 'the daemon allows animations: the frame pulses');
      const still = await McpSession.start(desktop, { env: { TANDEM_OVERLAY_PULSE: 'off' } });
      try {
        assert.deepEqual(await edgeColours(still), [FRAME_ORANGE], 'TANDEM_OVERLAY_PULSE=off: steady, whatever the desktop says');
        // The label stays.
        const call = longCall(still, 800);
        await overlayUp();
        await call;
      } finally {
        await still.close();
      }
      await daemon.set(false);
      assert.deepEqual(await edgeColours(server), [FRAME_ORANGE], 'the person turns animations off: the next call is steady');
    } finally {
      await daemon.close();
    }
    await delay(300);
  });

  test('should say what it is doing in which app (a real app: typing in Mousepad)', async () => {
    const mousepad = (await server.callOk('open_application_and_traverse', { identifier: 'mousepad' })).structured;
    const pid = Number(mousepad.pid);
    const text = 'The overlay says what Tandem is doing and that Esc gives control back.\n'.repeat(40);
    const call = server.call('type_and_traverse', { pid, text });
    await overlayUp();
    // A moment later, with some of the text in the window, for the figure.
    await delay(700);
    const image = await captureScreen(desktop.display);
    assert.ok(frameShown(image) && labelShown(image), 'still up while typing');
    // The figure in the README: docs/ only on purpose (TANDEM_UPDATE_DOC_SCREENSHOTS=1 npm test).
    const dir = process.env.TANDEM_UPDATE_DOC_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'screenshots') : outputDir;
    await savePng(image, join(dir, 'x11-overlay.png'));
    const result = await call;
    assert.equal(result.isError, false, result.text);
    await delay(300);
    process.kill(pid, 'SIGTERM');
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
