// The macOS guard hears the person's Enter (the answer to a confirm_before question): the pure
// classification, and the real thread code over the fake binding delivering it to the listener.
// Written against Apple's documented keycodes (kVK_Return 0x24, kVK_ANSI_KeypadEnter 0x4C); not run on a Mac.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { engageTapGuard, type EngagedTapGuard, type TapGuardOptions } from '../../src/backends/macos/cgEventTapGuard.js';
import { TapThreadHost } from '../../src/backends/macos/cgEventTapHost.js';
import { decideTapEvent, TANDEM_EVENT_MARKER } from '../../src/backends/macos/cgEventTapPolicy.js';
import { createProgress } from '../../src/core/progress.js';
import { FakeMacNative } from './mac-fake-native.js';
import { FakeTapWorker } from './mac-fake-tap-worker.js';

type TapFn = (proxy: bigint | null, type: number, event: bigint | null, info: bigint | null) => bigint | null;

const human = { keycode: 0, flags: 0n, userData: 0n };
const KEY_DOWN = 10;
const KEY_UP = 11;
const FAST: TapGuardOptions = { heartbeatTimeoutMs: 5_000, maxLifetimeMs: 60_000, heartbeatEveryMs: 20, startTimeoutMs: 2_000, releaseAckMs: 150 };

describe('macOS guard: the person\'s Enter', () => {
  let guard: EngagedTapGuard | undefined;
  afterEach(async () => guard?.release());

  it('should take plain Return and keypad Enter key downs as Enter, and nothing else', () => {
    assert.deepEqual(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24 }), { action: 'enter' });
    assert.deepEqual(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x4c }), { action: 'enter' });
    // Caps Lock and device bits are no held modifiers; Cmd or Shift are.
    assert.deepEqual(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24, flags: 0x10000n | 0x100n }), { action: 'enter' });
    assert.equal(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24, flags: 0x100000n }).action, 'swallow');
    assert.equal(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24, flags: 0x20000n }).action, 'swallow');
    assert.equal(decideTapEvent({ ...human, type: KEY_UP, keycode: 0x24 }).action, 'swallow');
    // Tandem's own Return (it carries the marker) passes: it is no answer.
    assert.equal(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24, userData: TANDEM_EVENT_MARKER }).action, 'pass-ours');
  });

  it('should swallow the person\'s Enter and report it to the listener, and a synthetic one not at all', async () => {
    const fake = new FakeMacNative();
    const enters: number[] = [];
    const keys: string[] = [];
    guard = await engageTapGuard(
      { onEscape: () => undefined, onEnter: () => enters.push(1), onHumanInput: (kind) => keys.push(kind), onLost: () => undefined },
      createProgress({ timeoutMs: 10_000 }),
      FAST,
      { native: fake, host: new TapThreadHost((data) => new FakeTapWorker(fake, data)) },
    );
    const callback = [...fake.registered.values()][0] as unknown as TapFn;
    assert.equal(callback(null, KEY_DOWN, fake.makeEvent({ type: KEY_DOWN, keycode: 0x24 }), null), null, 'the Enter is held back');
    const ours = fake.makeEvent({ type: KEY_DOWN, keycode: 0x24 });
    fake.cg.CGEventSetIntegerValueField(ours, 42, TANDEM_EVENT_MARKER);
    assert.equal(callback(null, KEY_DOWN, ours, null), ours, "Tandem's own Return passes");
    const giveUpAt = Date.now() + 3_000;
    while (enters.length === 0 && Date.now() < giveUpAt) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.deepEqual(enters, [1], 'one Enter, the person\'s');
    assert.deepEqual(keys, [], 'no other key reported');
  });
});
