// The macOS guard hears the person's Enter (the answer to a confirm_before question): the pure
// classification, and the real thread code over the fake binding delivering it to the listener.
// Written against Apple's documented keycodes (kVK_Return 0x24, kVK_ANSI_KeypadEnter 0x4C); not run on a Mac.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { engageTapGuard, type EngagedTapGuard, type TapGuardOptions } from '../../src/backends/macos/cgEventTapGuard.js';
import { TapThreadHost } from '../../src/backends/macos/cgEventTapHost.js';
import { decideTapEvent, HARDWARE_SOURCE_PID, HID_SYSTEM_SOURCE_STATE, TANDEM_EVENT_MARKER } from '../../src/backends/macos/cgEventTapPolicy.js';
import { createProgress } from '../../src/core/progress.js';
import { FakeMacNative } from './mac-fake-native.js';
import { FakeTapWorker } from './mac-fake-tap-worker.js';

type TapFn = (proxy: bigint | null, type: number, event: bigint | null, info: bigint | null) => bigint | null;

/** A key from the keyboard itself: kCGEventSourceStateID is kCGEventSourceStateHIDSystemState (1), and no process posted it (kCGEventSourceUnixProcessID 0). */
const human = { keycode: 0, flags: 0n, userData: 0n, sourceStateId: HID_SYSTEM_SOURCE_STATE, sourcePid: HARDWARE_SOURCE_PID };
const KEY_DOWN = 10;
const KEY_UP = 11;
const FAST: TapGuardOptions = { heartbeatTimeoutMs: 5_000, maxLifetimeMs: 60_000, heartbeatEveryMs: 20, startTimeoutMs: 2_000, releaseAckMs: 150 };

describe('macOS guard: the person\'s Enter', () => {
  let guard: EngagedTapGuard | undefined;
  afterEach(async () => guard?.release());

  it('should take plain Return and keypad Enter key downs as Enter, and nothing else', () => {
    assert.deepEqual(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24 }), { action: 'enter' });
    assert.deepEqual(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x4c }), { action: 'enter' });
    // Caps Lock (maskAlphaShift) and the non-coalesced bit are no held modifiers; Cmd, Shift, Option, Control are.
    assert.deepEqual(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24, flags: 0x10000n | 0x100n }), { action: 'enter' });
    for (const modifier of [0x20000n, 0x40000n, 0x80000n, 0x100000n]) {
      assert.equal(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24, flags: modifier }).action, 'swallow', `flag ${modifier.toString(16)}`);
    }
    assert.equal(decideTapEvent({ ...human, type: KEY_UP, keycode: 0x24 }).action, 'swallow');
    assert.equal(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x31 }).action, 'swallow', 'Space is no answer');
    // Tandem's own Return (it carries the marker) passes: it is no answer.
    assert.equal(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24, userData: TANDEM_EVENT_MARKER }).action, 'pass-ours');
  });

  it('should take keypad Enter with its keypad flag, and fn+Return (a laptop\'s Enter), as Enter', () => {
    // maskNumericPad (0x200000) is set on every keypad key: "key events from the numeric keypad area".
    assert.deepEqual(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x4c, flags: 0x200000n }), { action: 'enter' });
    // maskSecondaryFn (0x800000): Apple laptops type keypad Enter as fn+Return.
    assert.deepEqual(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x4c, flags: 0x800000n | 0x200000n }), { action: 'enter' });
  });

  it('should not take a held Return\'s repeats, or another process\'s posted Return, as the person\'s answer', () => {
    assert.equal(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24, autorepeat: true }).action, 'swallow', 'a repeat of a Return held since before the question');
    // Another process's event: its own source state (combined session 0, or a private table), no marker.
    assert.equal(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24, sourceStateId: 0n }).action, 'swallow');
    assert.equal(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x4c, sourceStateId: 0x1234n }).action, 'swallow');
    assert.equal(decideTapEvent({ type: KEY_DOWN, keycode: 0x24, flags: 0n, userData: 0n }).action, 'swallow', 'no source state read: no answer');
    // A posting program that made its source on the HID system state table still names itself as the poster.
    assert.equal(decideTapEvent({ ...human, type: KEY_DOWN, keycode: 0x24, sourcePid: 4242n }).action, 'swallow', "a key-posting tool's Return on the HID state table");
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
    const event = (fields: Array<[number, bigint]>): bigint => {
      const ref = fake.makeEvent({ type: KEY_DOWN, keycode: 0x24 });
      for (const [field, value] of fields) fake.cg.CGEventSetIntegerValueField(ref, field, value);
      return ref as bigint;
    };
    const posted = event([[45, 0n]]);
    assert.equal(callback(null, KEY_DOWN, posted, null), null, "another process's Return is held back");
    assert.equal(callback(null, KEY_DOWN, event([[45, 1n], [41, 4242n]]), null), null, "a posting tool's Return on the HID state table is held back");
    assert.equal(callback(null, KEY_DOWN, event([[45, 1n], [41, 0n], [8, 1n]]), null), null, 'a repeat is held back');
    assert.equal(callback(null, KEY_DOWN, event([[45, 1n], [41, 0n]]), null), null, 'the Enter is held back');
    const release = fake.makeEvent({ type: KEY_UP, keycode: 0x24 });
    assert.equal(callback(null, KEY_UP, release, null), null, "the answering key's release is held back too");
    const ours = fake.makeEvent({ type: KEY_DOWN, keycode: 0x24 });
    fake.cg.CGEventSetIntegerValueField(ours, 42, TANDEM_EVENT_MARKER);
    assert.equal(callback(null, KEY_DOWN, ours, null), ours, "Tandem's own Return passes");
    const giveUpAt = Date.now() + 3_000;
    while (enters.length === 0 && Date.now() < giveUpAt) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.deepEqual(enters, [1], 'one Enter, the person\'s');
    assert.deepEqual(keys, ['key', 'key', 'key'], "the posted Returns and the repeat were held back as keys, not answers; the answer's release is no other input");
  });
});
