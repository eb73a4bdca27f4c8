// One call record for every call: reads (open, refresh) and acting calls alike get an id, a
// call-started and a call-finished event carrying it, the caller's own listener hears them, and
// the result's duration is framed the same way. A call refused before it touched anything
// leaves no trace.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { EngineEventName } from '../../src/core/engineApi.js';
import { isTandemError } from '../../src/core/errors.js';
import { COUNTER, act, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';

interface Heard {
  event: EngineEventName;
  callId?: number;
}

const callIdOf = (payload: unknown): number | undefined => (payload as { callId?: number }).callId;

describe('call record: every call, read-only or acting', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should give reads and actions one id each, started and finished under it, heard by the caller too', async () => {
    fixture = await engineFixture();
    const heard: Heard[] = [];
    const context = { clientId: 'client-a', onEvent: (event: EngineEventName, payload: unknown) => heard.push({ event, callId: callIdOf(payload) }) };
    const read = await fixture.engine.refresh(COUNTER, context);
    const acted = await fixture.engine.act(act(COUNTER, clickOn('Count: 0')), context);

    const lifecycle = (callId: number): string[] => heard.filter((entry) => entry.callId === callId && (entry.event === 'call-started' || entry.event === 'call-finished')).map((entry) => entry.event);
    const ids = [...new Set(heard.filter((entry) => entry.event === 'call-started').map((entry) => entry.callId))];
    assert.equal(ids.length, 2, 'two calls, two ids');
    assert.ok(ids[1]! > ids[0]!, 'ids grow');
    assert.deepEqual(lifecycle(ids[0]!), ['call-started', 'call-finished'], 'the read');
    assert.deepEqual(lifecycle(ids[1]!), ['call-started', 'call-finished'], 'the action');
    const finished = fixture.events.filter((entry) => entry.event === 'call-finished').map((entry) => entry.payload as { clientId?: string; result: { durationMs: number; status: string } });
    assert.deepEqual(finished.map((entry) => [entry.clientId, entry.result.status]), [['client-a', 'ok'], ['client-a', 'ok']]);
    assert.deepEqual(finished.map((entry) => entry.result.durationMs), [read.durationMs, acted.durationMs], 'the result the caller gets is the one the feed hears');
    assert.ok([read.durationMs, acted.durationMs].every((ms) => Number.isFinite(ms) && ms >= 0));
  });

  it('should finish a failed read under its id, and leave no trace of an action refused before it started', async () => {
    fixture = await engineFixture();
    await assert.rejects(fixture.engine.refresh(4242), (error) => isTandemError(error, 'unknown-app'));
    const readEvents = fixture.events.filter((entry) => entry.event === 'call-started' || entry.event === 'call-finished');
    assert.deepEqual(readEvents.map((entry) => entry.event), ['call-started', 'call-finished']);
    assert.equal(callIdOf(readEvents[0].payload), callIdOf(readEvents[1].payload));
    assert.equal((readEvents[1].payload as { result: { error?: { code: string } } }).result.error?.code, 'unknown-app');

    const before = fixture.events.length;
    await assert.rejects(fixture.engine.act(act(4242, clickOn('x'))), (error) => isTandemError(error, 'unknown-app'));
    assert.deepEqual(fixture.events.slice(before).filter((entry) => entry.event !== 'log'), [], 'nothing was touched, nothing reported');
    assert.equal(fixture.engine.current, null);
  });

  it('should record the small inspection reads too: started and finished with a summary, no files, not the current call', async () => {
    fixture = await engineFixture();
    const heard: string[] = [];
    const context = { clientId: 'client-a', onEvent: (event: EngineEventName) => heard.push(event) };
    const windows = await fixture.engine.listWindows(COUNTER, false, context);
    await fixture.engine.listApps(context);
    await fixture.engine.cursorPosition(context);
    await fixture.engine.displays(context);
    await fixture.engine.checkPermissions(context);
    const finished = fixture.events.filter((entry) => entry.event === 'call-finished').map((entry) => entry.payload as { clientId?: string; result: { tool: string; summary: string; file?: string; screenshot?: string } });
    assert.deepEqual(finished.map((entry) => entry.result.tool), ['list_windows', 'list_applications', 'get_cursor_position', 'get_screen_size', 'check_permissions']);
    assert.equal(finished[0].result.summary, `${windows.length} windows`);
    assert.ok(finished.every((entry) => entry.clientId === 'client-a' && !entry.result.file && !entry.result.screenshot), 'no files for inspections');
    assert.equal(heard.filter((event) => event === 'call-started').length, 5, 'the caller hears each start');
    assert.equal(fixture.engine.current, null);

    await assert.rejects(fixture.engine.zoom(4242, undefined, { x: 0, y: 0, width: 10, height: 10 }, context), (error) => isTandemError(error, 'unknown-app'));
    const failed = fixture.events.filter((entry) => entry.event === 'call-finished').at(-1)!.payload as { result: { tool: string; error?: { code: string } } };
    assert.deepEqual([failed.result.tool, failed.result.error?.code], ['zoom', 'unknown-app'], 'a failed inspection finishes under its id too');
  });
});
