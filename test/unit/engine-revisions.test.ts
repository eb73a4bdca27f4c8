import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { isTandemError } from '../../src/core/errors.js';
import { renderCallResult } from '../../src/mcp/render.js';
import { COUNTER, act, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { modelText } from '../support/modelText.js';

function answerText(result: Parameters<typeof renderCallResult>[0]): string {
  const item = renderCallResult(result).content[0];
  return item?.type === 'text' ? item.text : '';
}

describe('engine: revisions', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should hand out a revision with each tree, growing only when the tree changed', async () => {
    fixture = await engineFixture();
    const { engine } = fixture;
    const first = await engine.refresh(COUNTER);
    assert.equal(first.revision, 1);
    assert.equal((await engine.refresh(COUNTER)).revision, 1, 'nothing changed');
    const clicked = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(clicked.revision, 2);
    assert.match(answerText(clicked), /^revision: 2$/m);
    assert.equal(renderCallResult(clicked).structuredContent?.revision, 2);
  });

  it("should list the person's edit as outside_changes, apart from the call's own diff", async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    await engine.refresh(COUNTER);
    // The person changes the status between two agent calls.
    desktop.find(COUNTER, 'Status: idle').setText('Status: edited by hand');
    const result = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(result.status, 'ok');
    assert.equal(result.outsideChanges?.count, 1);
    assert.match(result.outsideChanges!.lines[0], /\[Label\] "Status: edited by hand" \| text: 'Status: idle' -> 'Status: edited by hand'/);
    assert.doesNotMatch(result.diff ?? '', /Status/, "the person's edit is not in the call's own diff");
    assert.match(result.diff ?? '', /Count: 1/);
    const text = answerText(result);
    assert.match(text, /^outside_changes: 1 change since your last read of this app that this call did not make/m);
    assert.match(text, /^ {2}~ #\d+ \[Label\] "Status: edited by hand"/m);
    assert.deepEqual((renderCallResult(result).structuredContent?.outside_changes as { count: number }).count, 1);

    const next = await engine.act(act(COUNTER, clickOn('Count: 1')));
    assert.equal(next.outsideChanges, undefined, 'nothing changed outside since the last answer');
    assert.doesNotMatch(answerText(next), /outside_changes/);
  });

  it('should refuse an if_revision call with code changed when the app changed since, touching nothing', async () => {
    fixture = await engineFixture();
    const { engine, desktop, events } = fixture;
    const read = await engine.refresh(COUNTER);
    desktop.find(COUNTER, 'Status: idle').setText('Status: edited by hand');
    await assert.rejects(engine.act({ ...act(COUNTER, clickOn('Count: 0')), ifRevision: read.revision }), (error) => {
      assert.ok(isTandemError(error, 'changed'));
      assert.equal(error.details?.revision, 2);
      const lines = error.details?.diff as string[];
      assert.equal(lines.length, 1);
      assert.match(lines[0], /^~ #\d+ \[Label\] "Status: edited by hand" \| text: 'Status: idle' -> 'Status: edited by hand'$/);
      const text = modelText(error);
      assert.match(text, /^error: changed: Counter changed since revision 1: 1 text change; it is at revision 2 now\. Nothing was done\.$/m);
      assert.match(text, /^revision: 2$/m);
      assert.match(text, /^ {2}~ #\d+ \[Label\] "Status: edited by hand"/m);
      assert.match(text, /^hint: Nothing was done: the app changed since the revision you sent/m);
      return true;
    });
    assert.equal(desktop.guardEngagements, 0, 'no guard');
    assert.ok(!desktop.calls.some((c) => c.startsWith('click')), 'nothing pressed');
    assert.equal(desktop.find(COUNTER, 'Count: 0').role, 'PushButton');
    const finished = events.filter((e) => e.event === 'call-finished').at(-1)!.payload as { result: { error?: { code: string }; revision?: number } };
    assert.equal(finished.result.error?.code, 'changed', 'the feed hears of the refusal');
    assert.equal(finished.result.revision, 2);

    const retried = await engine.act({ ...act(COUNTER, clickOn('Count: 0')), ifRevision: 2 });
    assert.equal(retried.status, 'ok', 'with the current revision it acts');
    assert.equal(desktop.find(COUNTER, 'Count: 1').role, 'PushButton');
    assert.equal(retried.outsideChanges, undefined, 'the refusal handed the edit out already');
  });

  it('should refuse an unknown revision with code changed', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    await engine.refresh(COUNTER);
    await assert.rejects(engine.act({ ...act(COUNTER, clickOn('Count: 0')), ifRevision: 9 }), (error) => {
      assert.ok(isTandemError(error, 'changed'));
      assert.match(error.message, /revision 9 of Counter is not known/);
      assert.equal(error.details?.revision, 1);
      return true;
    });
    assert.equal(desktop.guardEngagements, 0);
  });

  it('should say once, in the next answer, that the person pressed Esc during a call', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    await engine.refresh(COUNTER);
    desktop.when('click', () => desktop.human.pressEscape(), { once: true });
    const cancelled = await engine.act({ ...act(COUNTER, clickOn('Count: 0')), tool: 'click' });
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.person, undefined, "the call's own answer says cancelled already");
    const next = await engine.refresh(COUNTER);
    const cancelledId = (fixture.events.filter((e) => e.event === 'call-finished').at(-2)!.payload as { callId: number }).callId;
    assert.deepEqual(next.person, { callId: cancelledId, tool: 'click', escapePressed: true, heldBack: 0 });
    assert.match(answerText(next), /^person: pressed Esc during click \(call \d+\)/m);
    const after = await engine.act(act(COUNTER, clickOn('Count: 1')));
    assert.equal(after.person, undefined, 'said once');
    assert.doesNotMatch(answerText(after), /^person:/m);
  });

  it("should say in the next acting answer how often the person's input was held back", async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    await engine.refresh(COUNTER);
    desktop.when('click', () => {
      desktop.human.input('key');
      desktop.human.input('pointer');
    }, { once: true });
    const first = await engine.act({ ...act(COUNTER, clickOn('Count: 0')), tool: 'type_text' });
    assert.equal(first.humanInputBlocked, 2);
    const next = await engine.act(act(COUNTER, clickOn('Count: 1')));
    assert.equal(next.person?.heldBack, 2);
    assert.equal(next.person?.escapePressed, false);
    assert.match(answerText(next), /^person: was held back 2 times during type_text \(call \d+\)/m);
    assert.equal((await engine.refresh(COUNTER)).person, undefined);
  });
});
