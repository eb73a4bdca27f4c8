// Act means consumed: synthetic input is paced by what the app has handled, so a cancel (Esc,
// watchdog, the client's notifications/cancelled) means nothing more arrives, a server killed
// mid-typing leaves the person a working keyboard and mouse within a second, and `ok` means the
// app has the whole text. The fixture app prints every key it handles with the time it handled
// it: that, not Tandem's own report, is what these tests read. It is a hostile target on
// purpose: it writes a line per key, so it takes in typing far slower than XTEST can send it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, centre, delay, eventually, findElement, type FixtureEvent, type ToolResult } from '../support/e2eHarness.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';
import { DEFAULT_GRACE_MS } from '../../src/core/engine.js';

/** The figure: a cancelled answer may be followed by at most this many synthetic events. */
const MAX_EVENTS_AFTER_CANCEL = 5;
const LONG_TEXT = 'x'.repeat(40_000);

describe('paced input: a cancel means nothing more arrives, ok means all of it arrived', { timeout: 300_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;
  let human: SimulatedHuman;
  let counter: { x: number; y: number };

  /** Key events the app handled after `since` (epoch ms), per its own clock. */
  const keysAfter = (since: number): FixtureEvent[] => fixture.eventsNamed('key').filter((event) => Number(event.t) > since);
  const lastNameLength = (): number => [...(fixture.lastName() ?? '')].length;

  /** Starts typing the long text into the (cleared) name entry; resolves once the app is taking it in. */
  async function startLongTyping(session: McpSession, options: { signal?: AbortSignal } = {}): Promise<{ call: Promise<ToolResult> }> {
    const keysBefore = fixture.eventsNamed('key').length;
    const args = { pid: fixture.pid, element: 'Name entry', role: 'text', steps: [{ action: 'press', keyName: 'a', modifierFlags: ['ctrl'] }, { action: 'press', keyName: 'backspace' }, { action: 'type', text: LONG_TEXT }] };
    const call = options.signal
      ? session.client
          .callTool({ name: 'click_and_traverse', arguments: args }, undefined, { signal: options.signal, timeout: 60_000 })
          .then((raw) => ({ isError: Boolean(raw.isError), text: '', texts: [], structured: (raw.structuredContent ?? {}) as Record<string, unknown>, fields: {}, raw }) as ToolResult)
      : session.call('click_and_traverse', args, 60_000);
    call.catch(() => {});
    await eventually(() => (fixture.eventsNamed('key').length > keysBefore + 200 ? true : undefined), 20_000, 'the app taking in the typing');
    return { call };
  }

  /** Waits 2 s after `answeredAt` and returns the keys the app handled after it. */
  async function keysInTwoSecondsAfter(answeredAt: number): Promise<FixtureEvent[]> {
    await delay(2_000);
    return keysAfter(answeredAt);
  }

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

  test('should let no more than a few keys reach the app after Esc answered "cancelled"', async () => {
    const { call } = await startLongTyping(server);
    await delay(1_500);
    await human.pressKey('Escape');
    const result = await call;
    const answeredAt = Date.now();
    assert.equal(result.structured.status, 'cancelled', result.text);
    const typed = lastNameLength();
    assert.ok(typed > 500 && typed < LONG_TEXT.length, `typing was under way and was stopped (${typed} characters)`);
    const late = await keysInTwoSecondsAfter(answeredAt);
    assert.ok(late.length <= MAX_EVENTS_AFTER_CANCEL, `${late.length} keys reached the app in the 2 s after the cancelled answer`);
  });

  test('should let no more than a few keys reach the app after the watchdog answered', async () => {
    const impatient = await McpSession.start(desktop, { env: { TANDEM_WATCHDOG_MS: '2500' } });
    try {
      const result = await (await startLongTyping(impatient)).call;
      const answeredAt = Date.now();
      assert.equal(result.structured.status, 'watchdog', result.text);
      const late = await keysInTwoSecondsAfter(answeredAt);
      assert.ok(late.length <= MAX_EVENTS_AFTER_CANCEL, `${late.length} keys reached the app in the 2 s after the watchdog answer`);
    } finally {
      await impatient.close();
    }
  });

  test("should let no more than a few keys reach the app once the client's cancel has been handled", async () => {
    const controller = new AbortController();
    const { call } = await startLongTyping(server, { signal: controller.signal });
    controller.abort();
    await assert.rejects(call, 'the client gave up on the call');
    // The server runs one action at a time: once the next action has answered, the cancelled
    // one is over. That click is also the "call right after" that must not queue behind leftovers.
    const countsBefore = fixture.eventsNamed('count').length;
    const next = await server.callOk('click_and_traverse', { pid: fixture.pid, x: counter.x, y: counter.y });
    const answeredAt = Date.now();
    assert.equal(fixture.eventsNamed('count').length, countsBefore + 1, 'the next click had been handled when it answered');
    assert.equal(next.structured.status, 'ok');
    const late = await keysInTwoSecondsAfter(answeredAt);
    assert.ok(late.length <= MAX_EVENTS_AFTER_CANCEL, `${late.length} keys reached the app after the cancelled call was over`);
  });

  test('should answer ok only once the app has every character, and leave nothing queued for the next call', async () => {
    const text = 'paced-' + 'abcdefghij'.repeat(200);
    const notices: string[] = [];
    const raw = await server.client.callTool(
      {
        name: 'click_and_traverse',
        arguments: {
          pid: fixture.pid,
          element: 'Name entry',
          role: 'text',
          steps: [{ action: 'press', keyName: 'a', modifierFlags: ['ctrl'] }, { action: 'press', keyName: 'backspace' }, { action: 'type', text }],
        },
      },
      undefined,
      { timeout: 60_000, onprogress: (notice) => notices.push(notice.message ?? '') },
    );
    const answeredAt = Date.now();
    const result = { structured: (raw.structuredContent ?? {}) as Record<string, unknown> };
    assert.equal(raw.isError, undefined, JSON.stringify(raw.content));
    // MCP progress: each step, and the characters the app had taken in, as it took them in.
    assert.deepEqual(notices.filter((notice) => notice.includes('characters typed')), ['step 4 of 4: 504 of 2,006 characters typed', 'step 4 of 4: 1,008 of 2,006 characters typed', 'step 4 of 4: 1,512 of 2,006 characters typed']);
    assert.equal(notices.filter((notice) => /^step \d of 4: /.test(notice)).length, 4 + 3);
    const handled = fixture.eventsNamed('name').filter((event) => event.text === text);
    assert.equal(handled.length, 1, 'the app holds the whole text');
    assert.ok(Number(handled[0].t) <= answeredAt, 'it had it before the answer');
    assert.deepEqual(keysAfter(answeredAt), [], 'no key of this call reached the app after its answer');
    const diff = readFileSync((raw.structuredContent as { file: string }).file, 'utf8');
    assert.ok(/^~ #\d+ \[Text\] "Name entry" \| value: /m.test(diff) && diff.includes(`-> '${text}'`), 'the diff holds the whole typed text');

    const countsBefore = fixture.eventsNamed('count').length;
    const next = await server.callOk('click_and_traverse', { pid: fixture.pid, x: counter.x, y: counter.y });
    assert.equal(fixture.eventsNamed('count').length, countsBefore + 1, 'the next click did not wait behind leftover keys');
    assert.equal(next.structured.status, 'ok');
    assert.equal(fixture.lastName(), text, 'and nothing more arrived in the entry');
    assert.ok(result.structured.duration_ms !== undefined);
  });

  test('should type text the keyboard layout lacks exactly, in order, and give the person a free mouse right after', async () => {
    const text = 'héllo € ✓ 日本語のテキスト ñ ç ø ß — ☃ Ωμέγα '.repeat(4);
    await server.callOk('click_and_traverse', {
      pid: fixture.pid,
      element: 'Name entry',
      role: 'text',
      steps: [{ action: 'press', keyName: 'a', modifierFlags: ['ctrl'] }, { action: 'press', keyName: 'backspace' }, { action: 'type', text }],
    });
    assert.equal(fixture.lastName(), text);
    // Every keyboard mapping change makes the window manager rebind all its keys, with the
    // person's clicks held back meanwhile: borrowing keycodes must not leave a backlog of them.
    await delay(DEFAULT_GRACE_MS + 100);
    const countsBefore = fixture.eventsNamed('count').length;
    await human.click(counter.x, counter.y);
    await eventually(() => (fixture.eventsNamed('count').length > countsBefore ? true : undefined), 1_000, "the person's click right after the typing");
  });

  // Last: it kills its own server, and the name entry is left holding what was typed.
  test("should give the person's keyboard and mouse back within a second of kill -9 mid-typing", async () => {
    const doomed = await McpSession.start(desktop);
    const { call } = await startLongTyping(doomed);
    const settled = call.catch(() => undefined);
    process.kill(doomed.pid, 'SIGKILL');
    const killedAt = Date.now();
    // The person types a key into the entry that still has focus, then clicks the counter.
    await eventually(async () => {
      await human.typeText('Q');
      return fixture.lastName()?.endsWith('Q') ? true : undefined;
    }, 1_000, "the person's key to reach the app within 1 s of the kill");
    const countsBefore = fixture.eventsNamed('count').length;
    await eventually(async () => {
      await human.click(counter.x, counter.y);
      return fixture.eventsNamed('count').length > countsBefore ? true : undefined;
    }, Math.max(0, killedAt + 1_000 - Date.now()), "the person's click to reach the app within 1 s of the kill");
    await settled;
    await doomed.close();
  });
});
