import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWindowRelativeToolkit } from '../../src/backends/linux/atspiToolkit.js';

test('should treat GTK 4 as reporting window-relative geometry, GTK 3 not', () => {
  assert.equal(isWindowRelativeToolkit({ name: 'GTK', version: '4.8.3' }), true);
  assert.equal(isWindowRelativeToolkit({ name: 'gtk', version: '3.24.38' }), false);
  assert.equal(isWindowRelativeToolkit({ name: 'Qt', version: '4.1' }), false);
});
