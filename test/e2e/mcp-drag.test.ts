// The drag tool through a real MCP client on the GTK fixture, checked through what the app itself
// reports on stdout: its slider's knob follows the drag step by step to the value under the
// release point (also with both cores loaded), a drag by element_index selects the field's text,
// and Esc during a long drag answers cancelled with the button released — the X server holds no
// button down, the knob stops, and the person's own click reaches the app.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { CpuLoad } from '../support/cpuLoad.js';
import { FixtureApp, McpSession, centre, delay, eventually, findElement, parseTreeLines, pointerButtons, startDesktopSession, stopDesktopSession, type TreeLine } from '../support/e2eHarness.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';
import { DEFAULT_GRACE_MS } from '../../src/core/engine.js';
import { indexOnLine } from '../support/treeIndex.js';

const FIELD_TEXT = 'alpha beta gamma delta';

describe('drag on a real GTK app', { timeout: 180_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;
  let human: SimulatedHuman;

  before(async () => {
    ({ desktop, server, fixture } = await startDesktopSession());
    human = await SimulatedHuman.connect(desktop.display);
  });
  after(async () => {
    await human?.close();
    await stopDesktopSession({ desktop, server });
  });

  const tree = async () => {
    const file = (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
    const text = readFileSync(file, 'utf8');
    return { file, lines: text.split('\n'), parsed: parseTreeLines(text) };
  };
  const slider = async (): Promise<TreeLine> => {
    const found = (await tree()).parsed.find((line) => line.role === 'Slider' && line.text === 'Volume');
    assert.ok(found, 'the slider is in the tree');
    return found;
  };
  const volumes = (): number[] => fixture.eventsNamed('volume').map((event) => Number(event.value));
  const lastVolume = (): number => volumes().at(-1) ?? 0;
  /** A screen point (as the tree prints them) on the slider's middle row, `fraction` of the way along its trough. */
  const along = (bar: TreeLine, fraction: number) => ({ x: Math.round(bar.x + bar.width * fraction), y: Math.round(bar.y + bar.height / 2) });

  /** Drags the knob to the far left (value 0), as a person resetting it would. */
  const resetSlider = async (): Promise<void> => {
    if (lastVolume() === 0) return;
    const bar = await slider();
    await server.callOk('drag', { pid: fixture.pid, from: along(bar, lastVolume() / 100), to: { x: 0, y: along(bar, 0).y }, duration_ms: 200 });
    await fixture.waitForEvent(() => lastVolume() === 0);
  };

  /** Drags the knob from 0 to `fraction` of the trough; returns the app's values during the drag. */
  const dragKnob = async (fraction: number): Promise<{ seen: number[]; result: Awaited<ReturnType<McpSession['callOk']>> }> => {
    await resetSlider();
    const bar = await slider();
    const before = volumes().length;
    // The knob sits at the trough's left end at 0: press on it, release `fraction` along.
    const result = await server.callOk('drag', { pid: fixture.pid, from: along(bar, 0.02), to: along(bar, fraction), duration_ms: 600 });
    return { seen: volumes().slice(before), result };
  };

  test('should move the slider\'s knob along with the pointer to the value under the release point', async (t) => {
    const { seen, result } = await dragKnob(0.75);
    const final = lastVolume();
    t.diagnostic(`values the app reported during the drag: ${seen.join(', ')}; answered in ${String(result.structured.duration_ms)} ms`);
    assert.ok(Math.abs(final - 75) <= 6, `the app's value is about 75 (the knob's width shifts it a little): ${final}`);
    assert.ok(seen.length >= 5, `the knob followed the pointer, not one jump: values ${seen.join(', ')}`);
    assert.ok(seen.every((value, i) => i === 0 || value >= seen[i - 1]), `and only forwards: ${seen.join(', ')}`);
    assert.match(readFileSync(result.structured.file as string, 'utf8'), new RegExp(`^~ #\\d+ \\[Slider\\] "Volume" \\| value: '0' -> '${final}'$`, 'm'), 'the diff says what the app says');
    assert.match((result.structured.steps as string[])[0], /^dragged from \d+,\d+ to \d+,\d+ in 600 ms$/);
    assert.equal(await pointerButtons(desktop), 0, 'no button is left pressed');
  });

  test('should move the knob to the right value with both cores loaded by another process', async (t) => {
    const load = CpuLoad.start();
    try {
      const { seen, result } = await dragKnob(0.3);
      t.diagnostic(`under load: values ${seen.join(', ')}; answered in ${String(result.structured.duration_ms)} ms`);
      assert.ok(Math.abs(lastVolume() - 30) <= 6, `the app's value is about 30: ${lastVolume()} (values ${seen.join(', ')})`);
      assert.ok(seen.length >= 3, `the knob followed the pointer: ${seen.join(', ')}`);
      assert.equal(await pointerButtons(desktop), 0, 'no button is left pressed');
    } finally {
      load.stop();
    }
  });

  test('should select the field\'s text by a drag from its element_index to a point before its first letter', async () => {
    const { lines, file } = await tree();
    const index = indexOnLine(lines.join('\n'), '[Text] "Drag field"');
    const field = findElement(file, 'Drag field', 'Text');
    // The field's centre lies past the end of its short text: from there back to its left edge
    // the drag covers every letter.
    const start = { x: field.x + 2, y: centre(field).y };
    await server.callOk('drag', { pid: fixture.pid, from: { element_index: index }, to: start });
    const selected = await fixture.waitForEvent((event) => event.event === 'selection' && event.text === FIELD_TEXT).catch(() => null);
    assert.ok(selected, `the app selected its whole text; it reported: ${JSON.stringify(fixture.eventsNamed('selection').map((event) => event.text))}`);
    assert.equal(await pointerButtons(desktop), 0, 'no button is left pressed');
  });

  test('should answer cancelled on Esc mid-drag with the button released: the knob stops and the person\'s click gets through', async (t) => {
    {
      await resetSlider();
      const bar = await slider();
      // An Esc within the previous call's grace period would count against that call.
      await delay(DEFAULT_GRACE_MS);
      const before = fixture.events.length;
      const call = server.call('drag', { pid: fixture.pid, from: along(bar, 0.02), to: along(bar, 0.98), duration_ms: 8_000 });
      // Once the knob is on its way (the app says so), the person presses Esc.
      await fixture.waitForEvent((event) => fixture.events.indexOf(event) >= before && event.event === 'volume' && Number(event.value) >= 5, 15_000);
      const escAt = Date.now();
      await human.pressKey('escape');
      const result = await call;
      t.diagnostic(`answered cancelled ${Date.now() - escAt} ms after Esc, the knob at ${lastVolume()}`);

      assert.equal(result.isError, true, result.text);
      assert.equal(result.structured.status, 'cancelled', result.text);
      assert.equal(await pointerButtons(desktop), 0, 'the X server holds no button down after the cancelled answer');
      const atAnswer = volumes().length;
      const stoppedAt = lastVolume();
      assert.ok(stoppedAt < 90, `the drag stopped part way: ${stoppedAt}`);
      await delay(500);
      assert.equal(volumes().length, atAnswer, `nothing moved the knob after the answer: ${volumes().slice(atAnswer).join(', ')}`);

      // The person's own input is theirs again: their click on the counter is counted (a button
      // still held by the drag would have sent it to the slider's grab instead).
      const button = (await tree()).parsed.find((line) => line.role === 'PushButton' && line.text.startsWith('Count:'));
      assert.ok(button, 'the counter button');
      const counter = centre(button);
      const counts = fixture.eventsNamed('count').length;
      await human.click(counter.x, counter.y);
      await eventually(async () => (fixture.eventsNamed('count').length === counts + 1 ? true : undefined), 3_000, "the person's click counted by the app");
      assert.equal(lastVolume(), stoppedAt, 'and it did not move the knob');
    }
  });
});
