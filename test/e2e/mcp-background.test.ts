// Background calls on the real desktop (issue 20 §1): the person types 200 keys into their own
// window, on the X server's real devices, while the agent fills in another app's form with
// background: true. Every key reaches the person's window, it stays the active one, the pointer
// stays where they left it, and the form app itself reports the agent's three changes. A step
// that needs real input is refused with background: true, naming it, and nothing is done.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, activeWindowPid, centre, delay, findElement, pointerPosition } from '../support/e2eHarness.js';
import { CpuLoad } from '../support/cpuLoad.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';

/** 200 letters, so a lost or doubled key shows in the text read back. */
const PERSONS_KEYS = Array.from({ length: 200 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');

describe('MCP background calls while the person types in another window', { timeout: 180_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let form: FixtureApp;
  let typist: FixtureApp;
  let human: SimulatedHuman;
  let formTree: string;

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    // "Send" is on the default confirm_before list, and a question would hold the person's keys
    // while it is up: this file is about background input, so asking is off here (mcp-confirm.test.ts
    // proves the question, background calls included over the scripted desktop).
    server = await McpSession.start(desktop, { args: [], env: { TANDEM_CONFIRM_BEFORE: ',' } });
    form = await FixtureApp.start(desktop, ['--form']);
    typist = await FixtureApp.start(desktop, ['--typist']);
    human = await SimulatedHuman.connect(desktop.display);
    formTree = (await server.callOk('get_window_state', { pid: form.pid })).structured.file as string;
    // The person clicks into their own window: it is the active one, its entry has the focus.
    const notes = centre(findElement((await server.callOk('get_window_state', { pid: typist.pid })).structured.file as string, 'Notes', 'text'));
    await human.click(notes.x, notes.y);
    for (let tries = 0; (await activeWindowPid(desktop)) !== typist.pid && tries < 50; tries++) await delay(100);
    assert.equal(await activeWindowPid(desktop), typist.pid, "the person's window is active before the agent acts");
  });

  /** The scenario of issue 20 §1: the agent's background calls (insert, set, toggle, press) during the person's 200 keys. */
  async function fillInWhileThePersonTypes(subject: string): Promise<void> {
    const pointerBefore = await pointerPosition(desktop);
    const formEventsBefore = form.events.length;
    const notesBefore = typist.eventsNamed('notes').at(-1)?.text ?? '';
    const wasUrgent = form.eventsNamed('urgent').at(-1)?.active === true;
    const urgent = findElement(formTree, 'Urgent', 'check');
    const send = findElement(formTree, 'Send', 'button');

    // The person types in bursts for the whole time the agent acts.
    let agentDone = false;
    const typing = (async () => {
      for (let at = 0; at < PERSONS_KEYS.length; at += 10) {
        await human.typeText(PERSONS_KEYS.slice(at, at + 10));
        await delay(agentDone ? 0 : 60);
      }
    })();
    const answers = [];
    const subjectField = findElement(formTree, 'Subject', 'text');
    // Text inserted at the field's caret (EditableText.InsertText), then its whole value set.
    answers.push(await server.call('type_text', { pid: form.pid, element_index: subjectField.index, text: ' draft', background: true }));
    answers.push(await server.call('set_value', { pid: form.pid, element: 'Subject', role: 'text', value: subject, background: true }));
    answers.push(await server.call('click', { pid: form.pid, element_index: urgent.index, background: true }));
    answers.push(await server.call('click', { pid: form.pid, element_index: send.index, background: true }));
    agentDone = true;
    await typing;

    for (const answer of answers) {
      assert.equal(answer.isError, false, answer.text);
      assert.equal(answer.structured.background, true, 'the answer says it ran in the background');
      assert.match(answer.fields.background ?? '', /^yes/);
      assert.equal(answer.structured.human_input_blocked, 0, "nothing of the person's was held back");
    }
    const expected = notesBefore + PERSONS_KEYS;
    const notes = await typist.waitForEvent((event) => event.event === 'notes' && String(event.text).length >= expected.length, 15_000);
    assert.equal(notes.text, expected, "every one of the person's keys arrived in their window, in order");
    assert.equal(await activeWindowPid(desktop), typist.pid, "the person's window is still the active one");
    assert.deepEqual(await pointerPosition(desktop), pointerBefore, 'the pointer did not move');

    // The form app's own word for the three changes.
    const since = (name: string) => form.events.slice(formEventsBefore).filter((event) => event.event === name);
    await form.waitForEvent((event) => event.event === 'sent' && event.subject === subject);
    assert.ok(since('subject').some((event) => String(event.text).includes(' draft')), 'the inserted text reached the field');
    assert.equal(since('subject').at(-1)?.text, subject);
    assert.deepEqual(since('urgent').map((event) => event.active), [!wasUrgent], 'the check box toggled once');
    assert.equal(since('sent').length, 1, 'the button was pressed once');
    assert.equal(since('window-focus').filter((event) => event.focused === true).length, 0, 'the form never got the keyboard focus');
  }

  after(async () => {
    await human?.close();
    await typist?.stop();
    await form?.stop();
    await server?.close();
    await desktop?.stop();
  });

  for (const loaded of [false, true]) {
    test(`should insert into and set a field, toggle a check box and press a button while every one of the person's keys reaches their window${loaded ? ', both cores loaded' : ''}`, async () => {
      const load = loaded ? CpuLoad.start() : undefined;
      try {
        await fillInWhileThePersonTypes(loaded ? 'Quarterly report (loaded)' : 'Quarterly report');
      } finally {
        load?.stop();
      }
    });
  }

  test('should refuse a click at a point and a key press with background: true, naming the step, with nothing done', async () => {
    const formEvents = form.events.length;
    const typistEvents = typist.events.length;
    const send = centre(findElement(formTree, 'Send', 'button'));

    const atPoint = await server.call('click', { pid: form.pid, x: send.x, y: send.y, background: true });
    assert.equal(atPoint.isError, true, atPoint.text);
    assert.match(atPoint.text, /Step 1 \(click\) cannot run in the background/);
    assert.match(atPoint.text, /without background/, 'the answer says what to send instead');

    const keys = await server.call('run_steps', { pid: form.pid, steps: [{ action: 'click', element: 'Subject', role: 'text' }, { action: 'press', key: 'a' }], background: true });
    assert.equal(keys.isError, true, keys.text);
    assert.match(keys.text, /Step 2 \(press\) cannot run in the background/);

    await delay(500);
    assert.deepEqual(form.events.slice(formEvents), [], 'the form saw nothing: no press, no focus, no key');
    assert.deepEqual(typist.events.slice(typistEvents), [], "nothing reached the person's window");
    assert.equal(await activeWindowPid(desktop), typist.pid);
  });
});
