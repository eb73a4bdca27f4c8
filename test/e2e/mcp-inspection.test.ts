// The read-only inspection tools through a real MCP client on the virtual desktop, checked
// against what the X server itself says (xprop, a pointer query of another process): windows
// frontmost first with the active one at z:0, a minimised window off screen, the pointer where
// the person put it, and the environment's checks — all without engaging the guard.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, SYSTEM_PYTHON, activeWindowPid, eventually, pointerPosition, startDesktopSession, stopDesktopSession } from '../support/e2eHarness.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';
import { X11Connection } from '../../native/linux/x11Connection.js';
import { parseMonitors, rrDeleteMonitorRequest, rrGetMonitorsRequest, rrSetMonitorRequest } from '../../native/linux/randrRequests.js';

const run = promisify(execFile);

interface ListedWindow {
  window_id: number;
  pid: number;
  app: string;
  title: string;
  bounds: { x: number; y: number; width: number; height: number } | null;
  z_order?: number;
  on_screen?: boolean;
}

describe('inspection tools on a real desktop', { timeout: 120_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;
  let human: SimulatedHuman;

  const windows = async (args: Record<string, unknown> = {}): Promise<ListedWindow[]> => (await server.callOk('list_windows', args)).structured.windows as ListedWindow[];

  before(async () => {
    ({ desktop, server, fixture } = await startDesktopSession());
    human = await SimulatedHuman.connect(desktop.display);
  });
  after(async () => {
    await human?.close();
    await stopDesktopSession({ desktop, server });
  });

  test('should list the windows frontmost first, the active one at z:0, with the title the X server holds', async () => {
    const listed = await windows();
    const ours = listed.find((window) => window.pid === fixture.pid);
    assert.ok(ours, `the fixture's window is listed: ${JSON.stringify(listed)}`);
    const { stdout } = await run('xprop', ['-id', String(ours.window_id), '_NET_WM_NAME'], { env: desktop.env });
    assert.equal(`_NET_WM_NAME(UTF8_STRING) = "${ours.title}"`, stdout.trim());
    assert.equal(listed[0].z_order, 0);
    assert.equal(listed[0].pid, await activeWindowPid(desktop), 'z:0 is the window the window manager has active');
    assert.ok(ours.bounds && ours.bounds.width > 100 && ours.bounds.height > 100 && ours.on_screen === true);
  });

  test('should put a newly opened app in front, and show it off screen once minimised', async () => {
    const opened = await server.callOk('open_application_and_traverse', { identifier: 'mousepad' });
    const pid = opened.structured.pid as number;
    const front = await eventually(async () => {
      const listed = await windows();
      return listed[0]?.pid === pid ? listed : undefined;
    }, 5_000, 'mousepad at z:0');
    assert.ok(front.findIndex((window) => window.pid === fixture.pid) > 0, 'the fixture behind it');
    const [mousepad] = await windows({ pid });
    assert.equal(mousepad.app, 'mousepad');
    // Minimised by another X client, as a person would from a panel.
    const iconify = `import gi\ngi.require_version("Gdk", "3.0")\ngi.require_version("GdkX11", "3.0")\nfrom gi.repository import Gdk, GdkX11\nw = GdkX11.X11Window.foreign_new_for_display(Gdk.Display.get_default(), ${mousepad.window_id})\nw.iconify()\nGdk.Display.get_default().flush()`;
    await run(SYSTEM_PYTHON, ['-c', iconify], { env: desktop.env });
    await eventually(async () => ((await windows({ pid }))[0]?.on_screen === false ? true : undefined), 5_000, 'mousepad off screen');
    assert.deepEqual(await windows({ pid, on_screen_only: true }), [], 'on_screen_only leaves it out');
    assert.ok((await windows({ on_screen_only: true })).some((window) => window.pid === fixture.pid), 'the fixture is still on screen');
  });

  test('should say where the person left the pointer, as the X server says', async () => {
    await human.moveTo(321, 234);
    const result = await server.callOk('get_cursor_position', {});
    assert.deepEqual(result.structured, await pointerPosition(desktop));
    assert.deepEqual(result.structured, { x: 321, y: 234 });
  });

  test('should find everything in place on the virtual desktop, and hold nobody\'s input to say so', async () => {
    const result = await server.callOk('check_permissions', {});
    const checks = result.structured.checks as Array<{ id: string; state: string }>;
    for (const id of ['display', 'xtest', 'xinput', 'atspi-bus']) assert.equal(checks.find((check) => check.id === id)?.state, 'granted', `${id}: ${JSON.stringify(checks)}`);
    assert.ok(!('human_input_blocked' in result.structured));
  });

  test('should give the display size, and each monitor once the screen is split in two (RandR monitors), primary first', async () => {
    type Listed = { displays: Array<{ bounds: { x: number; y: number; width: number; height: number }; scale: number; primary: boolean }> };
    const one = (await server.callOk('get_screen_size', {})).structured as Listed;
    assert.deepEqual(one.displays.map(({ bounds, scale }) => [bounds, scale]), [[{ x: 0, y: 0, width: desktop.width, height: desktop.height }, 1]]);
    const rr = await X11Connection.open(desktop.display);
    const randr = await rr.request<{ majorOpcode: number }>((callback) => rr.client.QueryExtension('RANDR', callback));
    const names = await Promise.all([rr.atom('TANDEM-SIZE-LEFT'), rr.atom('TANDEM-SIZE-RIGHT')]);
    const half = Math.floor(desktop.width / 2);
    try {
      const [whole] = await rr.requestRaw(rrGetMonitorsRequest(randr.majorOpcode, rr.root), parseMonitors);
      rr.sendRaw(rrSetMonitorRequest(randr.majorOpcode, rr.root, { name: names[1], primary: false, x: half, y: 0, width: desktop.width - half, height: desktop.height }));
      rr.sendRaw(rrSetMonitorRequest(randr.majorOpcode, rr.root, { name: names[0], primary: true, x: 0, y: 0, width: half, height: desktop.height, outputs: whole.outputs }));
      await rr.sync();
      const two = (await server.callOk('get_screen_size', {})).structured as Listed;
      assert.deepEqual(
        two.displays.map(({ bounds, primary }) => [bounds.x, bounds.width, primary]),
        [
          [0, half, true],
          [half, desktop.width - half, false],
        ],
      );
    } finally {
      for (const name of names) rr.sendRaw(rrDeleteMonitorRequest(randr.majorOpcode, rr.root, name));
      await rr.sync();
      await rr.close();
    }
  });
});
