// What a started app wrote to stderr, as a launch that failed answers it (backends/linux/launchStderr.ts):
// the last lines, one line each, control characters gone, all together within the bound; and the
// capture itself, through a real child process writing to the unlinked file.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { STDERR_TAIL_CHARS, lastLines, openLaunchStderr } from '../../src/backends/linux/launchStderr.js';

describe('launch stderr: the last words of an app that exits as it starts', () => {
  it('should keep the last non-empty lines in order, each on one line without control characters', () => {
    const text = 'one\n\ntwo\r\nthree\x1b[31m red\x1b[0m\nfour\nfive\nsix\n\n';
    assert.deepEqual(lastLines(text), ['two', 'three [31m red [0m', 'four', 'five', 'six']);
  });

  it('should keep the newest lines within the character bound, cutting the oldest one kept', () => {
    const long = 'x'.repeat(390);
    const lines = lastLines(`first\n${long}\nlast line is kept whole\n`);
    assert.equal(lines.at(-1), 'last line is kept whole');
    assert.ok(lines.join('').length <= STDERR_TAIL_CHARS, `within the bound: ${lines.join('').length}`);
    assert.ok(!lines.includes('first'), 'the oldest line did not fit');
    assert.ok(lines[0].startsWith('xxx') && lines[0].endsWith('…'), 'the long line cut short');
    const huge = lastLines('y'.repeat(5_000));
    assert.equal(huge.length, 1);
    assert.ok(huge[0].endsWith('…') && huge[0].length === STDERR_TAIL_CHARS);
  });

  it("should read what a real child wrote to stderr into the unlinked file, and nothing once closed", async () => {
    const stderr = openLaunchStderr();
    assert.notEqual(stderr.fd, 'ignore', 'a temp file could be made');
    const child = spawn(process.execPath, ['-e', 'process.stderr.write("warming up\\nFatal: cannot start without a display\\n"); process.exit(3)'], { stdio: ['ignore', 'ignore', stderr.fd] });
    const [code] = await once(child, 'exit');
    assert.equal(code, 3);
    assert.deepEqual(stderr.tail(), ['warming up', 'Fatal: cannot start without a display']);
    stderr.close();
    stderr.close();
    assert.deepEqual(stderr.tail(), []);
  });
});
