import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CleanupRegistry } from '../../src/core/call/cleanups.js';
import { createProgress } from '../../src/core/progress.js';

function recordingProgress(lines: string[]) {
  return createProgress({ timeoutMs: 60_000, log: (line) => lines.push(line) });
}

describe('cleanup registry: what a call took is given back on every way out', () => {
  it('should run the cleanups newest first, each once', async () => {
    const registry = new CleanupRegistry();
    const ran: string[] = [];
    registry.add('restore the cursor', async () => void ran.push('cursor'));
    registry.add('release the button', async () => void ran.push('button'));
    registry.add('release the modifiers', async () => void ran.push('modifiers'));
    await registry.runAll(recordingProgress([]));
    await registry.runAll(recordingProgress([]));
    assert.deepEqual(ran, ['modifiers', 'button', 'cursor']);
    assert.equal(registry.size, 0);
  });

  it('should still run the others when one fails, and log the failure by name', async () => {
    const registry = new CleanupRegistry();
    const ran: string[] = [];
    const lines: string[] = [];
    registry.add('restore the cursor', async () => void ran.push('cursor'));
    registry.add('release the button', async () => {
      throw new Error('the X connection is gone');
    });
    registry.add('release the modifiers', () => {
      // A cleanup that throws before it returns a promise is caught as well.
      throw new Error('no keymap');
    });
    await registry.runAll(recordingProgress(lines));
    assert.deepEqual(ran, ['cursor']);
    assert.deepEqual(lines, ['could not release the modifiers: no keymap', 'could not release the button: the X connection is gone']);
  });

  it('should give up on a cleanup that never finishes and go on with the next', async () => {
    const registry = new CleanupRegistry();
    const ran: string[] = [];
    const lines: string[] = [];
    registry.add('restore the cursor', async () => void ran.push('cursor'));
    registry.add('restore the frontmost app', () => new Promise<void>(() => {}), 10);
    await registry.runAll(recordingProgress(lines));
    assert.deepEqual(ran, ['cursor']);
    assert.deepEqual(lines, ['could not restore the frontmost app: restore the frontmost app did not finish within 10 ms']);
  });

  it('should not run a cleanup that was unregistered (given back on the way already)', async () => {
    const registry = new CleanupRegistry();
    const ran: string[] = [];
    const unregister = registry.add('release the button', async () => void ran.push('button'));
    registry.add('restore the cursor', async () => void ran.push('cursor'));
    unregister();
    await registry.runAll(recordingProgress([]));
    assert.deepEqual(ran, ['cursor']);
  });

  it('should hand each cleanup the progress it runs under', async () => {
    const registry = new CleanupRegistry();
    const progress = recordingProgress([]);
    let given: unknown;
    registry.add('restore the cursor', async (p) => void (given = p));
    await registry.runAll(progress);
    assert.equal(given, progress);
  });
});
