// A click on an element by position asks the app what is at the point first (pointReach.ts):
// the policy over a hit chain, and the click over the scripted desktop — clicked through the
// pointer when the point reaches the element, pressed through accessibility (and said so) when
// the app puts another element there, stopped when it cannot be pressed that way.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { elementReachedInstead, windowElementOf } from '../../src/core/call/pointReach.js';
import type { ElementNode, Point } from '../../src/core/model.js';
import { describeStepDone } from '../../src/mcp/renderSteps.js';
import { COUNTER, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { tree } from '../support/treeFactory.js';

// app > window > [toolbar > (separator, button > label), panel]
const elements = tree({
  role: 'Application',
  identity: 'app',
  children: [
    {
      role: 'Frame',
      identity: 'window',
      children: [
        { role: 'ToolBar', identity: 'toolbar', children: [{ role: 'Separator', identity: 'separator' }, { role: 'ToggleButton', text: 'Bold', identity: 'bold', children: [{ role: 'Label', text: 'Bold', identity: 'label' }] }] },
        { role: 'Panel', identity: 'panel' },
      ],
    },
  ],
});
const byIdentity = (identity: string): ElementNode => elements.find((element) => element.identity === identity)!;
const bold = byIdentity('bold');

describe('pointReach: what a hit chain says about a click on an element', () => {
  it('should let the click go when the hit is the element, inside it, or a container with nothing deeper named', () => {
    assert.equal(elementReachedInstead(elements, bold, ['window', 'toolbar', 'bold']), null);
    assert.equal(elementReachedInstead(elements, bold, ['window', 'toolbar', 'bold', 'label']), null, 'a label inside the button');
    assert.equal(elementReachedInstead(elements, bold, ['window', 'toolbar']), null, 'the toolbar names no child there');
    assert.equal(elementReachedInstead(elements, bold, ['window', 'toolbar', 'not-in-the-tree']), null, 'an unknown element cannot be placed');
    assert.equal(elementReachedInstead(elements, bold, []), null);
  });

  it('should name the other element when the hit goes elsewhere', () => {
    assert.equal(elementReachedInstead(elements, bold, ['window', 'toolbar', 'separator']), byIdentity('separator'));
    assert.equal(elementReachedInstead(elements, bold, ['window', 'panel', 'not-in-the-tree']), byIdentity('panel'), 'the deepest element the tree knows');
    assert.equal(elementReachedInstead(elements, byIdentity('label'), ['window', 'toolbar', 'separator']), byIdentity('separator'));
  });

  it('should let the pointer go where the tree puts both there: a popup drawn over the page', () => {
    // Chromium's open <select> list is a window of its own above the form; the hit test from the
    // page's window finds the form's button under it. The tree puts the option there as well.
    const at: Point = { x: 132, y: 298 };
    const option = { ...bold, bounds: { x: 100, y: 290, width: 120, height: 20 } };
    const button = { ...byIdentity('separator'), bounds: { x: 90, y: 280, width: 200, height: 40 } };
    const placed = elements.map((element) => (element.identity === 'bold' ? option : element.identity === 'separator' ? button : element));
    assert.equal(elementReachedInstead(placed, option, ['window', 'toolbar', 'separator'], at), null);
    // Writer: the tree puts the separator elsewhere (its extents stale), the hit test is believed.
    const elsewhere = placed.map((element) => (element.identity === 'separator' ? { ...button, bounds: { x: 90, y: 240, width: 200, height: 20 } } : element));
    assert.equal(elementReachedInstead(elsewhere, option, ['window', 'toolbar', 'separator'], at)?.identity, 'separator');
  });

  it('should not judge a target without an identity', () => {
    assert.equal(elementReachedInstead(elements, { ...bold, identity: undefined }, ['window', 'toolbar', 'separator']), null);
  });

  it('should start the hit test from the element\'s window', () => {
    assert.equal(windowElementOf(elements, byIdentity('label')), byIdentity('window'));
    assert.equal(windowElementOf(elements, byIdentity('window')), byIdentity('window'));
    assert.equal(windowElementOf(elements, byIdentity('app')), null);
  });

  it('should word a press that replaced a click', () => {
    const words = describeStepDone({ kind: 'element-action', action: 'press', element: '[ToggleButton] "Bold"', pointMissed: { point: { x: 608, y: 78 }, reached: '[Separator] ""' } });
    assert.equal(words, 'pressed [ToggleButton] "Bold" through accessibility: the point 608,78 reaches [Separator] "" instead');
  });
});

describe('pointReach: a click on an element over the scripted desktop', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  /** The scripted app's hit test answers, for every point, the window and then the element named (or nothing). */
  async function withHitTest(text: string | null): Promise<EngineFixture> {
    fixture = await engineFixture();
    const { desktop } = fixture;
    Object.assign(desktop, {
      accessibleAtPoint: async (window: ElementNode, point: Point) => {
        desktop.calls.push(`hit-test ${point.x},${point.y}`);
        return text === null ? null : [window.identity!, desktop.find(COUNTER, text).identity];
      },
    });
    return fixture;
  }

  it('should click through the pointer when the point reaches the element', async () => {
    const { engine, desktop } = await withHitTest('Count: 0');
    const result = await engine.act({ tool: 'click', pid: COUNTER, steps: [clickOn('Count: 0')] });
    assert.equal(result.status, 'ok', JSON.stringify(result.error));
    assert.ok(desktop.calls.some((call) => call.startsWith('hit-test')), 'the app was asked');
    assert.ok(desktop.actions().some((call) => call.startsWith('click')), 'clicked with the pointer');
    assert.ok(!desktop.actions().some((call) => call.startsWith('action')), 'no accessibility action');
    assert.equal(desktop.find(COUNTER, 'Count: 1').text, 'Count: 1');
  });

  it('should press through accessibility, and say so, when another element is at the point', async () => {
    const { engine, desktop } = await withHitTest('Status: idle');
    const result = await engine.act({ tool: 'click', pid: COUNTER, steps: [clickOn('Count: 0')] });
    assert.equal(result.status, 'ok', JSON.stringify(result.error));
    assert.ok(!desktop.actions().some((call) => call.startsWith('click')), `no pointer click: ${desktop.actions().join(', ')}`);
    assert.ok(desktop.actions().includes('action press "Count: 0"'));
    assert.equal(desktop.find(COUNTER, 'Count: 1').text, 'Count: 1');
    const done = result.stepsDone[0];
    assert.equal(done.kind, 'element-action');
    assert.match(describeStepDone(done), /^pressed \[PushButton\] "Count: 0" through accessibility: the point 60,25 reaches \[Label\] "Status: idle" instead$/);
  });

  it('should stop before pressing when the click has no accessibility equivalent', async () => {
    const { engine, desktop } = await withHitTest('Status: idle');
    const result = await engine.act({ tool: 'click', pid: COUNTER, steps: [{ ...clickOn('Count: 0'), count: 2 }] });
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'not-found');
    assert.equal(result.error?.reason, 'point-reaches-other');
    assert.match(result.error?.message ?? '', /reaches \[Label\] "Status: idle" instead/);
    assert.ok(!desktop.actions().some((call) => call.startsWith('click') || call.startsWith('action')), desktop.actions().join(', '));
    assert.equal(desktop.find(COUNTER, 'Count: 0').text, 'Count: 0', 'nothing pressed');
  });

  it('should click as before when the hit test has no answer', async () => {
    const { engine, desktop } = await withHitTest(null);
    const result = await engine.act({ tool: 'click', pid: COUNTER, steps: [clickOn('Count: 0')] });
    assert.equal(result.status, 'ok');
    assert.ok(desktop.actions().some((call) => call.startsWith('click')));
  });

  it('should not ask when the click names a point', async () => {
    const { engine, desktop } = await withHitTest('Status: idle');
    await engine.act({ tool: 'click', pid: COUNTER, steps: [{ kind: 'click', target: { point: { x: 60, y: 25 } }, button: 'left', count: 1, modifiers: [] }] });
    assert.ok(!desktop.calls.some((call) => call.startsWith('hit-test')));
    assert.ok(desktop.actions().some((call) => call.startsWith('click')));
  });
});
