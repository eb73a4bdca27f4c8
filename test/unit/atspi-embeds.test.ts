// The pure half of following embedded processes (atspiEmbeds): which elements look like an
// occupied socket, and which references point into another process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_SOCKET_PROBES, isForeignRef, socketSuspects } from '../../src/backends/linux/atspiEmbeds.js';
import type { RawNode, RawTree } from '../../src/backends/linux/atspiTreeModel.js';
import { STATE } from '../../native/linux/atspiStates.js';
import { NULL_PATH } from '../../native/linux/atspiProtocol.js';

const SHOWING: number[] = [(1 << STATE.showing) >>> 0, 0];

function node(path: string, parentPath: string | null, childCount: number, states: number[] = SHOWING): RawNode {
  return { path, parentPath, indexInParent: -1, childCount, interfaces: [], name: '', role: 0, description: '', states, children: [], order: 0 };
}

function treeOf(...nodes: RawNode[]): RawTree {
  const byPath = new Map(nodes.map((entry) => [entry.path, entry]));
  for (const entry of nodes) if (entry.parentPath !== null) byPath.get(entry.parentPath)?.children.push(entry);
  return { root: nodes[0], byPath, orphans: [] };
}

test('an element claiming a child it does not hold is a socket suspect; one holding its children is not', () => {
  const tree = treeOf(node('/root', null, 1), node('/panel', '/root', 1), node('/socket', '/panel', 1), node('/leaf', '/root', 0));
  assert.deepEqual(socketSuspects(tree, new Set()).map((entry) => entry.path), ['/socket']);
});

test("WebKitGTK's socket reports no state at all: it counts under a showing parent, not under a hidden one", () => {
  const shown = treeOf(node('/root', null, 1), node('/panel', '/root', 1), node('/socket', '/panel', 1, [0, 0]));
  assert.deepEqual(socketSuspects(shown, new Set()).map((entry) => entry.path), ['/socket']);
  const hidden = treeOf(node('/root', null, 1), node('/panel', '/root', 1, [0, 0]), node('/socket', '/panel', 1, [0, 0]));
  assert.deepEqual(socketSuspects(hidden, new Set()).map((entry) => entry.path), []);
});

test('a hidden element with states is no suspect, nor one already known as a socket, and the probes are capped', () => {
  const hiddenStates = [(1 << STATE.sensitive) >>> 0, 0];
  const known = node('/known', '/root', 1);
  const tree = treeOf(node('/root', null, 1), node('/hidden', '/root', 1, hiddenStates), known);
  assert.deepEqual(socketSuspects(tree, new Set([known])), []);
  const many = treeOf(node('/root', null, 40), ...Array.from({ length: 40 }, (_, index) => node(`/s${index}`, '/root', 1)));
  assert.equal(socketSuspects(many, new Set()).length, MAX_SOCKET_PROBES);
});

test('a reference is foreign only when it names another bus and a real object', () => {
  assert.equal(isForeignRef([':1.3', '/org/a11y/webkit/accessible/x'], ':1.2'), true);
  assert.equal(isForeignRef(['org.gnome.Yelp.Sandboxed.WebProcess-1', '/a'], ':1.2'), true);
  assert.equal(isForeignRef([':1.2', '/a'], ':1.2'), false);
  assert.equal(isForeignRef(['', '/a'], ':1.2'), false);
  assert.equal(isForeignRef([':1.3', NULL_PATH], ':1.2'), false);
  assert.equal(isForeignRef(null, ':1.2'), false);
});
