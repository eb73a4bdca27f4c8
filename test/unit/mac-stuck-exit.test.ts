// A guard thread that stopped answering cannot be ended, and Node's exit joins worker threads:
// once the host has given up on it, the exit paths (the CLI, the app's quit) must end the process
// with SIGKILL, after stdout drained, rather than exit normally and hang on the thread.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { engageTapGuard } from '../../src/backends/macos/cgEventTapGuard.js';
import { endProcess, stuckThread } from '../../src/backends/index.js';
import { noteStuckThread, stuckThreads } from '../../src/backends/stuckThreads.js';
import type { ProcessEnd } from '../../src/backends/stuckThreads.js';
import { createProgress } from '../../src/core/progress.js';
import { fakeTapHost } from './mac-fake-tap-worker.js';

/** A process end that records what happened; stdout drains only when told to. */
function recordingEnd() {
  const happened: string[] = [];
  let drain: (() => void) | undefined;
  const end: ProcessEnd = {
    stdout: { write: (_chunk, done) => (drain = done) },
    exit: (code) => void happened.push(`exit ${code}`),
    kill: (pid, signal) => void happened.push(`kill ${pid} ${signal}`),
    pid: 4242,
    log: (message) => void happened.push(`log ${message}`),
  };
  return { end, happened, drain: () => drain?.() };
}

const GUARD_OPTIONS = { heartbeatTimeoutMs: 5_000, maxLifetimeMs: 60_000, heartbeatEveryMs: 20, startTimeoutMs: 2_000, releaseAckMs: 150 };
const LISTENER = { onEscape: () => undefined, onHumanInput: () => undefined, onLost: () => undefined, onInputLeaked: () => undefined };

describe('exiting after a guard thread got stuck', () => {
  // In this order: the stuck mark is for the life of the process, as it is for a real one.
  it('should exit normally with the code, once stdout drained, while no thread is stuck', () => {
    assert.equal(stuckThread(), null);
    const { end, happened, drain } = recordingEnd();
    endProcess(3, end);
    assert.equal(happened.length, 0, 'nothing before stdout drained');
    drain();
    assert.deepEqual(happened, ['exit 3']);
  });

  it('should end with SIGKILL, never a joining exit, once the host gave up on a thread that did not answer a release', async () => {
    const { fake, host, workers } = fakeTapHost();
    const guard = await engageTapGuard(LISTENER, createProgress({ timeoutMs: 10_000 }), GUARD_OPTIONS, { native: fake, host });
    workers[0].stuck = true;
    await guard.release();
    assert.match(stuckThread() ?? '', /the macOS input guard's thread/);

    const { end, happened, drain } = recordingEnd();
    endProcess(0, end);
    assert.equal(happened.length, 0, 'stdout drains first: the last MCP answer must reach the client');
    drain();
    assert.deepEqual(happened.filter((line) => !line.startsWith('log ')), ['kill 4242 SIGKILL']);
    assert.ok(happened.some((line) => /^log .*stuck.*SIGKILL/.test(line)), 'says why on stderr');
  });
  it('should drain stderr too before the SIGKILL, so the line saying why reaches the log', () => {
    const endedAfterAll = noteStuckThread('test: a thread left stuck');
    try {
      const happened: string[] = [];
      let drainStderr: (() => void) | undefined;
      endProcess(0, {
        stdout: { write: (_chunk, done) => done() },
        stderr: { write: (_chunk, done) => void (drainStderr = done) },
        exit: (code) => void happened.push(`exit ${code}`),
        kill: (pid, signal) => void happened.push(`kill ${pid} ${signal}`),
        pid: 4242,
        log: () => undefined,
      });
      assert.deepEqual(happened, [], 'no kill before stderr drained');
      drainStderr?.();
      assert.deepEqual(happened, ['kill 4242 SIGKILL']);
    } finally {
      endedAfterAll();
    }
  });

  it('should count a thread that does not end within the bound at shutdown as stuck', async () => {
    const keepAlive = setInterval(() => undefined, 50); // close() waits on unref'd timers only
    try {
      const { fake, host, workers } = fakeTapHost();
      const guard = await engageTapGuard(LISTENER, createProgress({ timeoutMs: 10_000 }), GUARD_OPTIONS, { native: fake, host });
      await guard.release();
      workers[0].stuck = true;
      await host.close();
      const reason = stuckThreads().find((line) => /did not end within \d+ ms of shutdown/.test(line));
      assert.ok(reason, `marked stuck: ${JSON.stringify(stuckThreads())}`);
    } finally {
      clearInterval(keepAlive);
    }
  });

  it('should no longer count a thread as stuck once it ended after all (it was only slow)', async () => {
    const keepAlive = setInterval(() => undefined, 50);
    try {
      const { fake, host, workers } = fakeTapHost();
      const guard = await engageTapGuard(LISTENER, createProgress({ timeoutMs: 10_000 }), GUARD_OPTIONS, { native: fake, host });
      const before = stuckThreads().length;
      workers[0].stuck = true; // misses the release acknowledgement: the host gives up on it
      await guard.release();
      assert.equal(stuckThreads().length, before + 1, 'the host marked its thread stuck');
      workers[0].stuck = false; // only slow: terminate() now ends it
      for (let i = 0; i < 100 && stuckThreads().length > before; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(stuckThreads().length, before, 'a thread that ended holds no exit back');
    } finally {
      clearInterval(keepAlive);
    }
  });
});
