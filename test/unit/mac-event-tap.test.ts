import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventTapSession, type TapMessage } from '../../src/backends/macos/cgEventTapSession.js';
import { TANDEM_EVENT_MARKER } from '../../src/backends/macos/cgEventTapPolicy.js';
import { TapShared, TapState } from '../../src/backends/macos/cgEventTapShared.js';
import { FakeMacNative } from './mac-fake-native.js';

type TapFn = (proxy: bigint | null, type: number, event: bigint | null, info: bigint | null) => bigint | null;

function start(overrides: Partial<{ heartbeatTimeoutMs: number; maxLifetimeMs: number }> = {}) {
  const fake = new FakeMacNative();
  const messages: TapMessage[] = [];
  let clock = 1000;
  const shared = new TapShared();
  const session = new EventTapSession(fake, { marker: TANDEM_EVENT_MARKER, sliceSeconds: 0.05, heartbeatTimeoutMs: 10_000, maxLifetimeMs: 120_000, now: () => clock, shared, ...overrides }, (m) => messages.push(m));
  const started = session.start();
  const callback = [...fake.registered.values()][0] as unknown as TapFn;
  return { fake, messages, session, started, callback, shared, tick: (ms: number) => (clock += ms) };
}

test('should create an enabled tap on the run loop and report ready', () => {
  const { fake, messages, started } = start();
  assert.equal(started, true);
  assert.deepEqual(messages, [{ type: 'ready' }]);
  assert.equal(fake.tapEnabled, true);
  assert.equal(fake.runLoopSources.size, 1);
});

test('should swallow human events, pass tagged ones and turn plain Esc into a cancel', () => {
  const { fake, messages, callback } = start();
  const click = fake.makeEvent({ type: 1 });
  assert.equal(callback(null, 1, click, null), null);
  const ours = fake.makeEvent({ type: 1 });
  fake.cg.CGEventSetIntegerValueField(ours, 42, TANDEM_EVENT_MARKER);
  assert.equal(callback(null, 1, ours, null), ours);
  const esc = fake.makeEvent({ type: 10, keycode: 0x35 });
  assert.equal(callback(null, 10, esc, null), null);
  const cmdEsc = fake.makeEvent({ type: 10, keycode: 0x35, flags: 0x100000n });
  assert.equal(callback(null, 10, cmdEsc, null), null);
  assert.deepEqual(messages.slice(1), [{ type: 'human', kind: 'pointer' }, { type: 'escape' }, { type: 'human', kind: 'key' }]);
});

test('should re-enable the tap when macOS disabled it, passing the notice through', () => {
  const { fake, messages, callback } = start();
  fake.tapEnabled = false;
  assert.equal(callback(null, 0xfffffffe, null, null), null);
  assert.equal(fake.tapEnabled, true);
  assert.deepEqual(messages.at(-1), { type: 'reenabled', cause: 'timeout' });
});

test('should fail open but not silently: a throw inside the callback passes the event, and the session ends at the next slice', () => {
  const { fake, messages, session, callback } = start();
  const event = fake.makeEvent({ type: 10, keycode: 0 });
  fake.cg.CGEventGetFlags = () => {
    throw new Error('boom');
  };
  assert.equal(callback(null, 10, event, null), event);
  assert.equal(session.pump(), false);
  assert.deepEqual(messages.at(-1), { type: 'released', reason: 'callback-failed' });
  assert.equal(fake.tapEnabled, false);
});

test('should tear the tap down exactly once on release', () => {
  const { fake, messages, session } = start();
  session.stop('release');
  session.stop('release');
  assert.equal(fake.tapEnabled, false);
  assert.equal(fake.runLoopSources.size, 0);
  assert.equal(fake.invalidatedPorts.length, 1);
  assert.equal(fake.registered.size, 0, 'the callback was unregistered');
  assert.deepEqual(messages.filter((m) => m.type === 'released'), [{ type: 'released', reason: 'release' }]);
  assert.equal(session.pump(), false);
  assert.deepEqual(fake.leaks(), []);
});

test('should release itself when the heartbeat stops or the lifetime cap passes', () => {
  const lost = start({ heartbeatTimeoutMs: 1000 });
  assert.equal(lost.session.pump(), true);
  lost.tick(600);
  lost.session.heartbeat();
  lost.tick(600);
  assert.equal(lost.session.pump(), true, 'a heartbeat 600 ms ago keeps it');
  lost.tick(1500);
  assert.equal(lost.session.pump(), false);
  assert.deepEqual(lost.messages.at(-1), { type: 'released', reason: 'heartbeat-lost' });
  assert.equal(lost.fake.tapEnabled, false);

  const capped = start({ maxLifetimeMs: 5000 });
  for (let i = 0; i < 4; i++) {
    capped.tick(1000);
    capped.session.heartbeat();
    assert.equal(capped.session.pump(), true);
  }
  capped.tick(2000);
  capped.session.heartbeat();
  assert.equal(capped.session.pump(), false);
  assert.deepEqual(capped.messages.at(-1), { type: 'released', reason: 'lifetime' });
  assert.deepEqual(capped.fake.leaks(), []);
});

test('should report a tap macOS refused (no Accessibility) and leave nothing registered', () => {
  const fake = new FakeMacNative();
  fake.tapAllowed = false;
  const messages: TapMessage[] = [];
  const session = new EventTapSession(fake, { marker: TANDEM_EVENT_MARKER, sliceSeconds: 0.05, heartbeatTimeoutMs: 1000, maxLifetimeMs: 1000, shared: new TapShared() }, (m) => messages.push(m));
  assert.equal(session.start(), false);
  assert.equal(messages[0].type, 'failed');
  assert.match((messages[0] as { reason: string }).reason, /Accessibility/);
  assert.equal(fake.registered.size, 0);
});

test('should never create the tap when release came before start', () => {
  const fake = new FakeMacNative();
  const messages: TapMessage[] = [];
  const session = new EventTapSession(fake, { marker: TANDEM_EVENT_MARKER, sliceSeconds: 0.05, heartbeatTimeoutMs: 1000, maxLifetimeMs: 1000, shared: new TapShared() }, (m) => messages.push(m));
  session.stop('release');
  assert.equal(session.start(), false);
  assert.equal(fake.tapEnabled, false);
  assert.equal(fake.registered.size, 0);
  assert.deepEqual(messages, [{ type: 'released', reason: 'release' }]);
});

test('should hand the tap over when the engine took it: pass every event, touch nothing', () => {
  const { fake, messages, session, callback, shared } = start();
  assert.equal(shared.tap !== null, true, 'the pointer is published');
  assert.equal(shared.takeOver(), TapState.live, 'the takeover wins while the worker owns the tap');
  const key = fake.makeEvent({ type: 10, keycode: 0 });
  assert.equal(callback(null, 10, key, null), key, 'the callback passes the person\'s key');
  assert.equal(session.pump(), false);
  assert.deepEqual(messages.at(-1), { type: 'released', reason: 'taken-over' });
  assert.equal(fake.tapEnabled, true, 'the worker left the tap to the engine (which disables it)');
  assert.equal(fake.invalidatedPorts.length, 0);
  assert.equal(fake.registered.size, 1, 'the callback stays registered: the tap may still call it');
});

test('should keep a takeover out once the worker began its own teardown', () => {
  const { session, shared, fake } = start();
  session.stop('release');
  assert.equal(shared.state(), TapState.disabled);
  assert.equal(shared.takeOver(), TapState.disabled, 'nothing left for the engine to do');
  assert.deepEqual(fake.leaks(), []);
});

test('should disable a tap the engine took over while it was being created', () => {
  const fake = new FakeMacNative();
  const shared = new TapShared();
  const create = fake.cg.CGEventTapCreate;
  fake.cg.CGEventTapCreate = (...args) => {
    const tap = create(...args);
    fake.tapEnabled = true; // created enabled (?)
    shared.takeOver(); // the engine gave up on the worker right now, before the pointer was out
    return tap;
  };
  const messages: TapMessage[] = [];
  const session = new EventTapSession(fake, { marker: TANDEM_EVENT_MARKER, sliceSeconds: 0.05, heartbeatTimeoutMs: 1000, maxLifetimeMs: 1000, shared }, (m) => messages.push(m));
  assert.equal(session.start(), false);
  assert.equal(fake.tapEnabled, false);
  assert.equal(fake.invalidatedPorts.length, 1);
  assert.deepEqual(messages, []);
});

test('should never create the tap when the engine took over before start', () => {
  const fake = new FakeMacNative();
  const shared = new TapShared();
  shared.takeOver();
  const session = new EventTapSession(fake, { marker: TANDEM_EVENT_MARKER, sliceSeconds: 0.05, heartbeatTimeoutMs: 1000, maxLifetimeMs: 1000, shared }, () => undefined);
  assert.equal(session.start(), false);
  assert.equal(fake.registered.size, 0);
});
