import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { MAX_SCROLL_STEPS, linesFor } from '../../src/core/call/scrollIntoView.js';
import { COUNTER, act, clickAt, clickOn, counterDesktop, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { stepsText } from '../support/modelText.js';

describe('scroll-into-view before a click', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should scroll a list until an off-screen item shows, then click its new centre', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    let clicked = '';
    desktop.find(COUNTER, 'Item 42').spec.onClick = ({ node }) => {
      clicked = node.text;
    };
    const result = await engine.act(act(COUNTER, clickOn('Item 42')));

    assert.equal(result.status, 'ok');
    assert.equal(clicked, 'Item 42', 'the click landed on the item the model asked for');
    const list = desktop.find(COUNTER, 'Items');
    const lines = list.scrollOffset;
    assert.ok(lines > 0);
    assert.match(stepsText(result)[0], new RegExp(`^scrolled ${lines} lines down to reach "Item 42", then clicked \\[ListItem\\] "Item 42" at \\d+,\\d+$`));
    const scrolls = desktop.calls.filter((c) => c.startsWith('scroll'));
    assert.ok(scrolls.length <= MAX_SCROLL_STEPS);
    assert.ok(scrolls.every((c) => c.startsWith('scroll 295,60 ')), 'wheel at the list\'s centre');
    const item = desktop.find(COUNTER, 'Item 42');
    assert.ok(item.isShowing());
  });

  it('should find what was at an off-window point in the last tree and scroll to it', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    // Item 20 sits at y 410..430 in the unscrolled list, below the 300 pt tall window.
    let clicked = '';
    desktop.find(COUNTER, 'Item 20').spec.onClick = ({ node }) => {
      clicked = node.text;
    };
    const result = await engine.act(act(COUNTER, clickAt(250, 420)));
    assert.equal(result.status, 'ok');
    assert.equal(clicked, 'Item 20');
    assert.match(stepsText(result)[0], /to reach "Item 20"/);
  });

  it('should scroll up towards an item above the view', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.find(COUNTER, 'Items').scrollOffset = 50;
    const result = await engine.act(act(COUNTER, clickOn('Item 3')));
    assert.equal(result.status, 'ok');
    assert.match(stepsText(result)[0], /lines up to reach "Item 3"/);
  });

  it('should reach a far item in a few steps once it knows how far a line scrolls', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const result = await engine.act(act(COUNTER, clickOn('Item 99')));
    assert.equal(result.status, 'ok', result.error?.message);
    const steps = desktop.calls.filter((c) => c.startsWith('scroll')).length;
    assert.ok(steps <= 6, `${steps} wheel steps`);
    assert.ok(desktop.calls.some((c) => c.startsWith('click')));
  });

  it('should give up after 30 scroll steps and say so, clicking nothing', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    // A list that does not move under the wheel (an app that ignores it).
    let wheelSteps = 0;
    desktop.scroll = async () => {
      wheelSteps++;
    };
    const result = await engine.act(act(COUNTER, clickOn('Item 99')));

    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'not-found');
    assert.match(result.error?.message ?? '', /"Item 99" was not reached after 30 scroll steps \(\d+ lines down\)/);
    assert.equal(wheelSteps, MAX_SCROLL_STEPS);
    assert.ok(!desktop.calls.some((c) => c.startsWith('click')));
    assert.equal(desktop.guardEngaged, false);
  });

  it('should not scroll when the target is already in view', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    await engine.act(act(COUNTER, clickOn('Item 1')));
    assert.ok(!desktop.calls.some((c) => c.startsWith('scroll')));
  });

  it('should refuse to click an off-window point where the tree knows nothing', async () => {
    fixture = await engineFixture();
    const result = await fixture.engine.act(act(COUNTER, clickAt(900, 700)));
    assert.equal(result.status, 'error');
    assert.match(result.error?.message ?? '', /outside the app's window/);
    assert.ok(!fixture.desktop.calls.some((c) => c.startsWith('click')));
  });

  it('should step 1, 2 or 3 lines by distance', () => {
    assert.deepEqual([linesFor(0), linesFor(30), linesFor(100), linesFor(500), linesFor(-500)], [0, 1, 2, 3, -3]);
  });
});

describe('scroll-into-view when the toolkit hides off-screen geometry (GTK3)', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should aim from the rows on screen, scroll to an item that has no position yet, and click it', async () => {
    fixture = await engineFixture(counterDesktop({ hideOffscreenGeometry: true }));
    const { engine, desktop } = fixture;
    let clicked = '';
    desktop.find(COUNTER, 'Item 42').spec.onClick = ({ node }) => {
      clicked = node.text;
    };
    const result = await engine.act(act(COUNTER, clickOn('Item 42')));
    assert.equal(result.status, 'ok', result.error?.message);
    assert.equal(clicked, 'Item 42');
    assert.match(stepsText(result)[0], /lines down to reach "Item 42"/);
  });

});

describe('a target that lies in view but reads as hidden', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  /** Hides `text` until the app has been read `reads` more times (Firefox's page fields, just loaded). */
  function showAfterReads(desktop: EngineFixture['desktop'], text: string, reads: number): void {
    const node = desktop.find(COUNTER, text);
    node.visible = false;
    const read = desktop.snapshot.bind(desktop);
    let left = reads;
    desktop.snapshot = async (...args) => {
      if (left-- <= 0) node.visible = true;
      return read(...args);
    };
  }

  it('should read the tree again and click it once it shows, without scrolling', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    let clicked = '';
    desktop.find(COUNTER, 'Item 1').spec.onClick = ({ node }) => {
      clicked = node.text;
    };
    showAfterReads(desktop, 'Item 1', 1);
    const result = await engine.act(act(COUNTER, clickOn('Item 1')));
    assert.equal(result.status, 'ok', result.error?.message);
    assert.equal(clicked, 'Item 1');
    assert.ok(!desktop.calls.some((c) => c.startsWith('scroll')), 'nothing to scroll');
  });

  it('should still refuse, clicking nothing, when it stays hidden', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    showAfterReads(desktop, 'Item 1', Infinity);
    const result = await engine.act(act(COUNTER, clickOn('Item 1')));
    assert.equal(result.status, 'error');
    assert.match(result.error?.message ?? '', /"Item 1" is hidden although it lies inside the view/);
    assert.ok(!desktop.calls.some((c) => c.startsWith('click')));
  });
});
