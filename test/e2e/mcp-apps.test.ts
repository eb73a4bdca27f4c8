// launch_app and kill_app through a real MCP client on the virtual desktop, checked against the
// X server (xprop, by a separate process), the kernel (/proc) and the app's own accessibility
// tree read over a second, separate AT-SPI connection — never against what Tandem says alone.
// Run on a fresh desktop (a cold start of mousepad, with the page cache dropped where the test
// may) and again on another fresh desktop with both cores kept busy by another process.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { AtspiAccessibility } from '../../src/backends/linux/atspiAccessibility.js';
import { createProgress } from '../../src/core/progress.js';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { CpuLoad } from '../support/cpuLoad.js';
import { dropPageCache } from '../support/pageCache.js';
import { FixtureApp, McpSession, activeWindowPid, eventually } from '../support/e2eHarness.js';

const run = promisify(execFile);

/** Running as the kernel says: /proc/<pid>/stat exists and its state is not zombie. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** A window's title and owner pid, asked of the X server by xprop. */
async function xWindow(desktop: VirtualDesktop, windowId: number): Promise<{ title: string; pid: number | null; mapped: boolean }> {
  const { stdout } = await run('xprop', ['-id', String(windowId), '_NET_WM_NAME', '_NET_WM_PID', 'WM_STATE'], { env: desktop.env });
  const title = /_NET_WM_NAME\(UTF8_STRING\) = "(.*)"/.exec(stdout)?.[1] ?? '';
  const pid = /_NET_WM_PID\(CARDINAL\) = (\d+)/.exec(stdout)?.[1];
  return { title, pid: pid ? Number(pid) : null, mapped: /window state: Normal/.test(stdout) };
}

/** Titles of every managed window of pid, from the root's _NET_CLIENT_LIST (xprop). */
async function xTitlesOf(desktop: VirtualDesktop, pid: number): Promise<string[]> {
  const { stdout } = await run('xprop', ['-root', '_NET_CLIENT_LIST'], { env: desktop.env });
  const ids = [...stdout.matchAll(/0x[0-9a-f]+/gi)].map((match) => Number.parseInt(match[0], 16));
  const windows = await Promise.all(ids.map((id) => xWindow(desktop, id).catch(() => null)));
  return windows.flatMap((window) => (window && window.pid === pid ? [window.title] : []));
}

interface LaunchAnswer {
  pid: number;
  started: string;
  front: string;
  windows: Array<{ window_id: number; title: string; bounds: { x: number; y: number; width: number; height: number } | null }>;
  file?: string;
  screenshot?: string;
  element_count?: number;
  revision?: number;
}

function suite(name: string, options: { load: boolean }): void {
  describe(name, { timeout: 240_000 }, () => {
    let desktop: VirtualDesktop;
    let server: McpSession;
    let fixture: FixtureApp;
    let reader: AtspiAccessibility;
    let load: CpuLoad | undefined;

    before(async () => {
      ensureDesktopPackages();
      desktop = await startVirtualDesktop();
      server = await McpSession.start(desktop);
      fixture = await FixtureApp.start(desktop);
      reader = await AtspiAccessibility.connect({ env: desktop.env });
      if (options.load) load = CpuLoad.start();
    });

    after(async () => {
      load?.stop();
      await reader?.close();
      await server?.close();
      await desktop?.stop();
    });

    test('should start zenity with its arguments as separate words (no shell) and answer once its window is on screen', async () => {
      const marker = join(desktop.root, 'shell-ran');
      const title = `Tandem launch ${process.pid}`;
      const text = `$(touch ${marker}); echo "quoted" & more`;
      const result = await server.callOk('launch_app', { name: 'zenity', args: ['--info', `--title=${title}`, `--text=${text}`], new_instance: true });
      const answer = result.structured as unknown as LaunchAnswer;
      assert.equal(answer.started, 'new');
      // The kernel's argv of the process: each word as sent, nothing expanded.
      const argv = readFileSync(`/proc/${answer.pid}/cmdline`, 'utf8').split('\0');
      assert.ok(argv.includes(`--title=${title}`) && argv.includes(`--text=${text}`), `argv: ${JSON.stringify(argv)}`);
      assert.equal(existsSync(marker), false, 'no shell ran the text');
      // The window Tandem names is that process's, mapped, with the title the argument gave.
      const window = answer.windows[0];
      assert.ok(window?.bounds && window.bounds.width > 0, result.text);
      const x = await xWindow(desktop, window.window_id);
      assert.deepEqual({ title: x.title, pid: x.pid, mapped: x.mapped }, { title, pid: answer.pid, mapped: true });
      // The answer read the app's tree, so no second call is needed to see what it shows.
      assert.ok(answer.file && existsSync(answer.file), `the tree file is there: ${result.text}`);
      const tree = readFileSync(answer.file, 'utf8');
      assert.match(tree, /^#\d+ \[PushButton\] "OK"/m, tree);
      assert.ok(tree.includes(`[Dialog] "${title}"`), `the dialog, by the title sent, is in the tree: ${tree}`);
      assert.ok(answer.screenshot && existsSync(answer.screenshot), 'and its screenshot');
      assert.ok((answer.element_count ?? 0) > 0);
      // Its revision, as every answer with a tree carries (if_revision takes it).
      assert.ok(Number.isInteger(answer.revision) && answer.revision! > 0, result.text);
      assert.match(result.text, new RegExp(`^revision: ${answer.revision}$`, 'm'));
      // Not in the background: the window manager gives a new window the front here, which is
      // what the background test below must undo.
      await eventually(async () => ((await activeWindowPid(desktop)) === answer.pid ? true : undefined), 5_000, 'zenity in front');

      // Running already: named, nothing started.
      const again = (await server.callOk('launch_app', { name: 'zenity' })).structured as unknown as LaunchAnswer;
      assert.equal(again.started, 'already-running');
      assert.ok(running(again.pid));

      // Closed politely: it had nothing unsaved, so it exits.
      const killed = await server.callOk('kill_app', { pid: answer.pid });
      assert.equal(killed.structured.status, 'exited', killed.text);
      assert.equal(killed.structured.unsaved_work_may_be_lost, false);
      await eventually(() => (running(answer.pid) ? undefined : true), 5_000, 'zenity to exit');
      assert.deepEqual(await xTitlesOf(desktop, answer.pid), [], 'its window is gone');
    });

    test("should leave the person's front window in front when asked to launch in the background", async (t) => {
      const activated = await server.callOk('bring_to_front', { pid: fixture.pid });
      assert.equal(activated.structured.status, 'ok');
      await eventually(async () => ((await activeWindowPid(desktop)) === fixture.pid ? true : undefined), 5_000, 'the fixture in front');
      const title = `Tandem background ${process.pid}`;
      const result = await server.callOk('launch_app', { name: 'zenity', args: ['--info', `--title=${title}`, '--text=behind'], background: true, new_instance: true });
      const answer = result.structured as unknown as LaunchAnswer;
      assert.ok(['kept', 'restored'].includes(answer.front), result.text);
      t.diagnostic(`front: ${answer.front}`);
      // The new window is on screen, and the person's window is the active one (xprop).
      assert.equal((await xWindow(desktop, answer.windows[0].window_id)).mapped, true);
      assert.equal(await activeWindowPid(desktop), fixture.pid, `the fixture is still in front:\n${result.text}`);
      await server.callOk('kill_app', { pid: answer.pid, force: true });
    });

    test('should open the documents it is given, hand a new instance\'s document to the running mousepad, and close it with nothing unsaved', async (t) => {
      // The first start of mousepad on this desktop; without load, from a dropped page cache too.
      if (!options.load) t.diagnostic(`page cache ${dropPageCache() ? 'dropped' : 'not droppable here'} before mousepad's first start`);
      const first = join(desktop.root, 'first.txt');
      const second = join(desktop.root, 'second.txt');
      writeFileSync(first, 'one\n');
      writeFileSync(second, 'two\n');
      const opened = (await server.callOk('launch_app', { name: 'mousepad', urls: [first] })).structured as unknown as LaunchAnswer;
      assert.equal(opened.started, 'new');
      assert.deepEqual(await xTitlesOf(desktop, opened.pid), [`${first} - Mousepad`]);
      // mousepad is single-instance: a new process passes the document on and exits.
      const handed = await server.callOk('launch_app', { name: 'mousepad', urls: [second], new_instance: true });
      const answer = handed.structured as unknown as LaunchAnswer;
      assert.deepEqual([answer.started, answer.pid], ['handed-over', opened.pid], handed.text);
      await eventually(async () => ((await xTitlesOf(desktop, opened.pid)).some((title) => title.startsWith(second)) ? true : undefined), 5_000, 'the second document in mousepad');
      const closed = await server.callOk('kill_app', { pid: opened.pid });
      assert.equal(closed.structured.status, 'exited', closed.text);
      await eventually(() => (running(opened.pid) ? undefined : true), 5_000, 'mousepad to exit');
    });

    test('should ask mousepad to close, answer with its "save changes" question, press nothing, and end it on force', async () => {
      const launched = await server.callOk('launch_app', { name: 'mousepad' });
      const pid = (launched.structured as unknown as LaunchAnswer).pid;
      const typed = await server.callOk('type_and_traverse', { pid, text: 'words not saved yet' });
      assert.equal(typed.structured.status, 'ok');

      const asked = await server.callOk('kill_app', { pid });
      assert.equal(asked.structured.status, 'asking', asked.text);
      assert.equal(asked.structured.unsaved_work_may_be_lost, false);
      const dialog = asked.structured.dialog as { title: string; elements: Array<{ element_index: number; line: string }> };
      assert.ok(dialog.elements.some((el) => /\[PushButton\] "Save"/.test(el.line)), asked.text);
      assert.ok(dialog.elements.some((el) => /\[PushButton\] "Cancel"/.test(el.line)), asked.text);
      assert.ok(Number.isInteger(asked.structured.revision), `the question's tree carries its revision: ${asked.text}`);
      // Still running, its question on screen (X), its text still in the document (read over a
      // separate accessibility connection), the title still marked modified.
      assert.ok(running(pid), 'mousepad still runs');
      const titles = await xTitlesOf(desktop, pid);
      assert.ok(titles.includes('Save Changes'), `windows: ${JSON.stringify(titles)}`);
      assert.ok(titles.some((title) => title.startsWith('*')), `windows: ${JSON.stringify(titles)}`);
      const tree = await reader.snapshot(pid, { maxDepth: 64, maxElements: 10_000, maxMs: 5_000 }, createProgress({ timeoutMs: 10_000 }));
      assert.ok(tree.elements.some((el) => el.value === 'words not saved yet'), 'the typed text is still in the document');

      const forced = await server.callOk('kill_app', { pid, force: true });
      assert.equal(forced.structured.status, 'exited', forced.text);
      assert.equal(forced.structured.unsaved_work_may_be_lost, true);
      assert.match(forced.text, /unsaved work in it may be lost/);
      await eventually(() => (running(pid) ? undefined : true), 5_000, 'mousepad to exit');
    });

    test('should refuse the MCP client, the server, pid 1 and a process without a window, and leave them running', async () => {
      const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
      try {
        for (const [pid, why] of [
          [process.pid, /process Tandem runs under/],
          [server.pid, /Tandem's own process/],
          [1, /init process/],
          [sleeper.pid!, /not an app with a window/],
        ] as const) {
          for (const force of [false, true]) {
            const refused = await server.call('kill_app', { pid, force });
            assert.equal(refused.isError, true, refused.text);
            assert.match(refused.text, why);
          }
        }
        assert.ok(running(sleeper.pid!) && running(server.pid), 'nothing was ended');
      } finally {
        sleeper.kill('SIGKILL');
      }
    });

    test("should refuse a pid that a window only claims (_NET_WM_PID) when the X server says another process owns it", async () => {
      const victim = spawn('sleep', ['60'], { stdio: 'ignore' });
      const launched = (await server.callOk('launch_app', { name: 'zenity', args: ['--info', '--title=Forged owner', '--text=x'], new_instance: true })).structured as unknown as LaunchAnswer;
      try {
        // The window now names the sleeping process as its owner: an app's claim, nothing more.
        await run('xprop', ['-id', String(launched.windows[0].window_id), '-f', '_NET_WM_PID', '32c', '-set', '_NET_WM_PID', String(victim.pid)], { env: desktop.env });
        assert.equal((await xWindow(desktop, launched.windows[0].window_id)).pid, victim.pid);
        for (const force of [false, true]) {
          const refused = await server.call('kill_app', { pid: victim.pid!, force });
          assert.equal(refused.isError, true, refused.text);
          assert.match(refused.text, /another process owns it/);
        }
        assert.ok(running(victim.pid!) && running(launched.pid), 'neither process was ended');
        assert.deepEqual(await xTitlesOf(desktop, victim.pid!), ['Forged owner'], 'the window was not closed either');
      } finally {
        victim.kill('SIGKILL');
        process.kill(launched.pid, 'SIGKILL');
      }
    });
  });
}

suite('launch_app and kill_app on a fresh desktop (cold start)', { load: false });
suite('launch_app and kill_app with both cores loaded', { load: true });
