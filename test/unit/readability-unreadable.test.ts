// Core's view of apps that show windows but expose nothing (readability.ts) over the scripted
// desktop: which facts it reports, when it waits, and that refresh, open, an action and the
// doctor check answer with them instead of an empty tree or not-found. (The real cases —
// Chromium before and without its flag — are proven in test/e2e/apps-unreadable.test.ts.)
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { isTandemError } from '../../src/core/errors.js';
import { createProgress } from '../../src/core/progress.js';
import { explainUnreadable, findUnreadableApps, isContentless, readWithContent, readabilityCheck } from '../../src/core/apps/readability.js';
import { ScriptedDesktop, type ScriptedAppSpec } from '../support/scriptedDesktop.js';
import { COUNTER, FINDER, counterTree, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { snapshotOf, tree } from '../support/treeFactory.js';

const BROWSER = 500;
const emptyBrowser = (): ScriptedAppSpec => ({
  pid: BROWSER,
  name: 'Chromium',
  tree: { role: 'Application', text: 'Chromium', children: [{ role: 'Frame', text: 'Courier booking - Chromium', bounds: { x: 0, y: 0, width: 800, height: 600 } }] },
});
const progress = (): ReturnType<typeof createProgress> => createProgress({ timeoutMs: 5_000 });

/** A desktop where BROWSER shows its window but (optionally) is not on the accessibility bus. */
function desktopWith(browser: ScriptedAppSpec, options: { registered: boolean }): ScriptedDesktop {
  const desktop = new ScriptedDesktop({
    apps: [{ pid: FINDER, name: 'Finder', tree: { role: 'Application', text: 'Finder' } }, { pid: COUNTER, name: 'Counter', tree: counterTree() }, browser],
    frontmostPid: FINDER,
  });
  if (!options.registered) {
    const appForPid = desktop.appForPid.bind(desktop);
    const listApps = desktop.listApps.bind(desktop);
    desktop.appForPid = async (pid, p) => (pid === BROWSER ? null : appForPid(pid, p));
    desktop.listApps = async (p) => (await listApps(p)).filter((app) => app.pid !== BROWSER);
    desktop.snapshot = (() => {
      const snapshot = ScriptedDesktop.prototype.snapshot.bind(desktop);
      return async (pid, limits, p) => {
        if (pid === BROWSER) throw new Error('not on the bus');
        return snapshot(pid, limits, p);
      };
    })();
  }
  return desktop;
}

describe('readability: apps with windows and nothing to read', () => {
  let fixture: EngineFixture | undefined;
  afterEach(async () => {
    await fixture?.cleanup();
    fixture = undefined;
  });

  it('should take a tree of only the app and its windows for contentless, and nothing cut short', () => {
    const bare = tree({ role: 'Application', children: [{ role: 'Frame' }, { role: 'Frame' }] });
    assert.equal(isContentless(snapshotOf(bare)), true);
    assert.equal(isContentless(snapshotOf(tree({ role: 'Application', children: [{ role: 'Frame', children: [{ role: 'PushButton', text: 'OK' }] }] }))), false);
    assert.equal(isContentless({ ...snapshotOf(bare), truncated: { reason: 'time', detail: 'frozen' } }), false, 'a frozen app is another answer');
    assert.equal(isContentless({ ...snapshotOf(bare), truncated: { reason: 'depth', detail: 'deeper' } }), false, 'a depth cut hides what is inside');
  });

  it('should report a process with a window that is not on the bus, and nothing for one without a window', async () => {
    const desktop = desktopWith(emptyBrowser(), { registered: false });
    const error = await explainUnreadable(desktop, BROWSER, null, progress());
    assert.ok(isTandemError(error, 'not-accessible'));
    assert.deepEqual(error.details, { reason: 'not-registered', pid: BROWSER, windows: ['Courier booking - Chromium'] });
    assert.equal(await explainUnreadable(desktop, 9999, null, progress()), null, 'no window, nothing to explain: unknown-app stays the answer');
  });

  it('should report an app on the bus whose windows hold nothing, with its toolkit', async () => {
    const desktop = desktopWith(emptyBrowser(), { registered: true });
    const snapshot = { ...(await desktop.snapshot(BROWSER, { maxDepth: 64, maxElements: 100, maxMs: 1000 }, progress())), toolkit: 'Chromium 1.0' };
    const error = await explainUnreadable(desktop, BROWSER, snapshot, progress());
    assert.deepEqual(error?.details, { reason: 'no-content', pid: BROWSER, app: 'Chromium', toolkit: 'Chromium 1.0', windows: ['Courier booking - Chromium'] });
    const counter = await desktop.snapshot(COUNTER, { maxDepth: 64, maxElements: 500, maxMs: 1000 }, progress());
    assert.equal(await explainUnreadable(desktop, COUNTER, counter, progress()), null);
  });

  it('should read again while a window is still empty, and stop as soon as it fills', async () => {
    const desktop = desktopWith(emptyBrowser(), { registered: true });
    let reads = 0;
    desktop.when('snapshot 500', () => {
      reads++;
      if (reads === 3) desktop.find(BROWSER, 'Courier booking - Chromium').append({ role: 'DocumentWeb', text: 'Courier booking', bounds: { x: 0, y: 40, width: 800, height: 560 } });
    });
    const started = Date.now();
    const snapshot = await readWithContent(desktop, BROWSER, { maxDepth: 64, maxElements: 100, maxMs: 1000 }, progress());
    assert.equal(isContentless(snapshot), false);
    assert.equal(reads, 3, 'read until the page was there (it appeared as the third read began), then no more');
    assert.ok(Date.now() - started < 1_500);
  });

  it('should answer refresh and an action on an unregistered app with not-accessible, not unknown-app or not-found', async () => {
    fixture = await engineFixture(desktopWith(emptyBrowser(), { registered: false }));
    await assert.rejects(fixture.engine.refresh(BROWSER), (error) => isTandemError(error, 'not-accessible') && error.details?.reason === 'not-registered');
    await assert.rejects(
      fixture.engine.act({ tool: 'click_and_traverse', pid: BROWSER, steps: [{ kind: 'click', target: { query: { text: 'Book courier' } }, button: 'left', count: 1, modifiers: [] }] }),
      (error) => isTandemError(error, 'not-accessible'),
    );
    assert.equal(fixture.desktop.guardEngagements, 0, 'nothing was disturbed');
  });

  it('should answer refresh, and a query on it, for an empty-windowed app with no-content once the wait is over', async () => {
    fixture = await engineFixture(desktopWith(emptyBrowser(), { registered: true }));
    const started = Date.now();
    await assert.rejects(fixture.engine.refresh(BROWSER), (error) => isTandemError(error, 'not-accessible') && error.details?.reason === 'no-content');
    assert.ok(Date.now() - started >= 1_500, 'it gave the window its two seconds to fill');
    await assert.rejects(
      fixture.engine.act({ tool: 'click_and_traverse', pid: BROWSER, steps: [{ kind: 'click', target: { query: { text: 'Book courier' } }, button: 'left', count: 1, modifiers: [] }] }),
      (error) => isTandemError(error, 'not-accessible') && error.details?.reason === 'no-content',
    );
    // A click by position needs no element: it is not refused.
    const byPoint = await fixture.engine.act({ tool: 'click_and_traverse', pid: BROWSER, steps: [{ kind: 'click', target: { point: { x: 400, y: 300 } }, button: 'left', count: 1, modifiers: [] }] });
    assert.equal(byPoint.status, 'ok');
  });

  it('should list both kinds in the doctor check and pass when every app is readable', async () => {
    const unregistered = desktopWith(emptyBrowser(), { registered: false });
    assert.deepEqual(await findUnreadableApps(unregistered, progress(), process.pid), [{ reason: 'not-registered', pid: BROWSER, windows: ['Courier booking - Chromium'] }]);
    const check = await readabilityCheck(desktopWith({ ...emptyBrowser(), name: 'Chromium' }, { registered: true }), progress(), process.pid);
    assert.equal(check.state, 'unknown');
    assert.match(check.detail, /^Chromium \(pid 500\): on the bus, but its windows expose nothing$/);
    assert.match(check.remedy ?? '', /Restart these apps/);
    const fine = await readabilityCheck(new ScriptedDesktop({ apps: [{ pid: COUNTER, name: 'Counter', tree: counterTree() }] }), progress(), process.pid);
    assert.equal(fine.state, 'granted');
  });
});
