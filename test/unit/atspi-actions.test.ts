import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveActionIndex } from '../../src/backends/linux/atspiActions.js';

test('should map press onto the toolkit action that presses', () => {
  assert.equal(resolveActionIndex('press', ['click']), 0);
  assert.equal(resolveActionIndex('press', ['activate', 'click']), 1);
  assert.equal(resolveActionIndex('press', ['toggle']), 0);
  // Nothing known: the first action is the default one.
  assert.equal(resolveActionIndex('press', ['frobnicate', 'other']), 0);
});

test('should map show-menu and raw names, and refuse what the element lacks', () => {
  assert.equal(resolveActionIndex('show-menu', ['click', 'popup']), 1);
  assert.equal(resolveActionIndex('Expand or Contract', ['activate', 'expand or contract']), 1);
  assert.equal(resolveActionIndex('show-menu', ['click']), null);
  assert.equal(resolveActionIndex('press', []), null);
});
