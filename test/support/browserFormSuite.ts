// One behaviour suite for every browser (Playwright's pattern: the same tests against each
// engine, known gaps declared per engine). A web form served on loopback is driven through a
// real MCP client: read, typed into by its labels, ticked, chosen from, its alert handled,
// submitted, and Esc honoured mid-typing. The oracle is what the browser itself shows and, above
// all, what it sent to the test's server. One desktop and one browser per file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { startFormServer, type FormServer } from '../../scripts/lib/appHarness.js';
import { McpSession, delay, eventually, parseTreeLines, type ToolResult, type TreeLine } from './e2eHarness.js';
import { SimulatedHuman } from './simulatedHuman.js';

export interface BrowserUnderTest {
  /** Suite title. */
  name: string;
  /** Installs the browser's .desktop entry opening `url`; returns the identifier to open. */
  entry(desktop: VirtualDesktop, url: string): string;
  /** The app name the accessibility bus gives it. */
  appName: string;
  /** Checks, from outside, that Tandem started it with what its toolkit needs. */
  checkLaunch(pid: number): void;
  /** Whether the select's chosen option shows as the combo box's value (a diff line). */
  selectValueInDiff: boolean;
  /** Wait before clicking a dialog's button (Chromium ignores clicks on a dialog that just appeared). */
  dialogSettleMs: number;
  /** Known gap: characters may reach the page after a cancelled answer (the todo reason), or undefined. */
  trailingKeysTodo?: string;
}

/** A value's length from its tree line (values are cut at 160 characters there, the cut marked). */
export function fieldLength(value: string): number {
  const cut = /…\(\+(\d+) chars\)$/.exec(value);
  return cut ? [...value.slice(0, cut.index)].length + Number(cut[1]) : [...value].length;
}

export function browserFormSuite(browser: BrowserUnderTest): void {
  describe(`${browser.name}: a web form through a real MCP client`, { timeout: 240_000 }, () => {
    let desktop: VirtualDesktop;
    let server: McpSession;
    let web: FormServer;
    let human: SimulatedHuman;
    let pid: number;
    const answers: string[] = [];

    const diffOf = (result: ToolResult): string => readFileSync(result.structured.file as string, 'utf8');
    const tree = async (): Promise<TreeLine[]> => parseTreeLines(diffOf(await server.callOk('refresh_traversal', { pid })));
    const valueOf = async (role: string, name: string): Promise<string | undefined> => (await tree()).find((line) => line.role === role && line.text === name)?.value;

    before(async () => {
      ensureDesktopPackages();
      desktop = await startVirtualDesktop();
      web = await startFormServer();
      server = await McpSession.start(desktop);
      human = await SimulatedHuman.connect(desktop.display);
      // Every answer of the suite, for the check on launched programs at its end.
      const call = server.call.bind(server);
      server.call = async (...args) => {
        const result = await call(...args);
        answers.push(result.text);
        return result;
      };
    });

    after(async () => {
      await human?.close();
      await server?.close();
      await web?.close();
      await desktop?.stop();
    });

    test('should read the page of a browser it starts: labelled fields, select, checkbox and buttons', async () => {
      const opened = await server.callOk('open_application_and_traverse', { identifier: browser.entry(desktop, `${web.origin}/form`) });
      pid = opened.structured.pid as number;
      assert.equal(opened.structured.app, browser.appName);
      // The page loads after the window appears: read until it is there and on screen, as an agent
      // would (Firefox lists a loading page's elements a moment before it shows them).
      const shown = (line: TreeLine): boolean => / visible\b/.test(line.line);
      const page = await eventually(async () => {
        const found = await tree();
        const onScreen = (role: string, name: string): boolean => found.some((line) => line.role === role && line.text === name && shown(line));
        return onScreen('PushButton', 'Book courier') && onScreen('Entry', 'Recipient name') ? found : undefined;
      }, 20_000, 'the form in the tree, on screen');
      const find = (role: string, name: string): TreeLine | undefined => page.find((line) => line.role === role && line.text === name);
      assert.equal(find('Entry', 'Recipient name')?.value, '', 'the text field by its label, empty');
      assert.equal(find('Entry', 'Courier note')?.value, '');
      assert.ok(find('ComboBox', 'Speed'), 'the select by its label');
      assert.equal(find('CheckBox', 'Fragile')?.value, 'unchecked');
      assert.ok(find('PushButton', 'Preview booking'));
      browser.checkLaunch(pid);
    });

    test('should type into both fields, by label and by type_text in its default mode, with each value change in the diff', async () => {
      const name = await server.callOk('click_and_traverse', { pid, element: 'Recipient name', text: 'Ada Lovelace' });
      assert.match(diffOf(name), /^~ #\d+ \[Entry\] "Recipient name" \| value: '' -> 'Ada Lovelace'$/m, diffOf(name));
      // type_text as an agent sends it (mode "auto"): Firefox answered an insertion through
      // accessibility with success and showed nothing; the text must arrive, once, whichever way.
      const noteIndex = (await tree()).find((line) => line.role === 'Entry' && line.text === 'Courier note')?.index;
      const note = await server.callOk('type_text', { pid, element_index: noteIndex, text: 'Ring twice, then wait.' });
      assert.doesNotMatch(note.text, /does not show the text sent/, note.text);
      assert.match(diffOf(note), /^~ #\d+ \[Entry\] "Courier note" \| value: '' -> 'Ring twice, then wait\.'$/m, diffOf(note));
      assert.equal(await valueOf('Entry', 'Courier note'), 'Ring twice, then wait.', 'the page holds the text exactly once');
      assert.equal(await valueOf('Entry', 'Recipient name'), 'Ada Lovelace', 'the page holds exactly what was typed');
    });

    test('should tick the checkbox and pick an option from the select', async () => {
      const tick = await server.callOk('click_and_traverse', { pid, element: 'Fragile', role: 'CheckBox' });
      assert.match(diffOf(tick), /^~ #\d+ \[CheckBox\] "Fragile" \| value: 'unchecked' -> 'checked'/m, diffOf(tick));
      const open = await server.callOk('click_and_traverse', { pid, element: 'Speed', role: 'ComboBox' });
      assert.match(diffOf(open), /^\+ #\d+ \[MenuItem\] "Express"/m, `the options list appears in the diff:\n${diffOf(open)}`);
      const pick = await server.callOk('click_and_traverse', { pid, element: 'Express', role: 'MenuItem' });
      assert.match(diffOf(pick), /^- \[MenuItem\] "Express"/m, 'the list closes');
      if (browser.selectValueInDiff) assert.match(diffOf(pick), /^~ #\d+ \[ComboBox\] "Speed" \| value: 'Standard' -> 'Express'$/m, diffOf(pick));
    });

    test("should show the page's alert dialog in the answer and close it by its button", async (t) => {
      const dialogLine = /^\+ #\d+ \[\w+\] "Courier preview for Ada Lovelace"/m;
      let preview = await server.callOk('click_and_traverse', { pid, element: 'Preview booking' });
      if (!dialogLine.test(diffOf(preview)) && !(await tree()).some((line) => line.text === 'Courier preview for Ada Lovelace')) {
        // Seen with Firefox in 2 of 9 runs: the click reached the button (the diff shows its
        // focus) and the page opened no dialog. A person would click again; so do we, once, and say so.
        t.diagnostic(`${browser.name}: the first click on "Preview booking" opened no dialog; clicked again`);
        preview = await server.callOk('click_and_traverse', { pid, element: 'Preview booking' });
      }
      const diff = diffOf(preview);
      assert.match(diff, /^\+ #\d+ \[\w+\] "Courier preview for Ada Lovelace"/m, `the dialog, with what the page computed from the typed name:\n${diff}`);
      assert.match(diff, /^\+ #\d+ \[PushButton\] "OK"/m, diff);
      await delay(browser.dialogSettleMs);
      const ok = await server.callOk('click_and_traverse', { pid, element: 'OK', role: 'PushButton' });
      assert.match(diffOf(ok), /^- \[\w+\] "Courier preview for Ada Lovelace"/m, `the dialog is gone:\n${diffOf(ok)}`);
    });

    test('should submit by the button: the server receives exactly what was typed, ticked and chosen', async () => {
      await server.callOk('click_and_traverse', { pid, element: 'Book courier' });
      const submission = await web.waitForSubmission((entry) => entry.path === '/submit');
      assert.deepEqual(submission.fields, { name: 'Ada Lovelace', note: 'Ring twice, then wait.', speed: 'Express', fragile: 'yes' });
      await eventually(async () => ((await tree()).some((line) => line.role === 'Heading' && line.text === 'Booked for Ada Lovelace') ? true : undefined), 10_000, 'the confirmation page');
    });

    /** Esc during a long type into the note: its length at the answer, and what the page finally sent. */
    let cancelled: { atAnswer: number; sent: string } | undefined;

    test('should stop typing at Esc: the page keeps an exact prefix of the text', async (t) => {
      // A fresh form, through the address bar as a person would.
      await server.callOk('press_key_and_traverse', { pid, keyName: 'l', modifierFlags: ['ctrl'], steps: [{ action: 'type', text: `${web.origin}/form` }, { action: 'press', keyName: 'return' }] });
      await eventually(async () => ((await valueOf('Entry', 'Courier note')) === '' ? true : undefined), 10_000, 'the empty form again');
      const text = 'abcdefghij'.repeat(300);
      const call = server.call('click_and_traverse', { pid, element: 'Courier note', text });
      await delay(1_200);
      await human.pressKey('Escape');
      const result = await call;
      const atAnswer = fieldLength((await valueOf('Entry', 'Courier note')) ?? '');
      assert.equal(result.structured.status, 'cancelled', result.text);
      await delay(2_000);
      await server.callOk('click_and_traverse', { pid, element: 'Book courier' });
      const sent = (await web.waitForSubmission((entry) => entry.fields.note?.startsWith('abc') === true)).fields.note;
      cancelled = { atAnswer, sent };
      t.diagnostic(`${browser.name} after Esc: ${atAnswer} characters in the field when the answer came, ${sent.length} sent 2 s later (of ${text.length} typed)`);
      assert.ok(sent.length > 0 && sent.length < text.length, `typing was under way and stopped (${sent.length} of ${text.length} characters)`);
      assert.equal(sent, text.slice(0, sent.length), 'no character lost or out of order');
    });

    test('should let no typed character reach the page after the cancelled answer', { todo: browser.trailingKeysTodo }, () => {
      assert.ok(cancelled, 'the Esc test ran');
      assert.equal(cancelled.sent.length, cancelled.atAnswer, `${cancelled.sent.length - cancelled.atAnswer} characters reached the field after the cancelled answer`);
    });

    test("should not take the browser's own helper processes for programs a call launched", () => {
      // The browser starts content or renderer processes as pages load; none shows a window, and
      // waiting for one cost Firefox calls the whole 6 s launch cap and an answer naming them.
      const launched = answers.filter((text) => /^launched: /m.test(text));
      assert.ok(answers.length > 10, `${answers.length} answers`);
      assert.deepEqual(launched.map((text) => /^launched: .*$/m.exec(text)![0]), []);
    });
  });
}
