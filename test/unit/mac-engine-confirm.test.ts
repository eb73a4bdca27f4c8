// The engine over the macOS desktop and its fake binding: a background press on the person's
// confirm_before list waits for their Enter, heard by the event tap's real thread code. Only a
// fresh Return from the keyboard itself answers (kCGEventSourceStateID = HID system state); a
// Return another process posts does not, and the app is never activated meanwhile.
// Written against Apple's documented fields; not run on a Mac.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { MacDesktop } from '../../src/backends/macos/macDesktop.js';
import { DEFAULT_TAP_GUARD_OPTIONS } from '../../src/backends/macos/cgEventTapGuard.js';
import { ArtifactStore } from '../../src/core/artifacts/artifacts.js';
import { Engine } from '../../src/core/engine.js';
import type { ActRequest } from '../../src/core/engineApi.js';
import { FakeMacNative } from './mac-fake-native.js';
import { PERSON, TARGET, fakeWindow, personBeside } from './mac-person-beside.js';
import { FakeTapWorker } from './mac-fake-tap-worker.js';
import { describeStepsDone } from '../../src/mcp/renderSteps.js';

const KEYCODE_RETURN = 0x24;

interface Setup {
  fake: FakeMacNative;
  engine: Engine;
  activations: () => number;
  close: () => Promise<void>;
}

async function setup(watchdogMs: number): Promise<Setup> {
  const fake = new FakeMacNative();
  fake.addApp(TARGET, { role: 'AXApplication', title: 'Mail', children: [fakeWindow('Mail', 5, [{ role: 'AXButton', title: 'Send', actions: ['AXPress'], position: { x: 10, y: 50 }, size: { width: 80, height: 24 } }])] });
  const activations = personBeside(fake, 'Mail');
  const desktop = new MacDesktop(fake, { tapGuard: { ...DEFAULT_TAP_GUARD_OPTIONS, heartbeatEveryMs: 20 }, spawnTapWorker: (data) => new FakeTapWorker(fake, data) });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-mac-confirm-'));
  const engine = new Engine(desktop, { artifacts: await ArtifactStore.open({ dir }), describeSteps: describeStepsDone, graceMs: 0, watchdogMs, settle: { quietMs: 0, capMs: 0, fallbackMs: 0 } });
  return {
    fake,
    engine,
    activations,
    close: async () => {
      await engine.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const pressSend: ActRequest = { tool: 'run_steps', pid: TARGET, background: true, steps: [{ kind: 'click', target: { query: { text: 'Send', role: 'button' } }, button: 'left', count: 1, modifiers: [] }] };

describe('macOS: the person\'s word before a background press', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('should press Send on the person\'s Return from the keyboard, without activating the app or posting an event', async () => {
    const { fake, engine, activations, close: done } = await setup(30_000);
    close = done;
    engine.on('confirm-asked', () => fake.humanKey(KEYCODE_RETURN, 0n, '\r'));
    const result = await engine.act(pressSend);
    assert.equal(result.status, 'ok', JSON.stringify(result.error));
    assert.deepEqual(fake.performed.map((p) => `${p.action} ${p.element.title}`), ['AXPress Send']);
    assert.deepEqual(fake.typedInto(PERSON), '', 'the Return was held back: the person\'s app never got it');
    assert.equal(activations(), 0);
    assert.equal(fake.posted.length, 0, 'no CGEvent was posted');
    assert.equal(fake.focusedPid, PERSON, 'the person\'s app kept the front');
  });

  it('should not take a Return another process posts as the person\'s answer: nothing is pressed', async () => {
    const { fake, engine, close: done } = await setup(1_500);
    close = done;
    engine.on('confirm-asked', () => {
      // Another process's Return: posted through the window server, its own source state (combined session 0), no marker.
      const posted = fake.makeEvent({ type: 10, keycode: KEYCODE_RETURN });
      fake.cg.CGEventSetIntegerValueField(posted, 45, 0n);
      fake.cg.CGEventPost(1, posted);
    });
    const result = await engine.act(pressSend);
    assert.notEqual(result.status, 'ok');
    assert.equal(result.error?.code, 'declined', JSON.stringify(result.error));
    assert.match(result.error?.message ?? '', /did not answer/, 'the watchdog while asking is the person\'s silence, not a slow action');
    assert.deepEqual(fake.performed, [], 'nothing was pressed');
  });
});
