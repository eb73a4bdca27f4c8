// The engine over the macOS desktop and its fake binding: a background call presses a button
// with AXPress, sets a field's AXValue and inserts text as AXSelectedText, while the person's app
// keeps the front — no activation (AXFrontmost, AXRaise, activateWithOptions:), no event posted,
// no event tap enabled.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { MacDesktop } from '../../src/backends/macos/macDesktop.js';
import { DEFAULT_TAP_GUARD_OPTIONS } from '../../src/backends/macos/cgEventTapGuard.js';
import { ArtifactStore } from '../../src/core/artifacts/artifacts.js';
import { Engine } from '../../src/core/engine.js';
import { FakeMacNative } from './mac-fake-native.js';
import { PERSON, TARGET, personBeside } from './mac-person-beside.js';
import { FakeTapWorker } from './mac-fake-tap-worker.js';
import { describeStepsDone } from '../../src/mcp/renderSteps.js';


test('should act in the background through AXPress, AXValue and AXSelectedText without activating the app or posting events', async () => {
  const fake = new FakeMacNative();
  // As a real app offers them: the app's AXFrontmost, the window's AXMain and AXRaise, the field's
  // AXFocused — so a write or action that takes the front or the focus would be recorded.
  const window = (title: string, windowId: number, children: object[]) => ({ role: 'AXWindow', title, windowId, settable: ['AXMain', 'AXFocused'], actions: ['AXRaise'], position: { x: 0, y: 0 }, size: { width: 400, height: 300 }, children });
  fake.addApp(TARGET, {
    role: 'AXApplication',
    title: 'Form',
    settable: ['AXFrontmost'],
    children: [
      window('Form', 5, [
        { role: 'AXTextField', title: 'Name', value: '', settable: ['AXValue', 'AXSelectedText', 'AXSelectedTextRange', 'AXFocused'], position: { x: 10, y: 10 }, size: { width: 200, height: 24 } },
        { role: 'AXButton', title: 'Apply', actions: ['AXPress'], position: { x: 10, y: 50 }, size: { width: 80, height: 24 } },
      ]),
    ],
  });
  const activations = personBeside(fake, 'Form');
  let workers = 0;
  const desktop = new MacDesktop(fake, {
    tapGuard: { ...DEFAULT_TAP_GUARD_OPTIONS, heartbeatEveryMs: 20 },
    spawnTapWorker: (data) => {
      workers++;
      return new FakeTapWorker(fake, data);
    },
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-mac-background-'));
  const engine = new Engine(desktop, { artifacts: await ArtifactStore.open({ dir }), describeSteps: describeStepsDone, graceMs: 0, settle: { quietMs: 0, capMs: 0, fallbackMs: 0 } });
  try {
    const name = { text: 'Name', role: 'textfield' };
    const result = await engine.act({
      tool: 'run_steps',
      pid: TARGET,
      background: true,
      steps: [
        { kind: 'set-value', query: name, value: 'Ada' },
        { kind: 'type-text', query: name, text: ' Lovelace', mode: 'auto' },
        { kind: 'click', target: { query: { text: 'Apply', role: 'button' } }, button: 'left', count: 1, modifiers: [] },
      ],
    });
    assert.equal(result.status, 'ok', JSON.stringify(result.error));
    assert.equal(result.background, true);
    assert.deepEqual(fake.performed.map((p) => `${p.action} ${p.element.title}`), ['AXPress Apply'], 'the click was the button\'s AXPress, and nothing was raised');
    assert.deepEqual(fake.written.map((w) => w.attribute), ['AXValue', 'AXSelectedText'], 'the value and the insertion, and no AXFocused, AXFrontmost or AXMain');
    assert.equal(activations(), 0, 'activateWithOptions: was never sent');
    assert.equal(fake.posted.length, 0, 'no CGEvent was posted');
    assert.equal(workers, 0, 'no event tap was started: nothing of the person\'s was held');
    assert.equal(fake.focusedPid, PERSON, 'the person\'s app kept the front');
  } finally {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
});
