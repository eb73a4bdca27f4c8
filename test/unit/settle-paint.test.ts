// Settling waits for the app's windows to finish painting, bounded, and an answer that would say
// "no changes" waits (within the bound) for an app that answers after a pause, and says that
// nothing changed only within the time it watched.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProgress } from '../../src/core/progress.js';
import { DEFAULT_SETTLE, settle } from '../../src/core/call/settle.js';
import { COUNTER, act, clickOn, counterDesktop, engineFixture, press } from '../support/engineFixtures.js';
import { summaryLines } from '../../src/mcp/render.js';
import type { CallResult } from '../../src/core/call/result.js';
import { ScriptedPaints } from '../support/scriptedPaints.js';

const answerText = (result: CallResult): string => summaryLines(result).join('\n');

const progress = () => createProgress({ timeoutMs: 10_000 });

describe('settle waits for painting', () => {
  it('should give up at the bound, saying so, while the app keeps painting, and close its watch', async () => {
    const desktop = counterDesktop();
    const paints = new ScriptedPaints();
    desktop.paintWatch = () => paints;
    const painter = setInterval(() => paints.paint(), 5);
    const logs: string[] = [];
    try {
      const outcome = await settle(desktop, COUNTER, { ...DEFAULT_SETTLE, quietMs: 0, paintQuietMs: 40, capMs: 150 }, createProgress({ timeoutMs: 10_000, log: (m) => logs.push(m) }));
      assert.equal(outcome, 'cap');
    } finally {
      clearInterval(painter);
    }
    assert.deepEqual(logs, ['the app was still changing after 150 ms; reading its tree anyway']);
    assert.equal(paints.closed, true, 'the watch is closed once settled');
  });

  it('should ask the tree again when the app painted after its tree fell quiet', async () => {
    const desktop = counterDesktop();
    const paints = new ScriptedPaints();
    desktop.paintWatch = () => paints;
    const settling = settle(desktop, COUNTER, { ...DEFAULT_SETTLE, quietMs: 0, paintQuietMs: 30, capMs: 5_000 }, progress());
    setTimeout(() => paints.paint(), 10);
    assert.equal(await settling, 'quiet');
    assert.equal(desktop.calls.filter((call) => call === `settle ${COUNTER}`).length, 2, 'tree quiet, a paint, tree quiet again');
  });

  it('should settle on the tree alone where paints cannot be seen', async () => {
    const desktop = counterDesktop();
    assert.equal(await settle(desktop, COUNTER, { ...DEFAULT_SETTLE, quietMs: 0, capMs: 5_000 }, progress()), 'quiet');
    assert.equal(desktop.calls.filter((call) => call === `settle ${COUNTER}`).length, 1);
  });
});

describe('an answer that would say "no changes"', () => {
  /** The counter whose Status label changes 50 ms after the click on "Start later", painting as it does. */
  async function lateApp(paintsSeen: boolean) {
    const desktop = counterDesktop();
    const paints: ScriptedPaints[] = [];
    if (paintsSeen) {
      desktop.paintWatch = () => {
        const watch = new ScriptedPaints();
        paints.push(watch);
        return watch;
      };
    }
    const status = desktop.find(COUNTER, 'Status: idle');
    // The button now answers late: its click only starts a timer.
    desktop.find(COUNTER, 'Count: 0').spec.onClick = () => {
      setTimeout(() => {
        status.setText('Status: done');
        for (const watch of paints) if (!watch.closed) watch.paint();
      }, 50);
    };
    return { fixture: await engineFixture(desktop, { settle: { quietMs: 0, paintQuietMs: 10, capMs: 2_000, fallbackMs: 0 } }), paints };
  }

  it('should wait for the app to paint again, then answer with its late change', async () => {
    const { fixture } = await lateApp(true);
    try {
      const result = await fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
      assert.deepEqual(result.textChanges, [{ role: 'Label', before: 'Status: idle', after: 'Status: done' }]);
      assert.equal(result.settled, undefined, 'the app settled');
      assert.doesNotMatch(answerText(result), /settled:/);
    } finally {
      await fixture.cleanup();
    }
  });

  it('should answer as read where the backend cannot see paints, saying that nothing changed only within its wait', async () => {
    const { fixture } = await lateApp(false);
    try {
      const result = await fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
      assert.equal(result.summary, 'no changes');
      assert.equal(typeof result.noEffectWithinMs, 'number');
      assert.match(answerText(result), /^no_effect: nothing changed in the \d+ ms this answer watched after the action; a busy app may still show its effect: refresh_traversal before repeating the action$/m);
    } finally {
      await fixture.cleanup();
    }
  });

  it('should not say no_effect when the answer shows the change', async () => {
    const { fixture } = await lateApp(true);
    try {
      const result = await fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
      assert.equal(result.noEffectWithinMs, undefined);
      assert.doesNotMatch(answerText(result), /^no_effect:/m);
    } finally {
      await fixture.cleanup();
    }
  });

  it('should not wait after a key that only moves focus or the caret', async () => {
    const { fixture, paints } = await lateApp(true);
    try {
      const result = await fixture.engine.act(act(COUNTER, press('tab')));
      assert.equal(result.summary, 'no changes');
      assert.equal(paints.length, 2, "only the settle and the screenshot's check watched the paints: no wait for a late reaction");
    } finally {
      await fixture.cleanup();
    }
  });

  it('should say settled: no when the app was still changing at the bound', async () => {
    const desktop = counterDesktop();
    desktop.settleOutcome = 'cap';
    const fixture = await engineFixture(desktop, { settle: { quietMs: 0, capMs: 100, fallbackMs: 0 } });
    try {
      const result = await fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
      assert.equal(result.settled, false);
      assert.match(answerText(result), /^settled: no: the app was still changing/m);
    } finally {
      await fixture.cleanup();
    }
  });
});
