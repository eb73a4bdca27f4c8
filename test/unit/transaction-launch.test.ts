import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { EngineEventMap } from '../../src/core/engineApi.js';
import { MAX_REREADS } from '../../src/core/call/callState.js';
import type { ScriptedAppSpec } from '../support/scriptedDesktop.js';
import { COUNTER, act, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';

const HELPER = 400;
const helperApp: ScriptedAppSpec = {
  pid: HELPER,
  name: 'helper',
  tree: {
    role: 'Application',
    text: 'helper',
    children: [{ role: 'Window', text: 'Helper', bounds: { x: 600, y: 100, width: 300, height: 150 }, children: [{ role: 'Label', text: 'Hello from the helper', bounds: { x: 620, y: 120, width: 200, height: 20 } }] }],
  },
};

describe('transaction: waiting for what the steps launched, and for a quiet read', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  const logs = (f: EngineFixture): string[] => f.events.filter((e) => e.event === 'log').map((e) => (e.payload as EngineEventMap['log']).message);

  it("should wait for the window of a process the click started and hand off to it", async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.find(COUNTER, 'Count: 0').spec.onClick = ({ desktop: d }) => {
      d.spawnProcess(COUNTER, { pid: HELPER, name: 'helper' });
      setTimeout(() => d.startApp(helperApp, { frontmost: true }), 80);
    };
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));

    assert.equal(result.status, 'ok');
    assert.equal(result.appSwitch?.pid, HELPER, 'the helper window is reported as the new front');
    assert.match(result.handoffTree ?? '', /"Hello from the helper"/);
    assert.ok(logs(fixture).some((line) => /the action started helper \(pid 400\)/.test(line)));
  });

  it('should hand off to a window the started process mapped even before it is in front', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.find(COUNTER, 'Count: 0').spec.onClick = ({ desktop: d }) => {
      d.spawnProcess(COUNTER, { pid: HELPER, name: 'helper' });
      // The window manager has not activated it (yet): the target app stays in front.
      setTimeout(() => d.startApp(helperApp, { frontmost: false }), 40);
    };
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));

    assert.equal(result.status, 'ok');
    assert.equal(desktop.frontmostPid, COUNTER, 'the helper never came to the front');
    assert.equal(result.appSwitch?.pid, HELPER, 'its window is the handoff all the same');
    assert.match(result.handoffTree ?? '', /"Hello from the helper"/);
    assert.equal(result.restore.frontmost, 'skipped-handoff');
    assert.equal(result.launched, undefined, 'a process with a window is not listed as windowless');
  });

  it('should stop waiting as soon as the started process exits without a window', async () => {
    fixture = await engineFixture(undefined, { settle: { quietMs: 0, capMs: 0, fallbackMs: 0, launchCapMs: 10_000 } });
    const { engine, desktop } = fixture;
    desktop.find(COUNTER, 'Count: 0').spec.onClick = ({ desktop: d }) => {
      d.spawnProcess(COUNTER, { pid: HELPER, name: 'sh' });
      setTimeout(() => d.endProcess(HELPER), 50);
    };
    const started = Date.now();
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(result.status, 'ok');
    assert.equal(result.appSwitch, undefined);
    assert.ok(Date.now() - started < 2_000, 'not the 10 s cap');
  });

  it('should give up at the cap on a process that never shows a window, and say so', async () => {
    fixture = await engineFixture(undefined, { settle: { quietMs: 0, capMs: 0, fallbackMs: 0, launchCapMs: 150 } });
    const { engine, desktop } = fixture;
    desktop.find(COUNTER, 'Count: 0').spec.onClick = ({ desktop: d }) => d.spawnProcess(COUNTER, { pid: HELPER, name: 'daemon' });
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(result.status, 'ok');
    assert.equal(result.appSwitch, undefined);
    assert.ok(logs(fixture).some((line) => line === 'daemon (pid 400) showed no window within 150 ms; going on'), logs(fixture).join('\n'));
    assert.deepEqual(result.launched, [{ pid: HELPER, app: 'daemon' }], 'the answer still names the process');
  });

  it("should not wait for, nor name, a browser's own helper processes (Firefox content, Chromium renderer)", async () => {
    fixture = await engineFixture(undefined, { settle: { quietMs: 0, capMs: 0, fallbackMs: 0, launchCapMs: 2_000 } });
    const { engine, desktop } = fixture;
    desktop.find(COUNTER, 'Count: 0').spec.onClick = ({ desktop: d }) => {
      d.spawnProcess(COUNTER, { pid: HELPER, name: 'Web Content', commandLine: ['/usr/lib/firefox-esr/firefox-esr', '-contentproc', '-isForBrowser'] });
      d.spawnProcess(COUNTER, { pid: HELPER + 1, name: 'chromium', commandLine: ['/usr/lib/chromium/chromium', '--type=renderer'] });
    };
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(result.status, 'ok');
    assert.equal(result.launched, undefined, 'no pid the agent could do nothing with');
    assert.equal(desktop.calls.filter((call) => call === 'windows all').length, 0, 'no waiting for their windows');
    assert.ok(!logs(fixture).some((line) => line.startsWith('the action started')), logs(fixture).join('\n'));
  });

  it('should ask once and not wait when the steps launched nothing', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(desktop.calls.filter((call) => call.startsWith('launched-since')).length, 1);
    assert.equal(desktop.calls.filter((call) => call === 'windows all').length, 0, 'no polling for windows');
  });

  it('should read the tree again, once quiet, when the app changed while it was read', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.find(COUNTER, 'Count: 0').spec.onClick = ({ node, desktop: d }) => {
      node.setText('Count: 1');
      d.changingReads = 1;
    };
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));
    const afterClick = desktop.calls.slice(desktop.calls.findIndex((call) => call.startsWith('click')));
    assert.deepEqual(afterClick.filter((call) => /^(snapshot|settle) /.test(call)), ['settle 200', 'snapshot 200', 'settle 200', 'snapshot 200']);
    assert.match(result.diff ?? '', /Count: 0' -> 'Count: 1'/);
    assert.ok(logs(fixture).some((line) => /changed while it was being read/.test(line)));
  });

  it('should stop reading again after MAX_REREADS for an app that never stops changing', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.find(COUNTER, 'Count: 0').spec.onClick = ({ desktop: d }) => {
      d.changingReads = 1_000;
    };
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(result.status, 'ok');
    const afterClick = desktop.calls.slice(desktop.calls.findIndex((call) => call.startsWith('click')));
    assert.equal(afterClick.filter((call) => call === 'snapshot 200').length, 1 + MAX_REREADS);
  });
});
