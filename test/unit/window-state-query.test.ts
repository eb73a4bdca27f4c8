// get_window_state's query filters the element lines by what the element is (role, name, value),
// never by the `#N` index every line starts with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTree } from '../../src/core/tree/treeFormat.js';
import { taggedTreeLines } from '../../src/mcp/windowState.js';
import { snapshotOf, tree } from '../support/treeFactory.js';

test('should match a digit query against the elements, not against their #N indexes', () => {
  // Twelve buttons: indexes 1 and 10–12 contain a "1", but only one element is named with one.
  const buttons = Array.from({ length: 12 }, (_, i) => ({ role: 'PushButton', text: i === 5 ? 'Level 1' : `Key ${String.fromCharCode(65 + i)}` }));
  const text = formatTree(snapshotOf(tree({ role: 'Frame', text: 'Keys', children: buttons })));
  const found = taggedTreeLines(text, '1');
  assert.equal(found.total, 13);
  assert.deepEqual(found.lines, ['#6 [PushButton] "Level 1" visible']);
  assert.equal(found.matched, 1);
});
