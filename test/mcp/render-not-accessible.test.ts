// What the model reads for an app that shows windows but exposes nothing (core's not-accessible
// facts, rendered once in src/mcp): the reason in words, the pid, and that a restart the person
// agrees to is the only way out. (On real apps: test/e2e/apps-unreadable.test.ts.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notAccessibleError } from '../../src/core/apps/readability.js';
import { errorResult } from '../../src/mcp/errors.js';

const textOf = (result: ReturnType<typeof errorResult>): string => (result.content[0] as { text: string }).text;

describe('not-accessible answers', () => {
  it('should explain an app that is not on the accessibility bus and how to get it read', () => {
    const result = errorResult(notAccessibleError({ reason: 'not-registered', pid: 42, windows: ['Courier booking - Chromium'] }));
    assert.equal(result.isError, true);
    const text = textOf(result);
    assert.match(text, /^status: error$/m);
    assert.match(text, /^error: not-accessible: pid 42 shows 1 window \("Courier booking - Chromium"\) but is not on the accessibility bus, so nothing in it can be read or targeted\./m);
    assert.match(text, /started before desktop accessibility was on/);
    assert.match(text, /^reason: not-registered$/m);
    assert.match(text, /^pid: 42$/m);
    assert.match(text, /^hint: Restarting the app is the only fix: ask the person first \(unsaved work would be lost\)\..*open_application_and_traverse/m);
  });

  it('should name Chromium’s missing flag for an empty Chromium window, and not for another toolkit', () => {
    const chromium = textOf(errorResult(notAccessibleError({ reason: 'no-content', pid: 7, app: 'Chromium', toolkit: 'Chromium 1.0', windows: ['a', 'b', 'c', 'd'] })));
    assert.match(chromium, /pid 7 \(Chromium, Chromium 1\.0\) is on the accessibility bus but exposes nothing inside its 4 windows \("a", "b", "c" and 1 more\)/);
    assert.match(chromium, /--force-renderer-accessibility/);
    assert.match(chromium, /^reason: no-content$/m);
    const gtk = textOf(errorResult(notAccessibleError({ reason: 'no-content', pid: 8, app: 'Old', toolkit: 'gtk 2.24', windows: ['Old'] })));
    assert.doesNotMatch(gtk, /force-renderer/);
    assert.match(gtk, /started before desktop accessibility was on/);
  });
});
