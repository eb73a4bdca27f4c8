import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress } from '../../src/core/progress.js';
import { engageTapGuard } from '../../src/backends/macos/cgEventTapGuard.js';
import { TapThreadHost } from '../../src/backends/macos/cgEventTapHost.js';

// Off macOS the worker cannot load the bindings: what this proves is the plumbing — the worker
// file is found next to the guard (compiled .js or .ts under tsx), it runs, and its failure
// comes back as a TandemError instead of hanging or crashing the engine.
test('should start the guard worker and report its failure as an error, not a hang', { skip: process.platform === 'darwin' ? 'on macOS the worker really starts (e2e-macos covers it)' : false }, async () => {
  let escapes = 0;
  const host = new TapThreadHost();
  await assert.rejects(
    engageTapGuard({ onEscape: () => escapes++, onHumanInput: () => undefined, onLost: () => undefined }, createProgress({ timeoutMs: 20_000 }), {
      heartbeatTimeoutMs: 1000,
      maxLifetimeMs: 5000,
      heartbeatEveryMs: 100,
      startTimeoutMs: 15_000,
      releaseAckMs: 500,
    }, { native: null, host }),
    (error: Error & { code?: string }) => error.code === 'unsupported' && /only load on darwin/.test(error.message),
  );
  assert.equal(escapes, 0);
  await host.close();
});
