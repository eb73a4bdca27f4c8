// The macOS guard as the engine's thread sees it, with the real thread code running over the fake
// binding layer (FakeTapWorker): a guard that stops holding the input by itself is reported at
// once (GuardListener.onLost), and a tap whose worker crashed, exited or hangs is disabled from
// the engine's thread instead of holding the person's input until macOS gives up on it.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { engageTapGuard, type EngagedTapGuard, type TapGuardOptions } from '../../src/backends/macos/cgEventTapGuard.js';
import { TapThreadHost } from '../../src/backends/macos/cgEventTapHost.js';
import { TANDEM_EVENT_MARKER } from '../../src/backends/macos/cgEventTapPolicy.js';
import { createProgress } from '../../src/core/progress.js';
import { FakeMacNative } from './mac-fake-native.js';
import { FakeTapWorker } from './mac-fake-tap-worker.js';

type TapFn = (proxy: bigint | null, type: number, event: bigint | null, info: bigint | null) => bigint | null;

const FAST: TapGuardOptions = { heartbeatTimeoutMs: 5_000, maxLifetimeMs: 60_000, heartbeatEveryMs: 20, startTimeoutMs: 2_000, releaseAckMs: 150 };

async function until(condition: () => boolean, what: string, ms = 3_000): Promise<void> {
  const giveUpAt = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > giveUpAt) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('macOS guard: lost and left-behind taps', () => {
  let guard: EngagedTapGuard | undefined;
  afterEach(async () => guard?.release());

  async function engage(options: Partial<TapGuardOptions> = {}) {
    const fake = new FakeMacNative();
    const lost: string[] = [];
    const escapes: number[] = [];
    let worker!: FakeTapWorker;
    guard = await engageTapGuard(
      { onEscape: () => escapes.push(1), onHumanInput: () => undefined, onLost: (reason) => lost.push(reason) },
      createProgress({ timeoutMs: 10_000 }),
      { ...FAST, ...options },
      { native: fake, host: new TapThreadHost((data) => (worker = new FakeTapWorker(fake, data))) },
    );
    const callback = [...fake.registered.values()][0] as unknown as TapFn;
    const humanKey = (): bigint | null => callback(null, 10, fake.makeEvent({ type: 10, keycode: 0 }), null);
    return { fake, lost, escapes, worker, guard, humanKey, callback };
  }

  it('should report no loss on an ordinary release, and leave nothing allocated', async () => {
    const { fake, lost, worker, guard: g, humanKey } = await engage();
    assert.equal(fake.tapEnabled, true);
    assert.equal(humanKey(), null, 'the person is held back while engaged');
    assert.equal(g.holding, true);
    await g.release();
    assert.deepEqual(lost, []);
    assert.equal(fake.tapEnabled, false);
    assert.equal(worker.terminated, false, 'the thread stays for the next engagement');
    assert.equal(g.holding, false);
    assert.deepEqual(fake.leaks().filter((l) => !l.startsWith('event')), [], 'tap, source and callback freed by the worker');
  });

  it('should tell core at once when the worker releases the tap at its lifetime cap', async () => {
    const { fake, lost, guard: g } = await engage({ maxLifetimeMs: 100 });
    await until(() => lost.length > 0, 'onLost');
    assert.match(lost[0], /lifetime cap/);
    assert.equal(fake.tapEnabled, false);
    assert.equal(g.holding, false);
    await g.release();
    assert.equal(lost.length, 1, 'reported once');
  });

  it('should tell core when the worker heard no heartbeat and let go', async () => {
    const { lost } = await engage({ heartbeatTimeoutMs: 80, heartbeatEveryMs: 60_000 });
    await until(() => lost.length > 0, 'onLost');
    assert.match(lost[0], /heard nothing from the engine/);
  });

  it('should report macOS disabling the tap for good (re-enabling did not take)', async () => {
    const { fake, lost, callback } = await engage();
    fake.cg.CGEventTapEnable = () => undefined; // the tap stays off whatever we ask
    fake.tapEnabled = false;
    assert.notEqual(callback(null, 0xfffffffe, null, null), undefined);
    await until(() => lost.length > 0, 'onLost');
    assert.match(lost[0], /macOS disabled the event tap/);
  });

  it('should disable the tap from the main thread when the worker crashes with it enabled, and pass events from then on', async () => {
    const { fake, lost, worker, humanKey } = await engage();
    assert.equal(fake.tapEnabled, true);
    worker.crash('boom');
    await until(() => lost.length > 0, 'onLost');
    assert.deepEqual(lost, ['the guard thread failed: boom'], 'one report, though the thread also exited');
    assert.equal(fake.tapEnabled, false, 'disabled by the main thread');
    assert.equal(fake.invalidatedPorts.length, 1);
    assert.notEqual(humanKey(), null, "the callback, should it still run, passes the person's event");
  });

  it('should take over the tap of a worker that exits without tearing it down', async () => {
    const { fake, lost, worker } = await engage();
    worker.exitNow();
    await until(() => lost.length > 0, 'onLost');
    assert.deepEqual(lost, ['the guard thread exited']);
    assert.equal(fake.tapEnabled, false);
  });

  it('should disable the tap itself when a stuck worker does not confirm the release in time', async () => {
    const { fake, lost, worker, guard: g, humanKey } = await engage();
    worker.stuck = true;
    const started = Date.now();
    await g.release();
    assert.ok(Date.now() - started < 1_000, 'release does not hang on the worker');
    assert.equal(fake.tapEnabled, false, 'disabled from the main thread');
    assert.equal(fake.invalidatedPorts.length, 1);
    assert.equal(worker.terminated, true);
    assert.deepEqual(lost, [], 'a release is not a loss');
    assert.notEqual(humanKey(), null, 'events pass from the moment of the takeover');
  });

  it('should count the own events the tap lets through, for the paced-input barrier', async () => {
    const { fake, guard: g, callback } = await engage();
    const ours = (type: number): bigint => {
      const event = fake.makeEvent({ type });
      fake.cg.CGEventSetIntegerValueField(event, 42, TANDEM_EVENT_MARKER);
      return event;
    };
    for (const type of [10, 11, 5, 1, 2]) callback(null, type, ours(type), null);
    callback(null, 10, fake.makeEvent({ type: 10, keycode: 0 }), null); // the person's: not counted
    assert.equal(g.oursSeen(), 4, 'key down/up and button down/up; the move is not counted');
  });
});
