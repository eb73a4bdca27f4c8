// The answer's screenshot shows what its diff says: an app that changes and paints again after
// the screenshot (gnome-calculator showing '=''s result) is settled, captured and read again;
// one that never stops is answered at the bound with settled: no. And a launch waits longer
// for a new window than an action does for a change. A spinner's own repaints do not count.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ElementNode, Rect, Screenshot } from '../../src/core/model.js';
import { busyIndicatorAreas, insideOneOf } from '../../src/core/call/busyIndicators.js';
import { createProgress, type Progress } from '../../src/core/progress.js';
import { DEFAULT_SETTLE, settle } from '../../src/core/call/settle.js';
import { LAUNCH_QUIET_MS, launchSettleOptions } from '../../src/core/apps/launchSettle.js';
import { COUNTER, act, clickOn, counterDesktop, engineFixture } from '../support/engineFixtures.js';
import { ScriptedPaints } from '../support/scriptedPaints.js';

/**
 * The counter whose click shows "Status: working" at once; right after a screenshot (the first,
 * or every one) the app shows "Status: done" and paints.
 */
function appChangingAfterCapture(changesAfter: 'first' | 'every') {
  const desktop = counterDesktop();
  const watches: ScriptedPaints[] = [];
  desktop.paintWatch = () => {
    const watch = new ScriptedPaints();
    watches.push(watch);
    return watch;
  };
  const status = desktop.find(COUNTER, 'Status: idle');
  desktop.find(COUNTER, 'Count: 0').spec.onClick = () => status.setText('Status: working');
  const capture = desktop.screenshot.bind(desktop);
  let captures = 0;
  desktop.screenshot = async (target: { windowId?: number; pid?: number }, progress: Progress): Promise<Screenshot> => {
    const shot = await capture(target, progress);
    captures++;
    if (changesAfter === 'every' || captures === 1) {
      status.setText(`Status: done ${captures}`);
      for (const watch of watches) if (!watch.closed) watch.paint();
    }
    return shot;
  };
  return { desktop, captures: () => captures };
}

describe('the screenshot of an acting answer', () => {
  it('should be taken again when the app painted after it, so that it shows the change the diff reports', async () => {
    const { desktop, captures } = appChangingAfterCapture('first');
    const fixture = await engineFixture(desktop, { settle: { ...DEFAULT_SETTLE, quietMs: 0, paintQuietMs: 10, capMs: 2_000, fallbackMs: 0 } });
    try {
      const result = await fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
      assert.deepEqual(result.textChanges, [{ role: 'Label', before: 'Status: idle', after: 'Status: done 1' }]);
      assert.equal(captures(), 2, 'captured once more after the paint that showed "done"');
      assert.equal(result.settled, undefined, 'the app settled');
    } finally {
      await fixture.cleanup();
    }
  });

  it('should say settled: no when the app kept painting after every screenshot until the bound', async () => {
    const { desktop, captures } = appChangingAfterCapture('every');
    const fixture = await engineFixture(desktop, { settle: { ...DEFAULT_SETTLE, quietMs: 0, paintQuietMs: 10, capMs: 200, fallbackMs: 0 } });
    try {
      const result = await fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
      assert.equal(result.settled, false);
      assert.ok(captures() >= 2, 'it tried again within the bound');
    } finally {
      await fixture.cleanup();
    }
  });

  it('should be taken once where nothing painted after it', async () => {
    const desktop = counterDesktop();
    desktop.paintWatch = () => new ScriptedPaints();
    const fixture = await engineFixture(desktop, { settle: { ...DEFAULT_SETTLE, quietMs: 0, paintQuietMs: 10, capMs: 2_000, fallbackMs: 0 } });
    try {
      const result = await fixture.engine.act(act(COUNTER, clickOn('Count: 0')));
      assert.equal(result.settled, undefined);
      assert.equal(desktop.calls.filter((call) => call.startsWith('screenshot')).length, 1);
    } finally {
      await fixture.cleanup();
    }
  });
});

describe('a launch settle', () => {
  it('should wait for a longer quiet, of the tree and of painting, than an action, within its own bound', () => {
    const options = launchSettleOptions(DEFAULT_SETTLE, 2_000);
    assert.deepEqual([options.quietMs, options.paintQuietMs, options.capMs], [LAUNCH_QUIET_MS, LAUNCH_QUIET_MS, 2_000]);
    assert.ok(LAUNCH_QUIET_MS > DEFAULT_SETTLE.quietMs);
    assert.equal(launchSettleOptions({ ...DEFAULT_SETTLE, quietMs: 500 }, 2_000).quietMs, 500, "a person's longer settle_quiet_ms stands");
  });
});

describe('busy indicators while settling', () => {
  const element = (role: string, bounds: Rect | null, visible = true) => ({ role, bounds, visible }) as ElementNode;

  it('should name the areas of visible spinners and progress bars only', () => {
    const bar = { x: 557, y: 81, width: 312, height: 18 };
    const areas = busyIndicatorAreas([element('ProgressBar', bar), element('Animation', { x: 262, y: 369, width: 16, height: 22 }), element('Animation', { x: 0, y: 0, width: 16, height: 22 }, false), element('PushButton', { x: 0, y: 0, width: 80, height: 30 }), element('ProgressBar', null)]);
    assert.deepEqual(areas, [bar, { x: 262, y: 369, width: 16, height: 22 }]);
    assert.deepEqual(busyIndicatorAreas(undefined), []);
  });

  it('should ignore a paint wholly inside one, and count one that spills outside it', () => {
    const bar = { x: 557, y: 81, width: 312, height: 18 };
    assert.equal(insideOneOf({ x: 557, y: 81, width: 312, height: 18 }, [bar]), true, "the pulsing bar's own repaint");
    assert.equal(insideOneOf({ x: 556, y: 80, width: 314, height: 20 }, [bar]), true, 'its outline');
    assert.equal(insideOneOf({ x: 557, y: 81, width: 312, height: 60 }, [bar]), false, 'the bar and the row below it');
    assert.equal(insideOneOf({ x: 0, y: 0, width: 1381, height: 741 }, [bar]), false, 'the whole window');
    assert.equal(insideOneOf(bar, []), false);
  });
});

describe('a settle while something keeps painting', () => {
  const bar = { x: 557, y: 81, width: 312, height: 18 };
  const treeWithBar = { pid: COUNTER, app: 'Counter', elements: [{ role: 'ProgressBar', bounds: bar, visible: true } as ElementNode], elapsedMs: 1 };

  /** Paints every 5 ms on every watch that does not leave out `bar`; `elsewhere` paints on every watch. */
  function painting(elsewhere: boolean) {
    const desktop = counterDesktop();
    const watches: ScriptedPaints[] = [];
    desktop.watchPaint = async (_pid: number, _progress: Progress, ignoring: readonly Rect[] = []) => {
      const watch = new ScriptedPaints();
      if (elsewhere || !ignoring.some((area) => area.x === bar.x && area.y === bar.y)) watches.push(watch);
      return watch;
    };
    const painter = setInterval(() => watches.forEach((watch) => watch.paint()), 5);
    return { desktop, stop: () => clearInterval(painter) };
  }
  const options = { ...DEFAULT_SETTLE, quietMs: 0, paintQuietMs: 30, capMs: 600 };
  const progress = () => createProgress({ timeoutMs: 10_000 });

  it('should read the tree once and settle when the painting is a busy indicator it shows', async () => {
    const { desktop, stop } = painting(false);
    let reads = 0;
    try {
      const outcome = await settle(desktop, COUNTER, options, progress(), undefined, async () => (reads++, treeWithBar));
      assert.equal(outcome, 'quiet');
      assert.equal(reads, 1);
    } finally {
      stop();
    }
  });

  it('should still wait out the bound when painting goes on outside the busy indicators, or nothing can read the tree', async () => {
    const outside = painting(true);
    try {
      assert.equal(await settle(outside.desktop, COUNTER, options, progress(), undefined, async () => treeWithBar), 'cap');
    } finally {
      outside.stop();
    }
    const unread = painting(false);
    try {
      assert.equal(await settle(unread.desktop, COUNTER, options, progress()), 'cap');
    } finally {
      unread.stop();
    }
  });
});
