// launch_app and kill_app's policy (core/apps/appLifecycle.ts) over the scripted desktop: which pids
// are never touched, that a polite close never signals, that an app's question is handed back
// with nothing pressed, that force escalates, and that a background launch puts the front back.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { checkLaunchRequest, killApp, protectedPids } from '../../src/core/apps/appLifecycle.js';
import { isTandemError } from '../../src/core/errors.js';
import { createProgress } from '../../src/core/progress.js';
import { DEFAULT_SETTLE } from '../../src/core/call/settle.js';
import { FINDER, act, clickOn, counterDesktop, counterTree, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { modelText } from '../support/modelText.js';

const EDITOR = 500;
const editor = (onQuit: 'exit' | 'ask' | 'ignore', extra: Record<string, unknown> = {}) => ({
  pid: EDITOR,
  name: 'Editor',
  tree: { role: 'Application', text: 'Editor', children: [{ role: 'Window', text: 'notes - Editor', bounds: { x: 10, y: 10, width: 400, height: 300 }, children: [{ role: 'Text', text: '', value: 'unsaved' }] }] },
  onQuit,
  ...extra,
});

describe('launch_app and kill_app (core policy)', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should check the launch arguments: one of name, id or path, bounded lists, no NUL, urls that cannot read as options', () => {
    assert.deepEqual(checkLaunchRequest({ name: ' zenity ', args: ['--info'] }), { kind: 'name', value: 'zenity', args: ['--info'], urls: [], newInstance: false, background: false });
    for (const bad of [{}, { name: 'a', id: 'b' }, { path: 'relative/bin' }, { name: '   ' }, { name: 'a', args: Array(33).fill('x') }, { name: 'a', args: ['a\0b'] }, { name: 'a', urls: ['--help'] }, { name: 'x'.repeat(1001) }]) {
      assert.throws(() => checkLaunchRequest(bad as never), (error) => isTandemError(error, 'bad-input'), JSON.stringify(bad).slice(0, 80));
    }
    assert.equal(checkLaunchRequest({ name: 'a', urls: ['https://example.org', '/tmp/a.txt'] }).urls.length, 2);
    for (const runner of [{ path: '/bin/sh', args: ['-c', 'touch x'] }, { name: 'bash' }, { path: '/usr/bin/python3.11' }, { name: 'env' }, { path: '/usr/bin/xdg-open', urls: ['/tmp/a'] }]) {
      assert.throws(() => checkLaunchRequest(runner as never), (error) => isTandemError(error, 'bad-input') && error.details?.reason === 'command-runner', JSON.stringify(runner));
    }
    assert.equal(checkLaunchRequest({ path: '/usr/bin/mousepad' }).value, '/usr/bin/mousepad', 'an app by its path is fine');
  });

  it('should protect pid 1, Tandem, every process above it and the connected client with its ancestors', async () => {
    const desktop = counterDesktop({ parents: { 4000: 3000, 3000: 2000, 2000: 1, 7000: 6000, 6000: 1 } });
    const guarded = await protectedPids(desktop, 4000, 7000);
    assert.deepEqual(Object.fromEntries(guarded), { 1: 'init', 4000: 'tandem', 3000: 'tandem-ancestor', 2000: 'tandem-ancestor', 7000: 'client', 6000: 'client' });
  });

  it('should refuse protected pids and pids without a window before anything is sent, with no events', async () => {
    fixture = await engineFixture(counterDesktop({ apps: [editor('exit')], parents: { [process.pid]: 4242 } }));
    const { engine, desktop, events } = fixture;
    for (const pid of [1, process.pid, 4242]) await assert.rejects(engine.killApp(pid, true), (e) => isTandemError(e, 'bad-input') && /^hint: kill_app never closes Tandem/m.test(modelText(e)));
    desktop.spawnProcess(EDITOR, { pid: 900, name: 'helper' });
    await assert.rejects(engine.killApp(900, true), (e) => isTandemError(e, 'unknown-app'));
    await assert.rejects(engine.killApp(12345, false), (e) => isTandemError(e, 'unknown-app'));
    await assert.rejects(engine.killApp(EDITOR, false, { clientPid: EDITOR }), (e) => isTandemError(e, 'bad-input'));
    assert.equal(desktop.signals.length, 0, "no signal");
    assert.equal(events.filter((e) => e.event === 'call-started').length, 0);
  });

  it('should close nothing over a socket whose client process is unknown (no peer pid to spare)', async () => {
    fixture = await engineFixture(counterDesktop({ apps: [editor('exit')] }));
    await assert.rejects(fixture.engine.killApp(EDITOR, true, { viaSocket: true }), (e) => isTandemError(e, 'unsupported') && e.details?.reason === 'client-unknown');
    assert.equal(fixture.desktop.signals.length, 0, 'no signal');
    assert.equal((await fixture.desktop.processState(EDITOR)).running, true);
  });

  it('should not launch or close anything after the person pressed Esc in the last action\'s grace period', async () => {
    fixture = await engineFixture(counterDesktop({ apps: [editor('exit')] }), { graceMs: 5_000 });
    const { engine, desktop } = fixture;
    assert.equal((await engine.act(act(EDITOR, clickOn({ role: 'Text' })))).status, 'ok');
    assert.equal(desktop.human.pressEscape(), true, 'the guard saw the Esc');
    await assert.rejects(engine.killApp(EDITOR, true), (e) => isTandemError(e, 'cancelled') && e.details?.by === 'person');
    assert.equal(desktop.signals.length, 0, 'no signal after the Esc');
    assert.equal((await desktop.processState(EDITOR)).running, true);
  });

  it('should close an app with nothing unsaved politely, without any signal', async () => {
    fixture = await engineFixture(counterDesktop({ apps: [editor('exit')] }));
    const result = await fixture.engine.killApp(EDITOR, false);
    assert.deepEqual([result.status, result.how, result.unsavedWorkMayBeLost], ['exited', 'close', false]);
    assert.equal(fixture.desktop.signals.length, 0, 'no signal');
  });

  it("should hand back the app's question with its buttons, press nothing, and keep it running", async () => {
    fixture = await engineFixture(counterDesktop({ apps: [editor('ask')] }));
    const { engine, desktop } = fixture;
    const result = await engine.killApp(EDITOR, false);
    assert.equal(result.status, 'asking');
    assert.equal(result.dialog?.title, 'Save changes?');
    assert.deepEqual(result.dialog?.elements.map((el) => `${el.role} ${el.text}`), ['Dialog Save changes?', 'Label Save changes to "notes" before closing?', "PushButton Don't Save", 'PushButton Cancel', 'PushButton Save']);
    assert.equal(desktop.signals.length, 0, "no signal");
    assert.deepEqual(desktop.calls.filter((call) => /^(click|key|type|action|set-value|guard)/.test(call)), [], 'nothing pressed, no guard');
    assert.ok((await desktop.processState(EDITOR)).running);
    assert.ok(result.file && result.screenshot, 'the tree and the screenshot are written');
    const forced = await engine.killApp(EDITOR, true);
    assert.deepEqual([forced.status, forced.how, forced.unsavedWorkMayBeLost], ['exited', 'terminate', true]);
  });

  it('should answer still-running for an app that ignores the request, and escalate SIGTERM to SIGKILL on force', async () => {
    const desktop = counterDesktop({ apps: [editor('ignore', { ignoresTerminate: true })] });
    const progress = createProgress({ timeoutMs: 10_000 });
    const target = { pid: EDITOR, app: 'Editor', windows: await desktop.windows(EDITOR, progress) };
    const read = { snapshot: (pid: number) => desktop.snapshot(pid, { maxDepth: 64, maxElements: 1000, maxMs: 1000 }, progress), settleOptions: { ...DEFAULT_SETTLE, quietMs: 0, capMs: 0 } };
    const polite = await killApp(desktop, target, false, read, progress, 200);
    assert.deepEqual([polite.status, polite.unsavedWorkMayBeLost], ['still-running', false]);
    assert.equal(desktop.signals.length, 0, "no signal");
    const forced = await killApp(desktop, target, true, read, progress);
    assert.deepEqual(desktop.signals.map((s) => s.signal), ['terminate', 'kill']);
    assert.deepEqual([forced.status, forced.how], ['exited', 'kill']);
  });

  it('should start an app, say when it already runs, and put the front back after a background launch', async () => {
    fixture = await engineFixture(counterDesktop({ installable: [{ pid: 600, name: 'Viewer', tree: counterTree() }] }));
    const { engine, desktop } = fixture;
    const launched = await engine.launchApp({ name: 'Viewer', args: ['--page', '2'], urls: ['/tmp/a.pdf'], background: true });
    assert.equal(launched.app.pid, 600);
    assert.equal(launched.front, 'restored');
    assert.equal((await desktop.frontmost(createProgress({ timeoutMs: 1000 })))?.pid, FINDER);
    assert.deepEqual(desktop.launchRequests[0].args, ['--page', '2']);
    const again = await engine.launchApp({ name: 'Viewer' });
    assert.equal(again.app.alreadyRunning, true);
    assert.ok(launched.windows.length > 0);
  });

  it('should refuse both tools while the person has paused agent control', async () => {
    fixture = await engineFixture(counterDesktop({ apps: [editor('exit')] }));
    fixture.engine.setPaused(true);
    await assert.rejects(fixture.engine.killApp(EDITOR, false), (e) => isTandemError(e, 'paused'));
    await assert.rejects(fixture.engine.launchApp({ name: 'Editor' }), (e) => isTandemError(e, 'paused'));
    assert.ok((await fixture.desktop.processState(EDITOR)).running);
  });
});
