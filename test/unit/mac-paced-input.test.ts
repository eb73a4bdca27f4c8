// Paced input on macOS, over the fake binding's window server (events go through the guard's
// tap a moment after they are posted, then into the focused app's inbox, which the app handles
// at its own pace, answering AX requests only between events): typing never runs ahead of the
// app by more than a small window, a cancel sends nothing more and waits for what was in
// flight, a hung app is reported not responding, and an app that speaks no AX still gets its
// text at a fixed pace. The guard is engaged as in every transaction: the barrier's first step
// is the guard's tap seeing Tandem's events pass (without it, an AX answer could come before
// the window server delivered the events — the fake models that delay).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MacDesktop } from '../../src/backends/macos/macDesktop.js';
import { DEFAULT_TAP_GUARD_OPTIONS } from '../../src/backends/macos/cgEventTapGuard.js';
import { DEFAULT_AX_BARRIER } from '../../src/backends/macos/axInputBarrier.js';
import { isTandemError } from '../../src/core/errors.js';
import { DEFAULT_PACING, type PacingOptions } from '../../src/core/input/inputPacing.js';
import { createProgress } from '../../src/core/progress.js';
import { FakeMacNative } from './mac-fake-native.js';
import { FakeTapWorker } from './mac-fake-tap-worker.js';

const PID = 42;
const PACING: PacingOptions = { ...DEFAULT_PACING, maxInFlight: 3, notRespondingMs: 300, drainIdleMs: 150, drainCapMs: 600, reportEvery: 40 };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function setup(msPerEvent: number) {
  const fake = new FakeMacNative();
  fake.addApp(PID, { role: 'AXApplication', title: 'Editor', children: [] });
  fake.focusedPid = PID;
  fake.inputOf(PID).msPerEvent = msPerEvent;
  const desktop = new MacDesktop(fake, {
    pacing: PACING,
    barrier: { ...DEFAULT_AX_BARRIER, retryMs: 2, silentMs: 150 },
    tapGuard: { ...DEFAULT_TAP_GUARD_OPTIONS, heartbeatEveryMs: 20 },
    spawnTapWorker: (data) => new FakeTapWorker(fake, data),
  });
  /** Characters posted but not yet handled by the app, sampled at every post. */
  const aheadSamples: number[] = [];
  const post = fake.cg.CGEventPost;
  fake.cg.CGEventPost = (location, ref) => {
    post(location, ref);
    const typed = fake.posted.filter((e) => e.keyDown && e.unicode).reduce((n, e) => n + [...e.unicode!].length, 0);
    aheadSamples.push(typed - [...fake.typedInto(PID)].length);
  };
  return { fake, desktop, aheadSamples };
}

/** Engages the guard as a transaction does, runs `body`, releases it. */
async function guarded<T>(desktop: MacDesktop, body: () => Promise<T>): Promise<T> {
  const guard = await desktop.engageGuard({ onEscape() {}, onHumanInput() {}, onLost() {} }, createProgress({ timeoutMs: 5_000 }));
  try {
    return await body();
  } finally {
    await guard.release();
  }
}

const TEXT = 'The quick brown fox jumps over the lazy dog. '.repeat(6); // 270 characters

describe('macOS paced input', () => {
  it('should keep at most three 8-character events ahead of a slow app, and answer once it took in everything', async () => {
    const { fake, desktop, aheadSamples } = setup(2);
    const reports: Array<[number, number]> = [];
    await guarded(desktop, () => desktop.typeText(TEXT, createProgress({ timeoutMs: 20_000, reportInput: (done, total) => reports.push([done, total]) })));
    assert.equal(fake.typedInto(PID), TEXT, 'every character, in order, handled when typeText resolved');
    assert.ok(Math.max(...aheadSamples) <= 3 * 8, `never more than 24 characters ahead (max ${Math.max(...aheadSamples)})`);
    assert.ok(reports.length >= 5 && reports.every(([, total]) => total === TEXT.length), JSON.stringify(reports));
    await desktop.close();
  });

  it('should send nothing more after a cancel, and reject only once what was in flight was taken in', async () => {
    const { fake, desktop } = setup(3);
    const controller = new AbortController();
    let postedAtAbort = 0;
    await guarded(desktop, async () => {
      const typing = desktop.typeText(TEXT, createProgress({ timeoutMs: 20_000, signal: controller.signal }));
      // Cancel once the app has taken in some of it (not after a fixed delay: a loaded machine is slow).
      while (fake.typedInto(PID).length < 40) await sleep(1);
      controller.abort();
      postedAtAbort = fake.posted.length;
      await assert.rejects(typing);
    });
    const takenAtAnswer = fake.typedInto(PID);
    assert.ok(fake.posted.length - postedAtAbort <= 2, `at most the key down/up being written when the abort came (${fake.posted.length - postedAtAbort})`);
    await sleep(200);
    const later = fake.typedInto(PID).length - takenAtAnswer.length;
    assert.ok(later <= 5, `≤ 5 characters arrived after the answer (${later})`);
    assert.ok(takenAtAnswer.length > 0 && takenAtAnswer.length < TEXT.length, `stopped part way (${takenAtAnswer.length} of ${TEXT.length})`);
    await desktop.close();
  });

  it('should call an app that stops taking in input not responding, saying how much it took', async () => {
    const { fake, desktop } = setup(1);
    setTimeout(() => (fake.inputOf(PID).hung = true), 30);
    const started = Date.now();
    const error = await guarded(desktop, () => desktop.typeText(TEXT.repeat(3), createProgress({ timeoutMs: 20_000 })).catch((e: unknown) => e));
    assert.ok(isTandemError(error, 'not-responding'), String(error));
    assert.ok(Date.now() - started < 3_000);
    const handled = (error as { details?: { handled?: number } }).details?.handled ?? -1;
    assert.ok(handled > 0 && handled < TEXT.length * 3, `details say how much was taken in (${handled})`);
    await desktop.close();
  });

  it('should type at a fixed pace into an app that answers no accessibility request, and say so', async () => {
    const { fake, desktop } = setup(0);
    fake.inputOf(PID).axSilent = true;
    const logs: string[] = [];
    await guarded(desktop, () => desktop.typeText('hello there', createProgress({ timeoutMs: 10_000, log: (line) => logs.push(line) })));
    await sleep(20);
    assert.equal(fake.typedInto(PID), 'hello there');
    assert.ok(logs.some((line) => /does not answer accessibility requests: input is sent at a fixed pace/.test(line)), logs.join('\n'));
    await desktop.close();
  });

  it('should pass its own events through its own guard (counted), while the person’s keys are held back', async () => {
    const { fake, desktop } = setup(1);
    const human: string[] = [];
    const guard = await desktop.engageGuard({ onEscape: () => human.push('esc'), onHumanInput: (kind) => human.push(kind), onLost: () => human.push('lost') }, createProgress({ timeoutMs: 5_000 }));
    try {
      const typing = desktop.typeText('agent', createProgress({ timeoutMs: 10_000 }));
      fake.humanKey(0, 0n, 'z');
      await typing;
      fake.humanKey(0x35);
      await sleep(50);
      assert.equal(fake.typedInto(PID), 'agent', "the agent's text arrived, the person's z did not");
      assert.deepEqual(human, ['key', 'key', 'esc', 'key'], "the z's down and up swallowed and counted, Esc's down cancels, its up is held back");
    } finally {
      await guard.release();
    }
    fake.humanKey(0, 0n, 'y');
    await sleep(50);
    assert.equal(fake.typedInto(PID), 'agenty', 'after the release the person types again');
    await desktop.close();
  });

  it('should wait for the app before a click counts as done', async () => {
    const { fake, desktop } = setup(40);
    fake.addApp(PID, { role: 'AXApplication', title: 'Editor', children: [{ role: 'AXWindow', position: { x: 0, y: 0 }, size: { width: 500, height: 500 } }] });
    await guarded(desktop, () => desktop.click({ x: 10, y: 10 }, { button: 'left', count: 1, modifiers: [] }, createProgress({ timeoutMs: 5_000 })));
    const input = fake.processInput(PID);
    assert.equal(input.inbox.length, 0, 'the click was handled when click() resolved');
    assert.ok(input.handled.some((e) => e.type === 1) && input.handled.some((e) => e.type === 2));
    await desktop.close();
  });

  it('should drag as a press, dragged events along the path and a release, handled by the app when drag() resolves', async () => {
    const { fake, desktop } = setup(1);
    await guarded(desktop, () => desktop.drag({ x: 10, y: 10 }, { x: 90, y: 50 }, { button: 'left', modifiers: ['shift'], durationMs: 0 }, createProgress({ timeoutMs: 5_000 })));
    const input = fake.processInput(PID);
    assert.equal(input.inbox.length, 0, 'every event was handled when drag() resolved');
    assert.deepEqual(fake.posted.map((e) => e.type), [5, 1, ...Array<number>(8).fill(6), 2], 'move, down, eight dragged events, up');
    assert.deepEqual(fake.posted.at(-1)?.location, { x: 90, y: 50 });
    assert.ok(fake.posted.slice(1).every((e) => e.flags === 0x20000n), 'shift held in every event of the drag');
    await desktop.close();
  });

  it('should release the button at once when a drag is cancelled, and send nothing after it', async () => {
    const { fake, desktop } = setup(1);
    const controller = new AbortController();
    await guarded(desktop, async () => {
      const dragging = desktop.drag({ x: 10, y: 10 }, { x: 500, y: 10 }, { button: 'left', modifiers: [], durationMs: 2_000 }, createProgress({ timeoutMs: 10_000, signal: controller.signal }));
      while (fake.posted.filter((e) => e.type === 6).length < 5) await sleep(2);
      controller.abort();
      await assert.rejects(dragging);
    });
    const types = fake.posted.map((e) => e.type);
    assert.equal(types.at(-1), 2, `the last event posted is the release: ${types.join(',')}`);
    assert.equal(types.filter((t) => t === 1).length, types.filter((t) => t === 2).length, 'one release for the press');
    assert.ok(types.filter((t) => t === 6).length < 100, 'the drag stopped part way');
    const postedAtAnswer = fake.posted.length;
    await sleep(100);
    assert.equal(fake.posted.length, postedAtAnswer, 'nothing posted after the answer');
    await desktop.close();
  });
});
