// An app that quits, or never starts, answered as such through a real MCP client (default tool
// profile) on the virtual desktop. The fixture's --quit-button app ends at once on its "Quit now"
// button or Ctrl+Q, as an editor's "Don't Save" does; the --typist window of another process lies
// under it, the window the window manager focuses next. A launch of a script that writes to
// stderr and exits 1 is answered with that exit, not with the launch's 20 s timeout.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, type ToolResult } from '../support/e2eHarness.js';

/** Running as the kernel says: /proc/<pid> exists and is no zombie. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

describe('MCP: an app that quits during a call, or exits as it starts', { timeout: 240_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let typist: FixtureApp;
  let scratch: string;

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    // The default profile: the tools and words a model sees.
    server = await McpSession.start(desktop, { args: [] });
    typist = await FixtureApp.start(desktop, ['--typist']);
    scratch = mkdtempSync(join(tmpdir(), 'tandem-app-exit-'));
  });

  after(async () => {
    await typist?.stop();
    await server?.close();
    await desktop?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** A fresh quitter app, on top of the typist's window. */
  async function quitter(): Promise<FixtureApp> {
    return FixtureApp.start(desktop, ['--quit-button']);
  }

  function assertExitAnswer(result: ToolResult, app: FixtureApp, afterStep: number): void {
    assert.equal(result.isError, false, `the exit is the call's outcome, not an error:\n${result.text}`);
    assert.equal(result.structured.status, 'ok');
    assert.equal(result.structured.app_exited, afterStep, "the steps that ran before the exit");
    assert.match(result.fields.app_exited ?? '', new RegExp(`pid ${app.pid} \\(.+\\) quit after its last step`));
    assert.match(String(result.structured.summary), new RegExp(`\\(pid ${app.pid}\\) exited after its last step; no tree after it`));
    assert.equal(result.structured.app_switch, undefined, `the typist window only came up because the quitter went away:\n${result.text}`);
    assert.doesNotMatch(result.text, /unknown-app|launch_app|act on pid/);
    assert.deepEqual(result.structured.text_changes, []);
    assert.ok(result.structured.screenshot, 'the screen is still captured');
    assert.ok(result.structured.restore, 'the restore ran');
  }

  test('a click on the button that quits the app answers ok with the exit, and no app switch to the window below', async () => {
    const app = await quitter();
    const result = await server.call('run_steps', { pid: app.pid, steps: [{ action: 'click', element: 'Quit now', role: 'button' }] });
    assert.equal(app.eventsNamed('quitting')[0]?.by, 'button');
    assert.ok(!running(app.pid), 'the process is gone');
    assertExitAnswer(result, app, 1);
  });

  test('Ctrl+Q that quits the app answers ok with the exit', async () => {
    const app = await quitter();
    const result = await server.call('press_key', { pid: app.pid, key: 'q', modifiers: ['ctrl'] });
    assert.equal(app.eventsNamed('quitting')[0]?.by, 'ctrl+q');
    assertExitAnswer(result, app, 1);
  });

  test('steps after the exit are not run, and the answer says how many ran', async () => {
    const app = await quitter();
    const notesBefore = typist.eventsNamed('notes').length;
    const result = await server.call('run_steps', {
      pid: app.pid,
      steps: [
        { action: 'click', element: 'Quit now', role: 'button' },
        { action: 'click', element: 'Scratch', role: 'text' },
        { action: 'type', text: 'stray' },
      ],
    });
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, new RegExp(`error: app-gone: .+ \\(pid ${app.pid}\\) exited during the call, after 1 of 3 steps; the remaining 2 steps were not run`));
    assert.equal(result.structured.app_exited, 1);
    assert.equal((result.structured.steps as string[]).length, 1);
    assert.equal(result.structured.app_switch, undefined);
    assert.ok(result.structured.screenshot, 'the screen is still captured');
    assert.equal(typist.eventsNamed('notes').length, notesBefore, 'nothing was typed into the window below');
  });

  test('launch_app of a program that writes to stderr and exits 1 answers with that exit, not the timeout', async () => {
    const script = join(scratch, 'fails-at-start.sh');
    writeFileSync(script, '#!/bin/sh\necho "loading settings" >&2\necho "fatal: no profile given (try --profile)" >&2\nexit 1\n');
    chmodSync(script, 0o755);
    const result = await server.call('launch_app', { path: script });
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /error: app-gone: .*fails-at-start\.sh.* exited \(code 1\) as it started, before any window of it appeared/);
    assert.doesNotMatch(result.text, /timeout|within 20 s/, 'the exit answer, not the window wait running out');
    assert.match(result.text, /stderr:\n {2}loading settings\n {2}fatal: no profile given \(try --profile\)/);
    assert.match(result.fields.hint ?? '', /exited as it started/);
    assert.doesNotMatch(result.fields.hint ?? '', /get_window_state|refresh_traversal/);
  });
});
