// The engine over the macOS desktop, both fakes underneath (binding layer and guard thread): a
// guard thread that dies while a long text is being typed stops the call at once with
// guard-lost, and no further event is posted after the loss.
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
import { FakeTapWorker } from './mac-fake-tap-worker.js';
import { describeStepsDone } from '../../src/mcp/renderSteps.js';

const PID = 42;

test('should stop typing at once with guard-lost when the guard thread crashes mid-call, posting nothing more', async () => {
  const fake = new FakeMacNative();
  fake.addApp(PID, {
    role: 'AXApplication',
    title: 'Editor',
    children: [{ role: 'AXWindow', title: 'Doc', windowId: 5, position: { x: 0, y: 0 }, size: { width: 400, height: 300 }, children: [{ role: 'AXTextArea', value: '', focused: true, position: { x: 10, y: 10 }, size: { width: 380, height: 280 } }] }],
  });
  fake.windowList = [{ kCGWindowNumber: 5, kCGWindowOwnerPID: PID, kCGWindowOwnerName: 'Editor', kCGWindowLayer: 0, kCGWindowBounds: { X: 0, Y: 0, Width: 400, Height: 300 }, kCGWindowIsOnscreen: true }];
  fake.focusedPid = PID;
  fake.inputOf(PID).msPerEvent = 2;
  let worker: FakeTapWorker | undefined;
  const desktop = new MacDesktop(fake, {
    tapGuard: { ...DEFAULT_TAP_GUARD_OPTIONS, heartbeatEveryMs: 20 },
    spawnTapWorker: (data) => (worker = new FakeTapWorker(fake, data)),
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-mac-engine-'));
  const engine = new Engine(desktop, { artifacts: await ArtifactStore.open({ dir }), describeSteps: describeStepsDone, graceMs: 0, settle: { quietMs: 0, capMs: 0, fallbackMs: 0 } });
  try {
    let postedAtLoss = -1;
    const text = 'x'.repeat(2_000);
    const call = engine.act({ tool: 'type_and_traverse', pid: PID, steps: [{ kind: 'type', text }] });
    // Crash the guard thread once typing is well under way.
    while (fake.typedInto(PID).length < 100) await new Promise((resolve) => setTimeout(resolve, 5));
    postedAtLoss = fake.posted.length;
    worker!.crash('simulated crash');
    const result = await call;
    assert.equal(result.status, 'error', JSON.stringify(result.error));
    assert.equal(result.error?.code, 'guard-lost');
    assert.match(result.error?.message ?? '', /guard thread failed: simulated crash/);
    assert.ok(fake.posted.length - postedAtLoss <= 2, `at most the event pair being written when the loss came (${fake.posted.length - postedAtLoss} more)`);
    assert.ok(fake.typedInto(PID).length < text.length, 'the text was not finished');
    assert.equal(fake.tapEnabled, false, 'the crashed thread’s tap was disabled from the engine’s thread');
  } finally {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
});
