import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress } from '../../src/core/progress.js';
import { AxSession } from '../../src/backends/macos/axElement.js';
import { waitForQuietAx, SETTLE_NOTIFICATIONS } from '../../src/backends/macos/axObserverSettle.js';
import { FakeMacNative } from './mac-fake-native.js';

function setup() {
  const fake = new FakeMacNative();
  fake.addApp(7, { role: 'AXApplication', title: 'Calculator' });
  return { fake, session: new AxSession(fake) };
}

test('should wait until notifications stop, then clean the observer up', async () => {
  const { fake, session } = setup();
  let clock = 0;
  let runs = 0;
  fake.onRunLoop = () => {
    clock += 10;
    runs++;
    // The app changes for the first 5 slices (50 ms), then goes quiet.
    if (runs <= 5) fake.fireObserver(fake.liveObservers()[0]);
  };
  const outcome = await waitForQuietAx(session, 7, 40, 1000, createProgress({ timeoutMs: 5000 }), { pumpRunLoop: true, now: () => clock });
  assert.equal(outcome, 'quiet');
  assert.ok(clock >= 90, `returned at ${clock} ms, before 40 ms of quiet after the last change at 50 ms`);
  assert.equal(fake.liveObservers().length, 0, 'observer released');
  assert.equal(fake.registered.size, 0, 'callback unregistered');
  assert.equal(fake.runLoopSources.size, 0, 'run loop source removed');
  session.close();
  assert.deepEqual(fake.leaks(), []);
});

test('should stop at the cap when the app keeps changing', async () => {
  const { fake, session } = setup();
  let clock = 0;
  fake.onRunLoop = () => {
    clock += 10;
    fake.fireObserver(fake.liveObservers()[0]);
  };
  assert.equal(await waitForQuietAx(session, 7, 40, 200, createProgress({ timeoutMs: 5000 }), { pumpRunLoop: true, now: () => clock }), 'cap');
  assert.equal(fake.liveObservers().length, 0);
});

test("should answer unsupported when the observer can't be created", async () => {
  const { fake, session } = setup();
  fake.observerAllowed = false;
  assert.equal(await waitForQuietAx(session, 7, 40, 200, createProgress({ timeoutMs: 5000 }), { pumpRunLoop: true }), 'unsupported');
  assert.equal(fake.registered.size, 0);
});

test('should listen to value, focus, window and menu notifications', () => {
  for (const name of ['AXValueChanged', 'AXFocusedUIElementChanged', 'AXWindowCreated', 'AXMenuOpened']) {
    assert.ok((SETTLE_NOTIFICATIONS as readonly string[]).includes(name), name);
  }
});
