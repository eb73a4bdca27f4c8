// Core's drag step over the scripted desktop: both ends resolved before anything moves (element
// indexes against the tree the model was given, window points from the app's window), the
// duration bounded and counted against the watchdog, a cancel mid-drag answered and restored
// like any other step. The release of the button itself is the backend's (tested e2e on X11 and
// over the fake macOS window server).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, it } from 'node:test';
import { DRAG_MIN_MOTIONS, DRAG_MOTION_INTERVAL_MS, dragPath } from '../../src/core/input/dragPath.js';
import { isTandemError } from '../../src/core/errors.js';
import type { DragStep } from '../../src/core/call/steps.js';
import { COUNTER, FINDER, START_CURSOR, act, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import type { ScriptedDesktop } from '../support/scriptedDesktop.js';
import { stepsText } from '../support/modelText.js';

async function indexInTreeFile(file: string, prefix: string): Promise<number> {
  const line = (await readFile(file, 'utf8')).split('\n').find((candidate) => candidate.replace(/^#\d+ /, '').startsWith(prefix));
  assert.ok(line, `${prefix} is in the tree file`);
  return Number(/^#(\d+) /.exec(line)![1]);
}

function drag(from: DragStep['from'], to: DragStep['to'], more: Partial<DragStep> = {}): DragStep {
  return { kind: 'drag', from, to, button: 'left', modifiers: [], durationMs: 300, ...more };
}

/** A slider (value 0–100 across its 200 points) that follows a drag started on it. */
function addSlider(desktop: ScriptedDesktop): void {
  const window = desktop.find(COUNTER, 'Counter').children[0];
  window.append({
    role: 'Slider',
    text: 'Volume',
    // Its number is its value, as a slider's is in the tree (set_value can change it too).
    editable: true,
    focusable: false,
    value: '0',
    bounds: { x: 10, y: 200, width: 200, height: 20 },
    onDrag: ({ node, to }) => {
      node.value = String(Math.max(0, Math.min(100, Math.round(((to.x - 10) / 200) * 100))));
    },
  });
}

describe('engine: drag', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should drag from screen points, report the app\'s change, and give the cursor and the front back', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    addSlider(desktop);
    const result = await engine.act(act(COUNTER, drag({ point: { x: 10, y: 210 } }, { point: { x: 160, y: 210 } }, { durationMs: 500 })));

    assert.equal(result.status, 'ok', result.error?.message);
    assert.deepEqual(stepsText(result), ['dragged from 10,210 to 160,210 in 500 ms']);
    assert.deepEqual(desktop.actions(), ['guard:engage', 'activate 200', 'drag 10,210 -> 160,210 500ms', 'guard:release', 'move-cursor 5,5', 'activate 100']);
    assert.match(await fixture.artifactText(), /~ #\d+ \[Slider\] "Volume" \| value: '0' -> '75'/);
    assert.deepEqual(desktop.cursor, START_CURSOR);
    assert.equal(desktop.frontmostPid, FINDER);
  });

  it('should press nothing when a drag end is an element that is not on screen', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    addSlider(desktop);
    desktop.find(COUNTER, 'Volume').visible = false;
    const result = await engine.act(act(COUNTER, drag({ query: { text: 'Volume', role: 'Slider' } }, { point: { x: 160, y: 210 } })));
    assert.equal(result.error?.code, 'unsupported');
    assert.equal(result.error?.reason, 'not-on-screen');
    assert.ok(!desktop.actions().some((action) => action.startsWith('drag')), desktop.actions().join('\n'));
  });

  it('should drag between two elements named by element_index from the tree the model was given', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    addSlider(desktop);
    const tree = await engine.refresh(COUNTER);
    const slider = await indexInTreeFile(tree.file!, '[Slider] "Volume"');
    const label = await indexInTreeFile(tree.file!, '[Label] "Status: idle"');
    const result = await engine.act(act(COUNTER, drag({ query: { index: slider } }, { query: { index: label } }, { button: 'right', modifiers: ['shift'] })));

    assert.equal(result.status, 'ok', result.error?.message);
    assert.deepEqual(stepsText(result), ['dragged from [Slider] "Volume" at 110,210 to [Label] "Status: idle" at 110,180 in 300 ms with the right button and shift']);
    assert.ok(desktop.actions().includes('drag 110,210 -> 110,180 300ms right shift'), desktop.actions().join('\n'));
  });

  it('should refuse, touching nothing, when the index of either end is stale', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const tree = await engine.refresh(COUNTER);
    const button = await indexInTreeFile(tree.file!, '[PushButton] "Count: 0"');
    const label = await indexInTreeFile(tree.file!, '[Label] "Status: idle"');
    desktop.find(COUNTER, 'Status: idle').remove();
    await assert.rejects(engine.act(act(COUNTER, drag({ query: { index: button } }, { query: { index: label } }))), (error) => isTandemError(error, 'stale-element') && error.message.includes(`element_index ${label}`));
    assert.equal(desktop.guardEngagements, 0);
    assert.ok(!desktop.calls.some((call) => call.startsWith('drag')));
  });

  it('should refuse absurd durations, missing ends and drags longer than the watchdog allows, before the guard', async () => {
    fixture = await engineFixture(undefined, { watchdogMs: 1_000 });
    const { engine, desktop } = fixture;
    const point = { point: { x: 10, y: 10 } };
    for (const [step, pattern] of [
      [drag(point, point, { durationMs: 1e9 }), /durationMs must be a number of milliseconds from 0 to 10000/],
      [drag(point, point, { durationMs: Number.NaN }), /durationMs/],
      [drag(point, { point: { x: 1e9, y: 0 } }), /to: x and y must be within ±100000/],
      [drag(point, undefined as unknown as DragStep['to']), /to: no element was named/],
      [drag(point, point, { button: 'thumb' as DragStep['button'] }), /button must be left, right or middle/],
    ] as const) {
      await assert.rejects(engine.act(act(COUNTER, step)), (e) => isTandemError(e, 'bad-input') && pattern.test(e.message), String(pattern));
    }
    await assert.rejects(engine.act(act(COUNTER, drag(point, point, { durationMs: 600 }), { kind: 'wait', ms: 500 })), (e) => isTandemError(e, 'bad-input') && /wait steps and drags add up to 1100 ms/.test(e.message));
    assert.equal(desktop.guardEngagements, 0);
  });

  it('should answer cancelled when Esc comes mid-drag, run nothing after it, and put everything back', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.behave('drag', { hang: true });
    desktop.when('drag', () => setTimeout(() => desktop.human.pressEscape(), 1), { once: true });
    const result = await engine.act(act(COUNTER, drag({ point: { x: 10, y: 210 } }, { point: { x: 160, y: 210 } }, { durationMs: 5_000 }), clickOn('Count: 0')));

    assert.equal(result.status, 'cancelled');
    assert.deepEqual(stepsText(result), []);
    assert.ok(!desktop.calls.some((call) => call.startsWith('click')), 'the step after the drag never ran');
    assert.equal(desktop.guardEngaged, false);
    assert.deepEqual(desktop.cursor, START_CURSOR);
    assert.equal(desktop.frontmostPid, FINDER);
  });

  it('should treat a drag as moving the focus: text typed after it goes where the focus is then', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const name = desktop.find(COUNTER, 'Name');
    const result = await engine.act(act(COUNTER, clickOn('Name'), drag({ point: { x: 20, y: 105 } }, { point: { x: 100, y: 105 } }), { kind: 'type', text: 'hi' }));
    assert.equal(result.status, 'ok', result.error?.message);
    assert.equal(name.value, 'hi');
    assert.deepEqual(stepsText(result), ['clicked [Text] "Name" at 110,105', 'dragged from 20,105 to 100,105 in 300 ms', 'typed "hi"']);
  });
});

describe('dragPath', () => {
  it('should spread one motion per frame over the duration, ending exactly at the target', () => {
    const path = dragPath({ x: 0, y: 0 }, { x: 300, y: -150 }, 480);
    assert.equal(path.points.length, 480 / DRAG_MOTION_INTERVAL_MS);
    assert.equal(path.intervalMs, DRAG_MOTION_INTERVAL_MS);
    assert.deepEqual(path.points.at(-1), { x: 300, y: -150 });
    assert.deepEqual(path.points[0], { x: 10, y: -5 });
    for (let i = 1; i < path.points.length; i++) assert.ok(path.points[i].x > path.points[i - 1].x, 'it moves forward every time');
  });

  it('should still move in several steps for a drag of 0 ms, with no pause, and stay bounded for absurd input', () => {
    const quick = dragPath({ x: 5, y: 5 }, { x: 5, y: 85 }, 0);
    assert.equal(quick.points.length, DRAG_MIN_MOTIONS);
    assert.equal(quick.intervalMs, 0);
    assert.deepEqual(quick.points.at(-1), { x: 5, y: 85 });
    assert.equal(dragPath({ x: 0, y: 0 }, { x: 1, y: 1 }, Number.NaN).points.length, DRAG_MIN_MOTIONS);
    assert.equal(dragPath({ x: 0, y: 0 }, { x: 1, y: 1 }, 10_000).points.length, Math.round(10_000 / DRAG_MOTION_INTERVAL_MS));
  });
});
