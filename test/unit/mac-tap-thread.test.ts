// The macOS guard on a real Mac's edge cases, with the real thread code over the fake binding
// (FakeTapWorker): one guard thread serves every engagement (engaged and released by message,
// never terminated per call, koffi #274); secure event input (which hides Esc from the tap) is
// refused before a call and ends one during it; each gap macOS left by disabling the tap is
// reported; a callback that throws ends the engagement instead of failing open silently; and
// every engagement frees its tap, run-loop source and callback.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { engageTapGuard, type EngagedTapGuard, type TapGuardOptions } from '../../src/backends/macos/cgEventTapGuard.js';
import type { GuardLostKind } from '../../src/core/desktop.js';
import { createProgress } from '../../src/core/progress.js';
import { FakeMacNative } from './mac-fake-native.js';
import { fakeTapHost } from './mac-fake-tap-worker.js';

type TapFn = (proxy: bigint | null, type: number, event: bigint | null, info: bigint | null) => bigint | null;

const FAST: TapGuardOptions = { heartbeatTimeoutMs: 5_000, maxLifetimeMs: 60_000, heartbeatEveryMs: 20, startTimeoutMs: 2_000, releaseAckMs: 150 };
const TAP_DISABLED_BY_TIMEOUT = 0xfffffffe;
const TAP_DISABLED_BY_USER_INPUT = 0xffffffff;

async function until(condition: () => boolean, what: string, ms = 3_000): Promise<void> {
  const giveUpAt = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > giveUpAt) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** One process's guard: a fake binding, the host, and every worker it spawned. */
function macGuard() {
  const { fake, host, workers } = fakeTapHost();
  const lost: Array<{ reason: string; kind?: GuardLostKind }> = [];
  let leaked = 0;
  const engage = (options: Partial<TapGuardOptions> = {}, native: FakeMacNative | null = fake): Promise<EngagedTapGuard> =>
    engageTapGuard(
      { onEscape: () => undefined, onHumanInput: () => undefined, onLost: (reason, kind) => lost.push({ reason, kind }), onInputLeaked: () => leaked++ },
      createProgress({ timeoutMs: 10_000 }),
      { ...FAST, ...options },
      { native, host },
    );
  /** The callback of the tap engaged last (the window server calls it with every event). */
  const callback = (): TapFn => [...fake.registered.values()].at(-1) as unknown as TapFn;
  const humanKey = (): bigint | null => callback()(null, 10, fake.makeEvent({ type: 10, keycode: 0 }), null);
  return { fake, host, workers, lost, engage, callback, humanKey, leaked: () => leaked };
}

describe('macOS guard: one thread, secure input, gaps and failures', () => {
  let guards: EngagedTapGuard[] = [];
  afterEach(async () => {
    await Promise.all(guards.map((g) => g.release()));
    guards = [];
  });

  it('should engage and release several times by message on one thread, freeing each tap, source and callback', async () => {
    const { fake, workers, engage, humanKey } = macGuard();
    for (let round = 1; round <= 3; round++) {
      const guard = await engage();
      assert.equal(fake.tapEnabled, true, `round ${round}: the tap holds`);
      assert.equal(humanKey(), null, `round ${round}: the person's key is held back`);
      await guard.release();
      assert.equal(fake.tapEnabled, false, `round ${round}: released`);
      assert.equal(fake.runLoopSources.size, 0, `round ${round}: the run-loop source was removed`);
      assert.equal(fake.registered.size, 0, `round ${round}: the callback was unregistered`);
      assert.deepEqual(fake.leaks().filter((l) => !l.startsWith('event')), [], `round ${round}: tap and source released`);
    }
    assert.equal(workers.length, 1, 'one thread for every engagement');
    assert.equal(workers[0].terminated, false, 'never terminated per call');
    assert.equal(fake.invalidatedPorts.length, 3, 'each tap invalidated');
    assert.equal(fake.unregistered.length, 3, 'each callback unregistered');
    assert.deepEqual(
      workers[0].commands.map((c) => c.type).filter((t) => t !== 'heartbeat'),
      ['engage', 'release', 'engage', 'release', 'engage', 'release'],
    );
  });

  it('should spawn a new thread only after the old one exited', async () => {
    const { workers, engage, lost } = macGuard();
    const first = await engage();
    workers[0].exitNow();
    await until(() => lost.length > 0, 'onLost');
    await first.release();
    guards.push(await engage());
    assert.equal(workers.length, 2);
  });

  it('should refuse to engage while secure input is on, before holding anything', async () => {
    const { fake, workers, engage } = macGuard();
    fake.secureInput = true;
    await assert.rejects(engage(), (error: Error & { code?: string; details?: { reason?: string } }) => {
      assert.equal(error.code, 'guard-unavailable');
      assert.equal(error.details?.reason, 'secure-input');
      assert.match(error.message, /Esc/);
      return true;
    });
    assert.equal(workers.length, 0, 'refused on the engine thread: no thread was started');
    assert.equal(fake.registered.size, 0, 'no tap was made');
  });

  it('should refuse in the guard thread too when secure input came on just before the tap', async () => {
    const { fake, engage, workers } = macGuard();
    fake.secureInput = true;
    // No bindings on the engine's thread: only the thread's own check stands between.
    await assert.rejects(engage({}, null), (error: Error & { code?: string; details?: { reason?: string } }) => error.code === 'guard-unavailable' && error.details?.reason === 'secure-input');
    assert.equal(fake.registered.size, 0, 'no tap was made');
    fake.secureInput = false;
    const guard = await engage();
    guards.push(guard);
    assert.equal(workers.length, 1, 'the thread serves the next engagement');
    assert.equal(guard.holding, true);
  });

  it('should end the engagement as lost, kind secure-input, when secure input comes on during a call', async () => {
    const { fake, engage, lost, humanKey } = macGuard();
    const guard = await engage();
    guards.push(guard);
    assert.equal(humanKey(), null);
    fake.secureInput = true;
    await until(() => lost.length > 0, 'onLost');
    assert.equal(lost.length, 1);
    assert.equal(lost[0].kind, 'secure-input');
    assert.match(lost[0].reason, /secure keyboard entry/);
    assert.equal(fake.tapEnabled, false);
    assert.equal(fake.registered.size, 0, 'the callback was unregistered');
    assert.equal(guard.holding, false);
  });

  it('should count and report each gap macOS left by disabling the tap before it came back on', async () => {
    const { fake, engage, lost, callback, leaked } = macGuard();
    guards.push(await engage());
    fake.tapEnabled = false;
    callback()(null, TAP_DISABLED_BY_TIMEOUT, null, null);
    fake.tapEnabled = false;
    callback()(null, TAP_DISABLED_BY_USER_INPUT, null, null);
    await until(() => leaked() === 2, 'two onInputLeaked');
    assert.equal(fake.tapEnabled, true, 're-enabled');
    assert.deepEqual(lost, [], 'a gap that closed again is not a loss');
  });

  it('should stop with a loss, not fail open silently, when the tap callback throws', async () => {
    const { fake, engage, lost, humanKey } = macGuard();
    const guard = await engage();
    guards.push(guard);
    fake.cg.CGEventGetFlags = () => {
      throw new Error('boom');
    };
    assert.notEqual(humanKey(), null, 'the event the callback failed on passes: never eaten by our bug');
    await until(() => lost.length > 0, 'onLost');
    assert.match(lost[0].reason, /callback failed/);
    assert.equal(lost[0].kind, undefined);
    assert.equal(fake.tapEnabled, false, 'the tap was taken down');
    assert.equal(guard.holding, false);
  });

  it('should answer release in bounded time from a stuck thread, then refuse every later engagement', async () => {
    const { fake, workers, engage, humanKey } = macGuard();
    const guard = await engage();
    workers[0].stuck = true;
    await guard.release();
    assert.equal(fake.tapEnabled, false, 'disabled from the engine thread');
    assert.notEqual(humanKey(), null, "the person's input passes");
    assert.equal(workers[0].terminated, true, 'ended without being waited on');
    await assert.rejects(engage(), (error: Error & { code?: string; details?: { reason?: string } }) => error.code === 'guard-unavailable' && error.details?.reason === 'guard-thread-stuck');
    assert.equal(workers.length, 1, 'no new thread after one that stopped answering');
  });
});
