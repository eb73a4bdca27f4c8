import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ElementNode, TreeSnapshot } from '../../src/core/model.js';
import { KEPT_REVISIONS, RevisionStore } from '../../src/core/revisions/revisionStore.js';
import { formatDiff } from '../../src/core/tree/diff.js';
import type { NodeSpec } from '../support/treeFactory.js';
import { rect, tree } from '../support/treeFactory.js';

const PID = 42;

function snapshot(elements: ElementNode[], pid = PID): TreeSnapshot {
  return { pid, app: 'Editor', elements, elapsedMs: 0 };
}

function editor(fieldText: string, extra: NodeSpec[] = []): TreeSnapshot {
  return snapshot(
    tree({
      role: 'Frame',
      text: 'Editor',
      bounds: rect(0, 0, 600, 400),
      children: [...extra, { role: 'Text', text: fieldText, bounds: rect(10, 10, 300, 24) }, { role: 'PushButton', text: 'Save', bounds: rect(10, 50, 80, 30), actionable: true }],
    }),
  );
}

test('should number the first tree of an app 1 and keep the number while the tree is the same', () => {
  const store = new RevisionStore();
  assert.equal(store.current(PID), 0);
  assert.equal(store.handOut(editor('draft')), 1);
  assert.equal(store.handOut(editor('draft')), 1);
  assert.equal(store.current(PID), 1);
});

test('should grow the revision when the tree differs from the last one handed out', () => {
  const store = new RevisionStore();
  store.handOut(editor('draft'));
  assert.equal(store.handOut(editor('draft, edited')), 2);
  assert.equal(store.handOut(editor('draft')), 3, 'back to an older state is still a change');
});

test('should not grow the revision when elements were only renumbered or moved', () => {
  const store = new RevisionStore();
  store.handOut(editor('draft'));
  // A text-less filler above the field shifts every index by one: churn, not a change.
  const shifted = editor('draft', [{ role: 'Filler', text: '', bounds: rect(0, 0, 1, 1) }]);
  assert.notEqual(shifted.elements.at(-1)!.index, editor('draft').elements.at(-1)!.index);
  assert.equal(store.handOut(shifted), 1);
  const moved = snapshot(editor('draft').elements.map((el) => (el.bounds ? { ...el, bounds: { ...el.bounds, x: el.bounds.x + 5 } } : el)));
  assert.equal(store.handOut(moved), 1);
});

test('should give the diff from a kept revision to a tree, and none for an unknown one', () => {
  const store = new RevisionStore();
  store.handOut(editor('draft'));
  store.handOut(editor('draft, edited'));
  const now = editor('draft, edited twice').elements;
  assert.equal(formatDiff(store.diffSince(PID, 1, now)!), "~ #1 [Text] \"draft, edited twice\" | text: 'draft' -> 'draft, edited twice'\n");
  assert.equal(formatDiff(store.diffSince(PID, 2, editor('draft, edited').elements)!), '', 'nothing changed since revision 2');
  assert.equal(store.diffSince(PID, 7, now), null);
  assert.equal(store.diffSince(PID + 1, 1, now), null, 'another app has no revisions');
});

test('should keep only the last few revisions of an app', () => {
  const store = new RevisionStore();
  for (let i = 1; i <= KEPT_REVISIONS + 3; i++) assert.equal(store.handOut(editor(`version ${i}`)), i);
  assert.equal(store.treeOf(PID, 3), undefined, 'old revisions are dropped');
  assert.ok(store.treeOf(PID, 4), `the last ${KEPT_REVISIONS} are kept`);
  assert.ok(store.treeOf(PID, KEPT_REVISIONS + 3));
  assert.equal(store.diffSince(PID, 1, editor('x').elements), null);
});

test('should keep revisions per app', () => {
  const store = new RevisionStore();
  store.handOut(editor('draft'));
  assert.equal(store.handOut(snapshot(editor('other').elements, PID + 1)), 1);
  assert.equal(store.handOut(editor('draft')), 1);
});
