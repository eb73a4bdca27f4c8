import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TandemError, isTandemError } from '../../src/core/errors.js';
import { raceDeadline } from '../../src/backends/linux/atspiBus.js';
import { mapAtspiError } from '../../src/backends/linux/atspiErrors.js';
import { isWindowRelativeToolkit } from '../../src/backends/linux/atspiTree.js';

const never = (): Promise<never> => new Promise(() => {});

test('should give up on a call that never answers once the deadline passes, as a timeout', async () => {
  const error = await raceDeadline(never(), Date.now() + 20, undefined, 'GetItems').catch((reason: unknown) => reason);
  const mapped = mapAtspiError(error, { what: 'read the tree' });
  assert.equal(mapped.code, 'timeout');
  assert.match(mapped.message, /did not answer in time/);
});

test('should give up at once when the action is cancelled, with the cancel reason', async () => {
  const controller = new AbortController();
  const pending = raceDeadline(never(), Date.now() + 60_000, controller.signal, 'DoAction');
  controller.abort(new TandemError('cancelled', 'Esc pressed'));
  await assert.rejects(pending, (error) => isTandemError(error, 'cancelled'));
});

test('should pass answers and D-Bus errors through', async () => {
  assert.equal(await raceDeadline(Promise.resolve(42), Date.now() + 1000, undefined, 'Get'), 42);
  const failure = { type: 'org.freedesktop.DBus.Error.UnknownObject', text: 'gone' };
  await assert.rejects(raceDeadline(Promise.reject(failure), Date.now() + 1000, undefined, 'Get'), (error) => error === failure);
});

test('should treat GTK 4 as reporting window-relative geometry, GTK 3 not', () => {
  assert.equal(isWindowRelativeToolkit({ name: 'GTK', version: '4.8.3' }), true);
  assert.equal(isWindowRelativeToolkit({ name: 'gtk', version: '3.24.38' }), false);
  assert.equal(isWindowRelativeToolkit({ name: 'Qt', version: '4.1' }), false);
});
