import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTandemError } from '../../src/core/errors.js';
import { X11Display } from '../../src/backends/linux/x11Display.js';

describe('X11Display.open', () => {
  it('should say what to do when DISPLAY is not set', async () => {
    const saved = process.env.DISPLAY;
    delete process.env.DISPLAY;
    try {
      await assert.rejects(X11Display.open({}), (error) => isTandemError(error, 'permission') && /DISPLAY is not set/.test(error.message) && /DISPLAY=:0/.test(error.message));
    } finally {
      if (saved !== undefined) process.env.DISPLAY = saved;
    }
  });

  it('should report an unreachable display as a permission problem naming it', async () => {
    await assert.rejects(X11Display.open({ display: ':249' }), (error) => isTandemError(error, 'permission') && /:249/.test(error.message) && /XAUTHORITY/.test(error.message));
  });
});
