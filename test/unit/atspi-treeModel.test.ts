import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CacheItem } from '../../native/linux/atspiProtocol.js';
import { STATE } from '../../native/linux/atspiStates.js';
import { applyLiveChildren, assembleCacheTree, childrenNeed, flattenTree } from '../../src/backends/linux/atspiTreeModel.js';

const BUS = ':1.7';
const ROOT = '/org/a11y/atspi/accessible/root';
const SHOWING = [(1 << STATE.showing) | (1 << STATE.visible), 0];
const path = (id: string): string => (id === 'root' ? ROOT : `/org/a11y/atspi/accessible/${id}`);

function item(id: string, parent: string, index: number, role: number, name: string, childCount = 0, states = SHOWING): CacheItem {
  const parentRef: [string, string] = parent === 'registry' ? [':1.0', ROOT] : [BUS, path(parent)];
  return [[BUS, path(id)], [BUS, ROOT], parentRef, index, childCount, ['org.a11y.atspi.Accessible'], name, role, '', states];
}

test('should order the cached tree in pre-order with parents and depths', () => {
  const items = [
    item('3', '1', 1, 43, 'Cancel'),
    item('1', 'root', 0, 23, 'Window', 2),
    item('root', 'registry', -1, 75, 'app', 1),
    item('2', '1', 0, 43, 'OK'),
  ];
  const tree = assembleCacheTree(items, BUS, ROOT, 'app');
  const flat = flattenTree(tree.root, 10, 100);
  assert.deepEqual(
    flat.nodes.map((entry) => [entry.node.name, entry.parentIndex, entry.depth]),
    [
      ['app', null, 0],
      ['Window', 0, 1],
      ['OK', 1, 2],
      ['Cancel', 1, 2],
    ],
  );
  assert.equal(flat.truncated, undefined);
});

test('should flag a tree cut by the count and depth caps', () => {
  const items = [item('root', 'registry', -1, 75, 'app', 1), item('1', 'root', 0, 23, 'Window', 1), item('2', '1', 0, 39, 'Panel', 1), item('3', '2', 0, 43, 'Deep')];
  const tree = assembleCacheTree(items, BUS, ROOT, 'app');
  const byCount = flattenTree(tree.root, 10, 2);
  assert.equal(byCount.nodes.length, 2);
  assert.equal(byCount.truncated?.reason, 'count');
  const byDepth = flattenTree(tree.root, 2, 100);
  assert.deepEqual(byDepth.nodes.map((entry) => entry.node.name), ['app', 'Window', 'Panel']);
  assert.equal(byDepth.truncated?.reason, 'depth');
});

test('should ask for a live look where the cache is incomplete and re-home misplaced children', () => {
  const items = [
    item('root', 'registry', -1, 75, 'app', 1),
    item('1', 'root', 0, 23, 'Window', 2),
    // A page whose cached parent is an object the cache does not hold.
    item('5', '99', 0, 39, 'Page'),
    item('6', '1', 0, 20, 'Header'),
  ];
  const tree = assembleCacheTree(items, BUS, ROOT, 'app');
  const window = tree.byPath.get(path('1'))!;
  assert.equal(tree.orphans.length, 1);
  assert.equal(childrenNeed(window), 'reorder');
  const missing = applyLiveChildren(tree, window, [path('6'), path('5'), path('7')]);
  assert.deepEqual(missing, [path('7')]);
  assert.deepEqual(window.children.map((child) => child.name), ['Header', 'Page']);
  assert.equal(tree.orphans.length, 0);
});

test('should walk containers that manage their descendants', () => {
  const managing = [SHOWING[0] | (1 << STATE.managesDescendants) | 0, 0];
  const items = [item('root', 'registry', -1, 75, 'app', 1), item('1', 'root', 0, 55, 'Table', 40, managing)];
  const tree = assembleCacheTree(items, BUS, ROOT, 'app');
  assert.equal(childrenNeed(tree.byPath.get(path('1'))!), 'walk');
});

test('should reorder unindexed children only once they are on screen', () => {
  const hidden = [1 << STATE.visible, 0];
  const closedMenu = [item('root', 'registry', -1, 75, 'app', 1), item('1', 'root', 0, 33, 'File', -1), item('2', '1', -1, 35, 'Quit', 0, hidden), item('3', '1', -1, 35, 'New', 0, hidden)];
  assert.equal(childrenNeed(assembleCacheTree(closedMenu, BUS, ROOT, 'app').byPath.get(path('1'))!), null);
  const openMenu = [item('root', 'registry', -1, 75, 'app', 1), item('1', 'root', 0, 33, 'File', -1), item('2', '1', -1, 35, 'Quit'), item('3', '1', -1, 35, 'New')];
  const tree = assembleCacheTree(openMenu, BUS, ROOT, 'app');
  const menu = tree.byPath.get(path('1'))!;
  assert.equal(childrenNeed(menu), 'reorder');
  applyLiveChildren(tree, menu, [path('3'), path('2')]);
  assert.deepEqual(menu.children.map((child) => child.name), ['New', 'Quit']);
});
