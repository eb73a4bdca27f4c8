// When the X server goes away (the session ended, Xvfb was killed), calls must fail with a
// message instead of hanging forever on a reply that will never come.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createProgress } from '../../src/core/progress.js';
import { X11Display } from '../../src/backends/linux/x11Display.js';
import { ensureDesktopPackages, startVirtualDesktop } from '../../scripts/lib/virtualDesktop.js';

it('should fail pending and later calls once the X server is gone', { timeout: 60_000 }, async () => {
  ensureDesktopPackages();
  const desktop = await startVirtualDesktop();
  let display: X11Display | undefined;
  try {
    display = await X11Display.open({ display: desktop.display });
    assert.equal(typeof (await display.cursorPosition()).x, 'number');
    await desktop.stop();
    await assert.rejects(display.cursorPosition(), /closed the connection/);
    await assert.rejects(display.windows(undefined, createProgress({ timeoutMs: 5000 })), /closed the connection/);
  } finally {
    await display?.close();
    await desktop.stop();
  }
});
