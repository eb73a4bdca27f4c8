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

test('should show the visible lines when more match than fit, and count the rest', () => {
  // A menu bar of 40 hidden items before 3 visible buttons (Writer: 295 hidden menu items first).
  const menu = Array.from({ length: 40 }, (_, i) => ({ role: 'MenuItem', text: `Item ${i}`, visible: false }));
  const buttons = [{ role: 'PushButton', text: 'Bold' }, { role: 'PushButton', text: 'a "visible" word' }, { role: 'PushButton', text: 'Save' }];
  const text = formatTree(snapshotOf(tree({ role: 'Frame', text: 'Doc', children: [...menu, ...buttons] })));
  const found = taggedTreeLines(text, undefined, 10);
  assert.equal(found.visibleOnly, true);
  assert.deepEqual(found.lines.map((line) => line.replace(/^#\d+ /, '')), ['[Frame] "Doc" visible', '[PushButton] "Bold" visible', '[PushButton] "a \\"visible\\" word" visible', '[PushButton] "Save" visible']);
  assert.equal(found.matched, 44);
  const hiddenNamedVisible = formatTree(snapshotOf(tree({ role: 'Frame', text: 'Doc', children: [{ role: 'Label', text: 'is visible', visible: false }] })));
  assert.deepEqual(taggedTreeLines(hiddenNamedVisible, undefined, 1).lines, ['#0 [Frame] "Doc" visible'], 'a hidden element named "… visible" stays out');
});
