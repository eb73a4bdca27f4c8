// The process-tree search both backends use to find what an action launched: descendants of a
// root in a process-table snapshot, and those of them started since the action began.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { descendantsOf, descendantsStartedSince, type ProcessEntry } from '../../src/core/apps/processTree.js';

const proc = (pid: number, ppid: number, startMs = 0): ProcessEntry => ({ pid, ppid, startMs });

test('should find children and grandchildren breadth-first, not siblings, the parent or the root itself', () => {
  const all = [proc(1, 0), proc(10, 1), proc(11, 10), proc(12, 11), proc(20, 1), proc(13, 10)];
  assert.deepEqual(descendantsOf(10, all).map((p) => p.pid), [11, 13, 12]);
  assert.deepEqual(descendantsOf(12, all), []);
  assert.deepEqual(descendantsOf(99, all), [], 'a root that is not in the table has no descendants');
});

test('should end on a table whose parent links loop (a pid reused while the table was read)', () => {
  const looped = [proc(10, 12), proc(11, 10), proc(12, 11)];
  assert.deepEqual(descendantsOf(10, looped).map((p) => p.pid), [11, 12]);
});

test('should keep only descendants started at or after the time, reaching them through older ones', () => {
  const action = 1_700_000_000_000;
  const all = [
    proc(10, 1, action - 60_000), // the app
    proc(11, 10, action - 5_000), // an old helper of it
    proc(12, 11, action + 40), // forked by the old helper for the action
    proc(13, 10, action), // started the moment the action began
    proc(14, 10, action - 1), // just before
    proc(20, 1, action + 10), // not the app's
  ];
  assert.deepEqual(descendantsStartedSince(10, all, action).map((p) => p.pid), [13, 12]);
});
