import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import { isTandemError } from '../../src/core/errors.js';
import { ScriptedDesktop } from '../support/scriptedDesktop.js';
import { COUNTER, FINDER, START_CURSOR, counterDesktop, counterTree, engineFixture, type EngineFixture } from '../support/engineFixtures.js';

describe('engine: open and refresh are reads', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should refresh without engaging the guard, moving the cursor or activating anything', async () => {
    fixture = await engineFixture();
    const { engine, desktop, events } = fixture;
    const result = await engine.refresh(COUNTER);

    assert.equal(result.status, 'ok');
    assert.deepEqual(desktop.actions(), []);
    assert.equal(desktop.guardEngagements, 0);
    assert.equal(desktop.frontmostPid, FINDER);
    assert.deepEqual(desktop.cursor, START_CURSOR);
    assert.ok(!events.some((e) => e.event === 'guard-engaged'));
    const text = await readFile(result.file!, 'utf8');
    assert.match(text, /^# app: Counter {2}pid: 200$/m);
    assert.match(text, /^#\d+ \[PushButton\] "Count: 0" x:10 y:10 w:100 h:30 visible$/m);
    assert.equal(result.elementCount, text.split('\n').filter((l) => /^#\d+ \[/.test(l)).length);
    assert.ok(result.screenshot?.endsWith('_refresh_traversal.png'));
  });

  it('should open an app that is not running and return its tree', async () => {
    const desktop = new ScriptedDesktop({
      apps: [{ pid: FINDER, name: 'Finder', tree: { role: 'Application' } }],
      installable: [{ pid: COUNTER, name: 'Counter', id: 'org.example.Counter', tree: counterTree() }],
      frontmostPid: FINDER,
    });
    fixture = await engineFixture(desktop);
    const result = await fixture.engine.open('org.example.counter');
    assert.equal(result.status, 'ok');
    assert.equal(result.pid, COUNTER);
    assert.match(result.summary, /^Counter opened: \d+ elements, \d+ visible$/);
    assert.match(await readFile(result.file!, 'utf8'), /"Count: 0"/);
    assert.equal(desktop.guardEngagements, 0);
  });

  it('should throw unknown-app for an app it cannot find, and for an unknown pid on refresh', async () => {
    fixture = await engineFixture(counterDesktop());
    await assert.rejects(fixture.engine.open('Nonexistent'), (e) => isTandemError(e, 'unknown-app'));
    await assert.rejects(fixture.engine.refresh(4242), (e) => isTandemError(e, 'unknown-app') && /^200 Counter$/m.test(e.message));
    const finished = fixture.events.filter((e) => e.event === 'call-finished');
    assert.equal(finished.length, 2, 'the feed still hears about failed reads');
  });

  it('should say when the tree was cut short', async () => {
    fixture = await engineFixture(undefined, { snapshotLimits: { maxDepth: 1 } });
    const result = await fixture.engine.refresh(COUNTER);
    assert.equal(result.truncated?.reason, 'depth');
    assert.equal(result.truncated?.pid, COUNTER);
  });

  it('should show the running call in `current` and clear it afterwards', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    let seen: unknown = null;
    desktop.when('snapshot', () => {
      seen ??= engine.current;
    });
    assert.equal(engine.current, null);
    await engine.refresh(COUNTER);
    assert.deepEqual(seen, { callId: 1, tool: 'refresh_traversal', app: 'Counter' });
    assert.equal(engine.current, null);
  });

  it('should stop taking calls once closed, and close the desktop', async () => {
    fixture = await engineFixture();
    await fixture.engine.close();
    assert.equal(fixture.desktop.closed, true);
    await assert.rejects(fixture.engine.refresh(COUNTER), /closed/);
  });
});
