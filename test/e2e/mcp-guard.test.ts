// The input guard, for real: a simulated person clicks and types on the X server's real devices
// while the agent acts. Their input must not reach the app while a call runs, Esc must cancel
// and put everything back, the watchdog must give control back, and a crashed server must not
// leave the person locked out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, activeWindowPid, centre, delay, eventually, findElement, pointerPosition, type ToolResult } from '../support/e2eHarness.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';
import { DEFAULT_GRACE_MS } from '../../src/core/engine.js';

describe('MCP input guard with a person at the keyboard', { timeout: 180_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;
  let human: SimulatedHuman;
  /** Centre of the counter button (its label changes, its place does not). */
  let counter: { x: number; y: number };

  const counts = (): number => fixture.eventsNamed('count').length;
  /** Waits for the fixture to report text in its entry that ends with `suffix`. */
  const typed = (suffix: string): Promise<unknown> => fixture.waitForEvent((event) => event.event === 'name' && String(event.text).endsWith(suffix), 15_000);

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
    fixture = await FixtureApp.start(desktop);
    human = await SimulatedHuman.connect(desktop.display);
    const tree = (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
    counter = centre(findElement(tree, 'Count: 0', 'button'));
  });

  after(async () => {
    await human?.close();
    await server?.close();
    await desktop?.stop();
  });

  test("should keep the person's clicks and keys from the app while the agent's input passes", async () => {
    const call = server.call('click_and_traverse', {
      pid: fixture.pid,
      element: 'Name entry',
      role: 'text',
      text: 'agent',
      steps: [{ action: 'wait', ms: 2500 }, { action: 'type', text: '-after' }, { action: 'press', keyName: 'return' }],
    });
    await typed('agent');
    // Mid-call, the person clicks the counter twice and types.
    await human.click(counter.x, counter.y);
    await human.typeText('zzz');
    await human.click(counter.x, counter.y);
    const result = await call;

    assert.equal(result.isError, false, result.text);
    const submitted = await fixture.waitForEvent((event) => event.event === 'submitted');
    assert.equal(submitted.text, 'agent-after', "the agent's text arrived, none of the person's keys");
    assert.equal(counts(), 0, "the person's clicks did not reach the app");
    assert.ok(Number(result.structured.human_input_blocked) > 0, 'the result says input was held back');

    // Once the call is over and its late-Esc grace period has passed, the person has their
    // mouse back (the guard may outlive the answer by what is left of that period).
    await delay(DEFAULT_GRACE_MS);
    await human.click(counter.x, counter.y);
    await fixture.waitForEvent((event) => event.event === 'count');
    assert.equal(counts(), 1);
  });

  test('should count an Esc pressed just after a call answered: input comes back at once and the next action is refused', async () => {
    // A long grace period (a setting) makes the moment after the answer easy to hit.
    const lingering = await McpSession.start(desktop, { env: { TANDEM_GRACE_MS: '4000' } });
    try {
      const countsBefore = counts();
      const first = await lingering.call('click_and_traverse', { pid: fixture.pid, x: counter.x, y: counter.y });
      assert.equal(first.isError, false, first.text);
      await eventually(async () => (counts() === countsBefore + 1 ? true : undefined), 5000, "the agent's click");

      // The answer is out, the guard still holds: the person's click does not reach the app.
      await human.click(counter.x, counter.y);
      await delay(300);
      assert.equal(counts(), countsBefore + 1, 'held back during the grace period');

      const escAt = Date.now();
      await human.pressKey('Escape');
      // Released at once, not when the 4 s are over (the ungrab itself takes a moment).
      await delay(150);
      await human.click(counter.x, counter.y);
      await eventually(async () => (counts() === countsBefore + 2 ? true : undefined), 1500, "the person's click after Esc");
      assert.ok(Date.now() - escAt < 2_000, 'well before the grace period would have ended');

      const refused = await lingering.call('click_and_traverse', { pid: fixture.pid, x: counter.x, y: counter.y });
      assert.equal(refused.isError, true, refused.text);
      assert.match(refused.text, /pressed Esc just after the previous action had finished/);
      await delay(300);
      assert.equal(counts(), countsBefore + 2, 'the refused action clicked nothing');

      const again = await lingering.call('click_and_traverse', { pid: fixture.pid, x: counter.x, y: counter.y });
      assert.equal(again.isError, false, 'only the one next action is refused');
    } finally {
      await lingering.close();
    }
  });

  test('should cancel on Esc, skip the remaining steps and put the cursor and the front window back', async () => {
    const other = await FixtureApp.start(desktop, ['--helper']);
    try {
      await eventually(async () => ((await activeWindowPid(desktop)) === other.pid ? true : undefined), 5000, 'the helper window in front');
      await human.moveTo(900, 650);
      assert.deepEqual(await pointerPosition(desktop), { x: 900, y: 650 });

      const call = server.call('click_and_traverse', {
        pid: fixture.pid,
        element: 'Name entry',
        role: 'text',
        text: 'first',
        steps: [{ action: 'wait', ms: 4000 }, { action: 'type', text: 'second' }],
      });
      await typed('first');
      await human.pressKey('escape');
      const result = await call;

      assert.equal(result.isError, true, result.text);
      assert.equal(result.structured.status, 'cancelled');
      assert.match(result.text, /cancel/i);
      assert.ok((result.structured.steps as string[]).length < Number(result.structured.steps_total), 'not every step ran');
      await delay(300);
      assert.ok(!fixture.lastName()?.includes('second'), `the later step never ran: ${fixture.lastName()}`);
      assert.deepEqual(await pointerPosition(desktop), { x: 900, y: 650 }, 'the cursor is back where the person left it');
      assert.equal(await activeWindowPid(desktop), other.pid, 'the window the person had in front is in front again');
    } finally {
      await other.stop();
    }
  });

  test('should give control back when the watchdog fires on a stuck action', async () => {
    const impatient = await McpSession.start(desktop, { env: { TANDEM_WATCHDOG_MS: '1500' } });
    try {
      // Read first (unguarded: no watchdog), then click by position: the 1.5 s budget is for the
      // stuck action, not for finding the button.
      const slow = await eventually(async () => {
        const tree = (await impatient.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
        const found = findElement(tree, 'Slow action', 'button');
        return Number.isFinite(found.x) ? found : undefined;
      }, 20_000, 'the slow button with its position in the tree');
      const countsBefore = counts();
      // The app hangs for 5 s after this click: with a wait the watchdog allows (1.4 s), the call
      // outlives its 1.5 s watchdog while it waits for the stuck app to settle.
      const call = impatient.call('click_and_traverse', {
        pid: fixture.pid,
        x: slow.x,
        y: slow.y,
        width: slow.width,
        height: slow.height,
        steps: [{ action: 'wait', ms: 1400 }],
      });
      // 2.5 s into the app's 5 s hang — a second after the watchdog's limit — the person clicks the
      // counter. If the guard still held their mouse, the click would be swallowed; released, the
      // X server hands it to the app, which counts it once it wakes up.
      await fixture.waitForEvent((event) => event.event === 'slow-started');
      await delay(2500);
      assert.equal(fixture.eventsNamed('slow-done').length, 0, 'the app is still stuck');
      await human.click(counter.x, counter.y);
      const result = await call;

      assert.equal(result.isError, true, result.text);
      assert.equal(result.structured.status, 'watchdog', result.text);
      assert.equal(result.structured.watchdog, true);
      assert.match(result.text, /watchdog/);
      await fixture.waitForEvent((event) => event.event === 'slow-done', 15_000);
      await fixture.waitForEvent(() => counts() > countsBefore, 10_000);
    } finally {
      await impatient.close();
    }
  });

  test("should give the person their input back within a second when the server is killed mid-call", async () => {
    const doomed = await McpSession.start(desktop);
    const countsBefore = counts();
    const call = doomed.call('click_and_traverse', {
      pid: fixture.pid,
      element: 'Name entry',
      role: 'text',
      text: 'k',
      steps: [{ action: 'wait', ms: 5000 }],
    });
    const settled: Promise<ToolResult> = call.catch((error: unknown) => ({ isError: true, text: String(error) }) as ToolResult);
    await typed('k');
    await human.click(counter.x, counter.y);
    await delay(300);
    assert.equal(counts(), countsBefore, 'while guarded, the click is held back');

    process.kill(doomed.pid, 'SIGKILL');
    // The X server drops a dead client's grab: the person's clicks must get through within 1 s.
    await eventually(async () => {
      await human.click(counter.x, counter.y);
      return counts() > countsBefore ? true : undefined;
    }, 1000, "the person's click to reach the app within 1 s of the kill");
    assert.equal((await settled).isError, true, 'the client sees the call fail');
    await doomed.close();
  });
});
