import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TandemError } from '../../src/core/errors.js';
import { mapAtspiError } from '../../src/backends/linux/atspiErrors.js';
import { modelText } from '../support/modelText.js';

const dbusError = (type: string, text = 'details'): { type: string; text: string } => ({ type, text });
const context = { what: 'press the PushButton "OK"' };

test('should report a vanished element as stale and say to refresh', () => {
  const error = mapAtspiError(dbusError('org.freedesktop.DBus.Error.UnknownObject'), context);
  assert.equal(error.code, 'stale-element');
  assert.match(error.message, /element is gone/);
  assert.match(modelText(error), /^hint: That element_index is from an older tree\. Call refresh_traversal/m);
  assert.match(error.message, /press the PushButton "OK"/);
});

test('should report missing replies as timeouts', () => {
  for (const name of ['org.freedesktop.DBus.Error.NoReply', 'org.freedesktop.DBus.Error.Timeout']) {
    assert.equal(mapAtspiError(dbusError(name), context).code, 'timeout', name);
  }
});

test('should report a departed app as app-gone', () => {
  for (const name of ['org.freedesktop.DBus.Error.ServiceUnknown', 'org.freedesktop.DBus.Error.Disconnected', 'org.freedesktop.DBus.Error.NameHasNoOwner']) {
    assert.equal(mapAtspiError(dbusError(name), context).code, 'app-gone', name);
  }
});

test('should report missing interfaces as unsupported and keep unknown errors internal', () => {
  assert.equal(mapAtspiError(dbusError('org.freedesktop.DBus.Error.UnknownMethod'), context).code, 'unsupported');
  const other = mapAtspiError(dbusError('org.example.Weird', 'boom'), context);
  assert.equal(other.code, 'internal');
  assert.match(other.message, /org\.example\.Weird: boom/);
  assert.equal(mapAtspiError(new Error('socket closed'), context).code, 'internal');
});

test('should pass Tandem errors through unchanged', () => {
  const cancelled = new TandemError('cancelled', 'Esc');
  assert.equal(mapAtspiError(cancelled, context), cancelled);
});
