import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawn } from 'node:child_process';
import { descendantsStartedSince, parseProcStat } from '../../src/backends/linux/procLaunches.js';

test('should read pid, name, parent and start time from a stat line, even with spaces and parentheses in the name', () => {
  const line = '4242 (Web Content (x)) S 4100 4242 4242 0 -1 4194560 1234 0 0 0 10 5 0 0 20 0 25 0 987654 123456789 4567 18446744073709551615 1 1 0 0 0 0 0 4096 17663 0 0 0 17 1 0 0 0 0 0';
  assert.deepEqual(parseProcStat(line), { pid: 4242, comm: 'Web Content (x)', ppid: 4100, startTicks: 987654 });
  assert.equal(parseProcStat('garbage'), null);
});

test('should list a process this one started just now, and not one started before', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const before = spawn('sleep', ['30']);
  await new Promise((resolve) => setTimeout(resolve, 120));
  const since = Date.now();
  const after = spawn('sleep', ['30']);
  try {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const launched = await descendantsStartedSince(process.pid, since);
    const started = launched.find((p) => p.pid === after.pid);
    assert.equal(started?.name, 'sleep', JSON.stringify(launched));
    assert.deepEqual(started?.commandLine, ['sleep', '30'], 'its arguments, by which core tells a browser helper apart');
    assert.ok(!launched.some((p) => p.pid === before.pid), 'started before: not listed');
  } finally {
    before.kill();
    after.kill();
  }
});
