// Through a real MCP client on a virtual desktop: a click lands where the answer says, or the
// answer says it did not (issue 19 §2). The app's own words are the oracle: the targets fixture
// prints which window's button was pressed and where GTK laid out its buttons and windows; the
// real app (mousepad) is read independently through AT-SPI from Python.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { ensureDesktopPackages, startVirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, REPO_ROOT, SYSTEM_PYTHON, delay, eventually, parseTreeLines, type FixtureEvent, type TreeLine } from '../support/e2eHarness.js';

const run = promisify(execFile);
const TARGETS_FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'tandem_targets_fixture.py');

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

function centreOf(rect: Rect): { x: number; y: number } {
  return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
}

function holds(rect: Rect, point: { x: number; y: number }): boolean {
  return point.x >= rect.x && point.x < rect.x + rect.width && point.y >= rect.y && point.y < rect.y + rect.height;
}

/** The tree line of the element GTK itself placed at `rect` (the app's layout, not Tandem's word). */
function lineAt(lines: TreeLine[], text: string, rect: Rect): TreeLine {
  const found = lines.find((line) => line.text === text && Math.abs(line.x - rect.x) <= 2 && Math.abs(line.y - rect.y) <= 2);
  assert.ok(found, `no "${text}" at ${JSON.stringify(rect)} in:\n${lines.map((line) => line.line).join('\n')}`);
  return found;
}

function rectsOf(ready: FixtureEvent): Record<string, Rect> {
  return ready.rects as Record<string, Rect>;
}

describe('targets a person can reach, on real windows', { timeout: 240_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
  });
  after(async () => {
    await server?.close();
    await desktop?.stop();
  });

  async function treeLines(pid: number): Promise<TreeLine[]> {
    const result = await server.callOk('refresh_traversal', { pid });
    return parseTreeLines(readFileSync(result.structured.file as string, 'utf8'));
  }

  /** get_window_state's tagged lines for a query: what a model reads to pick an element_index. */
  async function tagged(pid: number, query: string): Promise<Array<{ index: number; line: string }>> {
    const state = await server.client.callTool({ name: 'get_window_state', arguments: { pid, query } });
    const texts = (state.content as Array<{ type: string; text?: string }>).filter((item) => item.type === 'text').map((item) => item.text ?? '');
    return texts.join('\n').split('\n').flatMap((line) => {
      const match = /^#(\d+) (.*)$/.exec(line);
      return match ? [{ index: Number(match[1]), line: match[2] }] : [];
    });
  }

  describe('a modal dialog with a "Save" over a window with a "Save"', () => {
    let app: FixtureApp;
    let rects: Record<string, Rect>;

    before(async () => {
      app = await FixtureApp.start(desktop, ['--dialog'], TARGETS_FIXTURE);
      rects = rectsOf(app.eventsNamed('ready')[0]);
    });
    after(() => app?.stop());

    test("should list the dialog first, and show the window's Save it covers as hidden", async () => {
      assert.ok(holds(rects.dialog, centreOf(rects['main-save'])), 'the app itself placed its dialog over the main Save');
      const lines = await treeLines(app.pid);
      const dialogAt = lines.findIndex((line) => line.role === 'Dialog');
      const frameAt = lines.findIndex((line) => line.role === 'Frame');
      assert.ok(dialogAt >= 0 && frameAt > dialogAt, `the dialog comes before the window it blocks:\n${lines.map((line) => line.line).join('\n')}`);
      assert.match(lineAt(lines, 'Save', rects['main-save']).line, / hidden\b/, 'the covered Save is not visible');
      assert.match(lineAt(lines, 'Save', rects['dialog-save']).line, / visible\b/);
    });

    test("should press the dialog's Save when asked for \"Save\" by name, as the app reports", async () => {
      const result = await server.callOk('click_and_traverse', { pid: app.pid, element: 'Save' });
      const pressed = await app.waitForEvent((event) => event.event === 'pressed');
      assert.equal(pressed.window, 'dialog', `the app saw its dialog's Save pressed (answer: ${result.text})`);
      await delay(300);
      assert.deepEqual(app.eventsNamed('pressed').map((event) => event.window), ['dialog'], 'and nothing else');
    });

    test("should refuse the blocked window's Save by element_index, name the dialog, and press nothing", async () => {
      const before = app.eventsNamed('pressed').length;
      const saves = await tagged(app.pid, 'Save');
      const blocked = saves.find((entry) => entry.line.includes(`x:${rects['main-save'].x} y:${rects['main-save'].y}`));
      assert.ok(blocked, `the main window's Save is tagged: ${JSON.stringify(saves)}`);
      const result = await server.call('click', { pid: app.pid, element_index: blocked.index });
      assert.ok(result.isError, `refused: ${result.text}`);
      assert.match(result.text, /blocked-by-dialog|blocks/);
      assert.match(result.text, /Tandem Save Dialog/, 'the answer names the dialog');
      await delay(500);
      assert.equal(app.eventsNamed('pressed').length, before, 'the app saw no press');
    });
  });

  describe('windows in the way and the screen edge', () => {
    let app: FixtureApp;
    let cover: FixtureApp;
    let edge: FixtureApp;

    before(async () => {
      app = await FixtureApp.start(desktop, [], TARGETS_FIXTURE);
      const save = rectsOf(app.eventsNamed('ready')[0])['main-save'];
      cover = await FixtureApp.start(desktop, ['--cover', `${save.x - 40},${save.y - 40},${save.width + 80},${save.height + 80}`], TARGETS_FIXTURE);
      edge = await FixtureApp.start(desktop, ['--edge', String(desktop.width)], TARGETS_FIXTURE);
    });
    after(async () => {
      await app?.stop();
      await cover?.stop();
      await edge?.stop();
    });

    test('should show an element under an always-on-top window of another app as hidden', async () => {
      const rects = rectsOf(app.eventsNamed('ready')[0]);
      const coverRect = rectsOf(cover.eventsNamed('ready')[0]).cover;
      assert.ok(holds(coverRect, centreOf(rects['main-save'])), 'the cover window is over the Save, by its own report');
      const lines = await treeLines(app.pid);
      assert.match(lineAt(lines, 'Save', rects['main-save']).line, / hidden\b/);
      assert.match(lines.find((line) => line.text === 'Only in the main window')!.line, / visible\b/, 'what the cover leaves free stays visible');
    });

    test('should stop a click at a point another window covers, naming that window, with nothing pressed', async () => {
      const point = centreOf(rectsOf(app.eventsNamed('ready')[0])['main-save']);
      const result = await server.call('click_and_traverse', { pid: app.pid, x: Math.round(point.x), y: Math.round(point.y) });
      assert.ok(result.isError || /status: (error|failed)/.test(result.text), `the click was stopped: ${result.text}\n${server.stderr.slice(-3000)}`);
      assert.match(result.text, /Tandem Cover/, 'the answer names the window in the way');
      await delay(500);
      assert.equal(app.eventsNamed('pressed').length, 0, 'the app saw no press');
    });

    test('should show an element past the screen edge as hidden and the one before it as visible', async () => {
      const rects = rectsOf(edge.eventsNamed('ready')[0]);
      assert.ok(centreOf(rects['edge-far']).x >= desktop.width, `the app put its far button's centre past x ${desktop.width}: ${JSON.stringify(rects['edge-far'])}`);
      assert.ok(centreOf(rects['edge-near']).x < desktop.width);
      const lines = await treeLines(edge.pid);
      assert.match(lineAt(lines, 'Beyond the edge', rects['edge-far']).line, / hidden\b/);
      assert.match(lineAt(lines, 'Near the edge', rects['edge-near']).line, / visible\b/);
    });
  });

  describe("a real app's modal dialog (mousepad's Save As)", () => {
    let pid: number;

    /** mousepad's top-level windows as AT-SPI tells a separate Python process: role, name, showing, modal. */
    async function mousepadWindows(): Promise<Array<{ role: string; name: string; showing: boolean; modal: boolean }>> {
      const script = [
        'import gi, json, sys',
        "gi.require_version('Atspi', '2.0')",
        'from gi.repository import Atspi',
        'desktop = Atspi.get_desktop(0)',
        'out = []',
        'for i in range(desktop.get_child_count()):',
        '    app = desktop.get_child_at_index(i)',
        '    if app is None or app.get_process_id() != int(sys.argv[1]): continue',
        '    for j in range(app.get_child_count()):',
        '        w = app.get_child_at_index(j)',
        '        s = w.get_state_set()',
        "        out.append({'role': w.get_role_name(), 'name': w.get_name(), 'showing': s.contains(Atspi.StateType.SHOWING), 'modal': s.contains(Atspi.StateType.MODAL)})",
        'print(json.dumps(out))',
      ].join('\n');
      const { stdout } = await run(SYSTEM_PYTHON, ['-c', script, String(pid)], { env: desktop.env });
      return JSON.parse(stdout) as Array<{ role: string; name: string; showing: boolean; modal: boolean }>;
    }

    before(async () => {
      const opened = await server.callOk('open_application_and_traverse', { identifier: 'mousepad' });
      pid = Number(opened.structured.pid);
      await server.callOk('hotkey', { pid, keys: ['ctrl', 'shift', 's'] });
      let seen: unknown;
      await eventually(async () => {
        seen = await mousepadWindows();
        return (seen as Array<{ showing: boolean; modal: boolean }>).some((w) => w.showing && w.modal) ? true : undefined;
      }, 10_000, "mousepad's modal Save As dialog").catch((error: Error) => {
        throw new Error(`${error.message}; its windows: ${JSON.stringify(seen)}`);
      });
    });
    after(async () => {
      if (pid) await server.call('kill_app', { pid, force: true });
    });

    test('should list the dialog first and refuse the main window\'s menu by element_index, naming the dialog, with the dialog still open', async () => {
      const modal = (await mousepadWindows()).find((w) => w.showing && w.modal)!;
      const lines = await treeLines(pid);
      const dialogAt = lines.findIndex((line) => line.text === modal.name && line.role !== 'Application');
      const frameAt = lines.findIndex((line) => line.role === 'Frame');
      assert.ok(dialogAt >= 0 && frameAt > dialogAt, `the dialog (${modal.role} "${modal.name}") comes first:\n${lines.slice(0, 8).map((line) => line.line).join('\n')}`);
      const menus = (await tagged(pid, 'File')).filter((entry) => entry.line.startsWith('[Menu] "File"'));
      assert.ok(menus.length > 0, 'the main window has its File menu');
      const result = await server.call('click', { pid, element_index: menus[0].index });
      assert.ok(result.isError, `refused: ${result.text}`);
      assert.match(result.text, /blocks/);
      const dialog = (await mousepadWindows()).find((w) => w.modal);
      assert.ok(dialog?.showing, 'the dialog is still open, as AT-SPI tells another process');
      assert.match(result.text, new RegExp(dialog.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the answer names that dialog');
      const menusShowing = (await mousepadWindows()).filter((w) => w.role === 'menu' || (w.role === 'window' && w.showing));
      assert.deepEqual(menusShowing, [], 'no menu popped up');
    });
  });
});
