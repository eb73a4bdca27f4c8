// type_text, press_key and get_window_state's window_id through a real MCP client on the GTK
// fixture, checked by what the app itself reports on stdout (its entries' "changed" signals):
// text inserted through accessibility and typed as keys into a labelled and an unlabelled
// field (also with both cores loaded, and a few thousand characters inserted at once), a
// password field's text kept out of every answer, line breaks refused by a one-line field, Esc
// stopping a long typing and a key repeat, Backspace ×5, and one window of a two-window app.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { CpuLoad } from '../support/cpuLoad.js';
import { FixtureApp, McpSession, delay, eventually, startDesktopSession, stopDesktopSession, type FixtureEvent } from '../support/e2eHarness.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';
import { indexShown, withoutIndex } from '../support/treeIndex.js';

describe('type_text, press_key and window_id on a real GTK app', { timeout: 240_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;

  before(async () => ({ desktop, server, fixture } = await startDesktopSession()));
  after(() => stopDesktopSession({ desktop, server }));

  /** The tree file's lines, read now (element_index = position − 4). */
  const treeLines = async (): Promise<string[]> => {
    const file = (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
    return readFileSync(file, 'utf8').split('\n');
  };
  /** element_index of the first tree line matching. */
  const indexOf = async (line: RegExp): Promise<number> => {
    const lines = await treeLines();
    const position = lines.findIndex((text) => line.test(withoutIndex(text)));
    assert.ok(position >= 5, `no line matches ${line}:\n${lines.slice(0, 40).join('\n')}`);
    return indexShown(lines[position]);
  };
  const memoIndex = (): Promise<number> => indexOf(/^\s*\[Text\] "Memo"/);
  /** The entry with neither label nor name: the empty-named text field after the Passphrase one. */
  const noteIndex = async (): Promise<number> => {
    const lines = await treeLines();
    const passphrase = lines.findIndex((text) => /^\s*\[PasswordText\] "Passphrase"/.test(withoutIndex(text)));
    const position = lines.findIndex((text, at) => at > passphrase && /^\s*\[Text\] ""/.test(withoutIndex(text)));
    assert.ok(passphrase > 0 && position > passphrase, `the unlabelled entry after Passphrase:\n${lines.slice(0, 40).join('\n')}`);
    return indexShown(lines[position]);
  };
  /** Waits for an event that came after the first `seen` events. */
  const waitAfter = (seen: number, matches: (event: FixtureEvent) => boolean, timeoutMs = 15_000): Promise<FixtureEvent> =>
    fixture.waitForEvent((e) => fixture.events.indexOf(e) >= seen && matches(e), timeoutMs);
  const last = (event: string): FixtureEvent | undefined => fixture.eventsNamed(event).at(-1);
  const textOf = (event: string): string => String(last(event)?.text ?? '');
  const waitText = (event: string, text: string, timeoutMs = 15_000): Promise<FixtureEvent> =>
    fixture.waitForEvent((e) => e.event === event && e.text === text && e === last(event), timeoutMs);
  const typedBy = (result: { structured: Record<string, unknown> }): Array<{ method: string; reason?: string; element_index?: number }> =>
    result.structured.typed_by as Array<{ method: string; reason?: string; element_index?: number }>;

  /** Empties a field through set_value (its own change signal fires, so the oracle starts from ''). */
  const clear = async (index: number, event: string): Promise<void> => {
    if (textOf(event) === '') return;
    await server.callOk('set_value_and_traverse', { pid: fixture.pid, element_index: index, value: '' });
    await waitText(event, '');
  };

  test('should insert text into the labelled field by element_index: the app sees it, and a second insertion goes in at the caret', async () => {
    const index = await memoIndex();
    const first = await server.callOk('type_text', { pid: fixture.pid, element_index: index, text: 'hello' });
    await waitText('memo', 'hello');
    assert.equal(typedBy(first)[0].method, 'insertion', first.text);
    assert.match(first.text, /^typed_by: step 1 inserted through accessibility into #\d+ \[Text\] "Memo"/m);
    assert.match(readFileSync(first.structured.file as string, 'utf8'), /^~ #\d+ \[Text\] "Memo" \| value: '' -> 'hello'$/m);
    await server.callOk('type_text', { pid: fixture.pid, element_index: await memoIndex(), text: ' wörld ✓' });
    await waitText('memo', 'hello wörld ✓');
    // One "changed" per insertion: the text came in as one edit each time, not key by key.
    assert.deepEqual(fixture.eventsNamed('memo').map((e) => e.text), ['hello', 'hello wörld ✓']);
  });

  test("should replace the field's selected text, as typing over a selection does", async () => {
    const index = await memoIndex();
    // Keys mode clicks the field, so it has the focus for the shortcut that selects its text.
    await server.callOk('type_text', { pid: fixture.pid, element_index: index, text: '!', mode: 'keys' });
    await waitText('memo', 'hello wörld ✓!');
    await server.callOk('hotkey', { pid: fixture.pid, keys: ['ctrl', 'a'] });
    const result = await server.callOk('type_text', { pid: fixture.pid, element_index: await memoIndex(), text: 'hello wörld ✓' });
    assert.equal(typedBy(result)[0].method, 'insertion');
    await waitText('memo', 'hello wörld ✓');
  });

  test('should say when a file name field kept its extension after the typed name, and replace the whole field when asked', async () => {
    const index = await indexOf(/^\s*\[Text\] "File name"/);
    // As GTK's Save dialog does, the field shows "probe.txt" with only "probe" selected once focused.
    await server.callOk('click', { pid: fixture.pid, element_index: index });
    await fixture.waitForEvent((event) => event.event === 'stem-selected');
    const partial = await server.callOk('type_text', { pid: fixture.pid, element_index: index, text: 'probe.txt' });
    await waitText('filename', 'probe.txt.txt');
    assert.match(partial.text, /^typed_by: .*"File name".*the field kept other text it had, so it holds more than the text sent \(replace: true replaces all of it\)$/m);
    assert.equal((typedBy(partial)[0] as { kept_other_text?: boolean }).kept_other_text, true);
    const whole = await server.callOk('type_text', { pid: fixture.pid, element_index: await indexOf(/^\s*\[Text\] "File name"/), text: 'notes.txt', replace: true });
    await waitText('filename', 'notes.txt');
    assert.equal(fixture.eventsNamed('filename').at(-1)?.text, 'notes.txt', 'the app holds exactly the name sent');
    assert.match(whole.text, /^typed_by: .*one edit replacing all the field held\)$/m);
    assert.doesNotMatch(whole.text, /kept other text/);
  });

  test('should insert into a document as one edit the app can undo (mousepad, Ctrl+Z)', async () => {
    const mousepad = (await server.callOk('open_application_and_traverse', { identifier: 'mousepad' })).structured.pid as number;
    try {
      const treeOf = async (): Promise<string[]> => readFileSync((await server.callOk('refresh_traversal', { pid: mousepad })).structured.file as string, 'utf8').split('\n');
      const lines = await treeOf();
      const position = lines.findIndex((text) => /^\s*\[Text\] /.test(withoutIndex(text)) && / focused/.test(text));
      assert.ok(position >= 5, `the focused document:\n${lines.filter((text) => /\[Text\]/.test(text)).join('\n')}`);
      const result = await server.callOk('type_text', { pid: mousepad, element_index: indexShown(lines[position]), text: 'first line\nsecond line' });
      assert.equal(typedBy(result)[0].method, 'insertion', result.text);
      assert.match(readFileSync(result.structured.file as string, 'utf8'), /value: '' -> 'first line\\nsecond line'/, 'a many-line document takes line breaks');
      const undone = await server.callOk('hotkey', { pid: mousepad, keys: ['ctrl', 'z'] });
      assert.match(readFileSync(undone.structured.file as string, 'utf8'), /value: 'first line\\nsecond line' -> ''/, 'one Ctrl+Z took the whole insertion back');
    } finally {
      process.kill(mousepad, 'SIGTERM');
    }
  });

  test("should say that mousepad's Save As name kept the extension GTK left unselected, and save under the whole name sent with replace (the file on disk)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tandem-save-as-'));
    writeFileSync(path.join(dir, 'probe.txt'), 'probe\n');
    const mousepad = (await server.callOk('launch_app', { name: 'mousepad', args: [path.join(dir, 'probe.txt')], new_instance: true })).structured.pid as number;
    try {
      const dialog = await server.callOk('hotkey', { pid: mousepad, keys: ['ctrl', 'shift', 's'] });
      const diff = readFileSync(dialog.structured.file as string, 'utf8');
      const name = /^\+ #(\d+) \[Text\] "Name:" value:"probe\.txt"/m.exec(diff);
      assert.ok(name, diff);
      // GTK selects the stem "probe": typed text replaces only that.
      const partial = await server.callOk('type_text', { pid: mousepad, element_index: Number(name[1]), text: 'copy.txt' });
      assert.match(partial.text, /^typed_by: .*"Name:".*the field kept other text it had/m, partial.text);
      const changed = /^~ #(\d+) \[Text\] "Name:" \| value: 'probe\.txt' -> 'copy\.txt\.txt'$/m.exec(readFileSync(partial.structured.file as string, 'utf8'));
      assert.ok(changed, 'the field holds the name twice extended, as the app says');
      await server.callOk('type_text', { pid: mousepad, element_index: Number(changed[1]), text: 'copy.txt', replace: true });
      await server.callOk('press_key', { pid: mousepad, key: 'return' });
      await eventually(() => (existsSync(path.join(dir, 'copy.txt')) ? true : undefined), 10_000, 'copy.txt written');
      assert.equal(readFileSync(path.join(dir, 'copy.txt'), 'utf8'), 'probe\n');
      assert.ok(!existsSync(path.join(dir, 'copy.txt.txt')), 'not under the doubled name');
    } finally {
      process.kill(mousepad, 'SIGTERM');
    }
  });

  test('should insert into the field with neither label nor name, found by its element_index', async () => {
    const result = await server.callOk('type_text', { pid: fixture.pid, element_index: await noteIndex(), text: 'no label here' });
    await waitText('note', 'no label here');
    assert.equal(typedBy(result)[0].method, 'insertion');
    assert.equal(textOf('memo'), 'hello wörld ✓', 'the labelled field kept its text');
  });

  test('should type as keys when asked, into both fields: clicked first, each key taken in by the app', async () => {
    const memo = await memoIndex();
    await clear(memo, 'memo');
    const keys = await server.callOk('type_text', { pid: fixture.pid, element_index: memo, text: 'by keys', mode: 'keys' });
    await waitText('memo', 'by keys');
    assert.deepEqual(typedBy(keys)[0], { step: 1, method: 'keys', reason: 'mode', element_index: memo, role: 'Text', name: 'Memo' });
    assert.ok(fixture.eventsNamed('memo').some((e) => e.text === 'b'), 'the app saw the text grow key by key');
    const note = await noteIndex();
    await clear(note, 'note');
    await server.callOk('type_text', { pid: fixture.pid, element_index: note, text: 'keys too', mode: 'keys' });
    await waitText('note', 'keys too');
    assert.equal(textOf('memo'), 'by keys', 'the keys for the other field did not land in this one');
  });

  test('should delete five characters with press_key backspace ×5: the app text is shorter by five', async () => {
    // The unlabelled field has the focus now (keys mode clicked it).
    const before = textOf('note');
    const result = await server.callOk('press_key', { pid: fixture.pid, key: 'backspace', count: 5 });
    await waitText('note', before.slice(0, -5));
    assert.equal(textOf('note').length, before.length - 5);
    assert.deepEqual(result.structured.steps, ['pressed backspace ×5']);
  });

  test('should keep a password typed by insertion out of every answer and file, while the app gets all of it', async () => {
    const secret = 'hunter2-insertion-secret';
    const index = await indexOf(/^\s*\[PasswordText\] "Passphrase"/);
    const result = await server.callOk('type_text', { pid: fixture.pid, element_index: index, text: secret });
    await fixture.waitForEvent((e) => e.event === 'passphrase' && e.length === secret.length);
    assert.equal(typedBy(result)[0].method, 'insertion');
    const everything = [JSON.stringify(server.responses.at(-1)), readFileSync(result.structured.file as string, 'utf8'), server.stderr].join('\n');
    assert.ok(!everything.includes(secret) && !everything.includes('hunter2'), 'the secret is in an answer, a file or the log');
    assert.doesNotMatch(everything, new RegExp(`\\b${secret.length} char`), 'its length is told');
    assert.match((result.structured.steps as string[])[0], /\[secure text\]/);
  });

  test('should refuse line breaks for a one-line field, inserting nothing', async () => {
    const before = fixture.eventsNamed('memo').length;
    const refused = await server.call('type_text', { pid: fixture.pid, element_index: await memoIndex(), text: 'two\nlines' });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /holds one line and the text has line breaks/);
    assert.match(refused.text, /^hint: Nothing was typed\. Send the lines one at a time/m);
    await delay(300);
    assert.equal(fixture.eventsNamed('memo').length, before, 'the field did not change');
  });

  test('should insert a text of a few thousand characters whole, in one edit', async () => {
    const index = await memoIndex();
    await clear(index, 'memo');
    const long = Array.from({ length: 400 }, (_, i) => `w${String(i).padStart(3, '0')}-ünï `).join('');
    assert.ok(long.length >= 3000);
    const before = fixture.eventsNamed('memo').length;
    const result = await server.callOk('type_text', { pid: fixture.pid, element_index: index, text: long });
    await waitText('memo', long);
    assert.equal(typedBy(result)[0].method, 'insertion');
    assert.equal(fixture.eventsNamed('memo').length, before + 1, 'one change for the whole text');
  });

  test('should insert and type keys correctly with both cores loaded', async () => {
    const load = CpuLoad.start();
    try {
      const memo = await memoIndex();
      await clear(memo, 'memo');
      await server.callOk('type_text', { pid: fixture.pid, element_index: memo, text: 'inserted under load, ünï ✓' });
      await waitText('memo', 'inserted under load, ünï ✓');
      const note = await noteIndex();
      await clear(note, 'note');
      const text = 'typed under load: the quick brown fox jumps over the lazy dog 0123456789';
      await server.callOk('type_text', { pid: fixture.pid, element_index: note, text, mode: 'keys' });
      await waitText('note', text, 30_000);
      await delay(500);
      assert.equal(textOf('note'), text, 'nothing arrived after the answer');
      assert.equal(textOf('memo'), 'inserted under load, ünï ✓');
    } finally {
      load.stop();
    }
  });

  describe('with a person at the keyboard', () => {
    let human: SimulatedHuman;
    before(async () => (human = await SimulatedHuman.connect(desktop.display)));
    after(() => human?.close());

    test('should stop typing keys when the person presses Esc: nothing more arrives after the answer', async () => {
      const note = await noteIndex();
      await clear(note, 'note');
      const long = 'abcdefghij'.repeat(300);
      const seen = fixture.events.length;
      const call = server.call('type_text', { pid: fixture.pid, element_index: note, text: long, mode: 'keys' });
      await waitAfter(seen, (e) => e.event === 'note' && String(e.text).length >= 20);
      await human.pressKey('Escape');
      const result = await call;
      assert.equal(result.structured.status, 'cancelled', result.text);
      const atAnswer = textOf('note').length;
      await delay(2000);
      assert.equal(textOf('note').length, atAnswer, 'keys arrived after the cancelled answer');
      assert.ok(atAnswer < long.length, `the typing stopped (${atAnswer} of ${long.length})`);
      assert.equal(textOf('note'), long.slice(0, atAnswer), 'what arrived is the start of the text');
    });

    test('should stop a key repeat when the person presses Esc', async () => {
      await server.callOk('type_text', { pid: fixture.pid, element_index: await noteIndex(), text: 'x', mode: 'keys' });
      const start = textOf('note').length;
      const seen = fixture.events.length;
      const call = server.call('press_key', { pid: fixture.pid, key: 'y', count: 1000 });
      await waitAfter(seen, (e) => e.event === 'note' && String(e.text).length >= start + 10);
      await human.pressKey('Escape');
      const result = await call;
      assert.equal(result.structured.status, 'cancelled', result.text);
      const atAnswer = textOf('note').length;
      await delay(1500);
      assert.equal(textOf('note').length, atAnswer, 'presses arrived after the cancelled answer');
      assert.ok(atAnswer - start < 1000, `the repeat stopped after ${atAnswer - start} presses`);
    });
  });

  test('should read only the window named by window_id, with its own screenshot and element indexes', async () => {
    await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Open second window', role: 'button' });
    await fixture.waitForEvent((e) => e.event === 'second-ready');
    type Window = { window_id: number; title: string; bounds: { width: number; height: number } };
    const windows = await eventually(async () => {
      const listed = (await server.callOk('list_windows', { pid: fixture.pid })).structured.windows as Window[];
      return listed.length === 2 ? listed : undefined;
    }, 5_000, 'two windows of the fixture');
    const second = windows.find((w) => w.title === 'Tandem Second Window')!;
    const main = windows.find((w) => w.title === 'Tandem Fixture')!;
    assert.ok(second && main, JSON.stringify(windows));

    const state = await server.callOk('get_window_state', { pid: fixture.pid, window_id: second.window_id });
    const lines = state.texts[1];
    assert.match(lines, /\[PushButton\] "Second button"/);
    assert.match(lines, /"Only in the second window"/);
    assert.doesNotMatch(lines, /Count:|Memo|Item 1/, 'elements of the other window are listed');
    const image = await sharp(state.structured.screenshot as string).metadata();
    // The capture holds the window manager's frame around the window's client area.
    const [width, height] = [image.width ?? 0, image.height ?? 0];
    assert.ok(width >= second.bounds.width && width <= second.bounds.width + 16 && height >= second.bounds.height && height <= second.bounds.height + 48, `the screenshot is that window: ${width}×${height} for ${second.bounds.width}×${second.bounds.height}`);

    const tagged = /^#(\d+) \[PushButton\] "Second button"/m.exec(lines);
    assert.ok(tagged, lines);
    await server.callOk('click', { pid: fixture.pid, element_index: Number(tagged[1]) });
    await fixture.waitForEvent((e) => e.event === 'second-clicked');

    const whole = await server.callOk('get_window_state', { pid: fixture.pid, window_id: main.window_id });
    assert.match(whole.texts[1], /Count:/);
    assert.doesNotMatch(whole.texts[1], /Second button/);

    const unknown = await server.call('get_window_state', { pid: fixture.pid, window_id: 12345 });
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, new RegExp(`has no window 12345`));
    assert.match(unknown.text, new RegExp(`windows: .*window_id ${second.window_id} "Tandem Second Window"`));
    assert.match(unknown.text, new RegExp(`window_id ${main.window_id} "Tandem Fixture"`));
  });
});
