import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TandemError } from '../../src/core/errors.js';
import { AXErrorCode, axErrorName, axErrorToTandem, checkAX } from '../../src/backends/macos/axErrors.js';
import { modelText } from '../support/modelText.js';

test('should map an invalid element to stale-element and tell the model to refresh', () => {
  const error = axErrorToTandem(-25202, { operation: 'pressing [Button] "OK"', app: 'TextEdit' });
  assert.ok(error instanceof TandemError);
  assert.equal(error.code, 'stale-element');
  assert.match(modelText(error), /refresh_traversal/);
  assert.match(error.message, /TextEdit/);
  assert.match(error.message, /kAXErrorInvalidUIElement/);
});

test('should map cannot-complete to a timeout that says the app is busy or hung', () => {
  const error = axErrorToTandem(-25204, { operation: 'reading the tree' });
  assert.equal(error.code, 'timeout');
  assert.match(error.message, /busy or hung/);
});

test('should map API disabled to a permission error naming the settings pane', () => {
  const error = axErrorToTandem(-25211, { operation: 'reading the tree' });
  assert.equal(error.code, 'permission');
  assert.match(modelText(error), /System Settings › Privacy & Security › Accessibility/);
});

test('should map unsupported attributes and actions to unsupported with a way forward', () => {
  assert.equal(axErrorToTandem(-25205, { operation: 'x' }).code, 'unsupported');
  assert.equal(axErrorToTandem(-25206, { operation: 'x' }).code, 'unsupported');
  assert.match(modelText(axErrorToTandem(-25206, { operation: 'x' })), /Click it/);
  assert.equal(axErrorToTandem(-25212, { operation: 'x' }).code, 'unsupported');
  assert.equal(axErrorToTandem(-25201, { operation: 'x' }).code, 'bad-input');
  assert.equal(axErrorToTandem(-25200, { operation: 'x' }).code, 'internal');
  assert.equal(axErrorToTandem(-99, { operation: 'x' }).code, 'internal');
});

test('should keep the raw AXError in the details and name unknown codes', () => {
  assert.deepEqual(axErrorToTandem(-25204, { operation: 'x' }).details, { axError: -25204 });
  assert.equal(axErrorName(-1), 'AXError -1');
  assert.equal(axErrorName(AXErrorCode.noValue), 'kAXErrorNoValue');
});

test('should let success through and throw on failure', () => {
  assert.doesNotThrow(() => checkAX(0, { operation: 'x' }));
  assert.throws(() => checkAX(-25202, { operation: 'x' }), (e: TandemError) => e.code === 'stale-element');
});
