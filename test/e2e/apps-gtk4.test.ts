// The driver tools on a GTK 4 app (test/fixtures/tandem_gtk4_fixture.py) through a real MCP
// client, each checked through what the app itself printed: GTK 4 has its own accessibility layer
// (no ATK), window-relative extents in 4.8 and gesture-based widgets, so the GTK 3 suite proves
// nothing about it. One scenario per tool, in one session.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { CpuLoad } from '../support/cpuLoad.js';
import { FixtureApp, McpSession, REPO_ROOT, activeWindowPid, eventually } from '../support/e2eHarness.js';

const GTK4_TYPELIB = '/usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-4.0.typelib';
const GTK4_FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'tandem_gtk4_fixture.py');

interface Tagged {
  index: number;
  line: string;
}

// Once on a quiet machine and once with both cores loaded by other processes.
for (const loaded of [false, true]) {
  describe(`driver tools on a GTK 4 app${loaded ? ', both cores loaded' : ''}`, { skip: !existsSync(GTK4_TYPELIB) && 'gir1.2-gtk-4.0 is not installed', timeout: 180_000 }, () => {
    let desktop: VirtualDesktop;
    let server: McpSession;
    let app: FixtureApp;
    let load: CpuLoad | undefined;

    before(async () => {
      ensureDesktopPackages();
      if (loaded) load = CpuLoad.start();
      desktop = await startVirtualDesktop();
      server = await McpSession.start(desktop);
      app = await FixtureApp.start(desktop, [], GTK4_FIXTURE);
      // The window maps before GTK 4 has put its widgets on the accessibility bus.
      await eventually(async () => ((await elements('Clicks:')).length ? true : undefined), 15_000, 'the GTK 4 button on the bus');
    });
    after(async () => {
      load?.stop();
      await server?.close();
      await desktop?.stop();
    });

    /** get_window_state's tagged lines for a query: what a model reads to pick an element_index. */
    async function elements(query: string): Promise<Tagged[]> {
      const state = await server.client.callTool({ name: 'get_window_state', arguments: { pid: app.pid, query } });
      const texts = (state.content as Array<{ type: string; text?: string }>).filter((item) => item.type === 'text').map((item) => item.text ?? '');
      return texts
        .join('\n')
        .split('\n')
        .flatMap((line) => {
          const tagged = /^#(\d+) (.*)$/.exec(line);
          return tagged ? [{ index: Number(tagged[1]), line: tagged[2] }] : [];
        });
    }

    async function only(query: string, role: string): Promise<Tagged> {
      const found = (await elements(query)).filter((element) => element.line.startsWith(`[${role}]`));
      assert.ok(found.length >= 1, `no [${role}] for "${query}"`);
      return found[0];
    }

    test('get_window_state tags the button, and click by its element_index presses it', async () => {
      const button = await only('Clicks:', 'PushButton');
      const result = await server.callOk('click', { pid: app.pid, element_index: button.index });
      await app.waitForEvent((event) => event.event === 'count' && event.value === 1);
      // GTK 4 exposes the button's own label as a child: both lines change.
      assert.deepEqual((result.structured.text_changes as Array<{ role: string }>).find((change) => change.role === 'PushButton'), { role: 'PushButton', before: 'Clicks: 0', after: 'Clicks: 1' });
    });

    test('typing into the labelled entry, then a hotkey selecting all so the next typing replaces it', async () => {
      await server.callOk('click_and_traverse', { pid: app.pid, element: 'Note', role: 'Text', text: 'hello gtk4' });
      await app.waitForEvent((event) => event.event === 'note' && event.text === 'hello gtk4');
      await server.callOk('run_steps', { pid: app.pid, steps: [{ action: 'hotkey', keys: ['ctrl', 'a'] }, { action: 'type', text: 'replaced' }] });
      await app.waitForEvent((event) => event.event === 'note' && event.text === 'replaced');
      assert.equal(app.eventsNamed('note').at(-1)?.text, 'replaced');
    });

    test('hotkey with three keys reaches the window shortcut', async () => {
      await server.callOk('hotkey', { pid: app.pid, keys: ['ctrl', 'shift', 't'] });
      await app.waitForEvent((event) => event.event === 'shortcut');
    });

    test('double_click and right_click on a gesture label are seen by the app as such', async () => {
      const target = await only('Double-click me', 'Label');
      await server.callOk('double_click', { pid: app.pid, element_index: target.index });
      await app.waitForEvent((event) => event.event === 'double');
      await server.callOk('right_click', { pid: app.pid, element_index: target.index });
      await app.waitForEvent((event) => event.event === 'right');
    });

    test('scroll over a row of the list moves the list down', async () => {
      const row = await only('Row 2', 'Label');
      await server.callOk('scroll', { pid: app.pid, element_index: row.index, direction: 'down', amount: 5 });
      const scrolled = await app.waitForEvent((event) => event.event === 'scrolled' && Number(event.value) > 0);
      assert.ok(Number(scrolled.value) > 0, `the list scrolled to ${String(scrolled.value)}`);
    });

    test('zoom shows the button at full resolution, and a click on a pixel of it presses it', async () => {
      const [window] = (await server.callOk('list_windows', { pid: app.pid })).structured.windows as Array<{ window_id: number; bounds: { x: number; y: number } }>;
      assert.ok(window, 'list_windows names the GTK 4 window');
      const button = /x:(-?\d+) y:(-?\d+) w:(\d+) h:(\d+)/.exec((await only('Clicks:', 'PushButton')).line);
      assert.ok(button, 'the button line has its bounds');
      const [x, y, width, height] = button.slice(1).map(Number);
      const zoomed = await server.client.callTool({ name: 'zoom', arguments: { pid: app.pid, x, y, width, height } });
      const image = (zoomed.content as Array<{ type: string; data?: string }>).find((item) => item.type === 'image');
      const view = zoomed.structuredContent as { width: number; height: number };
      const meta = await sharp(Buffer.from(image?.data ?? '', 'base64')).metadata();
      assert.deepEqual([meta.width, meta.height], [view.width, view.height], 'the image is the size the answer says');
      const before = app.eventsNamed('count').length;
      await server.callOk('click', { pid: app.pid, from_zoom: true, x: Math.round(view.width / 2), y: Math.round(view.height / 2) });
      await app.waitForEvent(() => app.eventsNamed('count').length === before + 1);
    });

    test('bring_to_front puts the GTK 4 window in front, as the window manager says', async () => {
      const mousepad = (await server.callOk('open_application_and_traverse', { identifier: 'mousepad' })).structured.pid as number;
      await eventually(async () => ((await activeWindowPid(desktop)) === mousepad ? true : undefined), 5_000, 'mousepad in front');
      await server.callOk('bring_to_front', { pid: app.pid });
      await eventually(async () => ((await activeWindowPid(desktop)) === app.pid ? true : undefined), 5_000, 'the GTK 4 window in front');
    });
  });
}
