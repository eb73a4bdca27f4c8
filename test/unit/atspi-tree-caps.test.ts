// Which children a snapshot reads when a container has more than it may read (atspiTree.ts), and
// which toolkits must not be asked for all properties at once. (On real apps: a 3,000-paragraph
// page scrolled to its end shows its last paragraph — bench/linuxBench.ts and the README.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { childWindow } from '../../src/backends/linux/atspiTree.js';
import { isGetAllUnsafeToolkit } from '../../src/backends/linux/atspiToolkit.js';

describe('AT-SPI snapshot caps', () => {
  it('should read every child when there are few enough', () => {
    assert.deepEqual(childWindow(40, 100, 12), [0, 40]);
  });

  it('should read the first ones when none is on screen', () => {
    assert.deepEqual(childWindow(5000, 1000, -1), [0, 1000]);
  });

  it('should read the ones on screen with some context above, when scrolled down a long list', () => {
    assert.deepEqual(childWindow(5000, 1000, 2500), [2400, 3400]);
    assert.deepEqual(childWindow(5000, 1000, 4990), [4000, 5000], 'never past the end');
    assert.deepEqual(childWindow(5000, 1000, 30), [0, 1000], 'never before the start');
  });

  it('should ask Qt for properties one by one (GetAll crashes Qt 5.15) and everyone else at once', () => {
    assert.equal(isGetAllUnsafeToolkit({ name: 'Qt', version: '5.15.8' }), true);
    assert.equal(isGetAllUnsafeToolkit({ name: 'gtk', version: '3.24.38' }), false);
    assert.equal(isGetAllUnsafeToolkit({ name: 'Gecko', version: '153.7.0' }), false);
  });
});
