// A Qt 5 app (FeatherPad, Debian's featherpad: the smallest Qt editor packaged) through a real
// MCP client: its tree read (Qt fills no AT-SPI cache and crashes on Properties.GetAll, so Tandem
// walks it property by property), text typed into the editor with the value in the diff, a
// check box clicked, the Save dialog shown in the answer and used, and Esc honoured mid-typing.
// The oracle is the file FeatherPad writes. One desktop and one FeatherPad for the whole file.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { fieldLength } from '../support/browserFormSuite.js';
import { McpSession, delay, eventually, parseTreeLines, type ToolResult, type TreeLine } from '../support/e2eHarness.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';

const TYPED = 'Tandem types into Qt.';

describe('Qt (FeatherPad) through a real MCP client', { timeout: 240_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let human: SimulatedHuman;
  let pid: number;
  let saved: string;

  const diffOf = (result: ToolResult): string => readFileSync(result.structured.file as string, 'utf8');
  const tree = async (): Promise<TreeLine[]> => parseTreeLines(diffOf(await server.callOk('refresh_traversal', { pid })));
  /** The editor: the one multi-line text area (it has no name). */
  const editor = async (): Promise<TreeLine | undefined> => (await tree()).find((line) => line.role === 'Text' && line.text === '' && line.height > 100);
  /** What FeatherPad saved, without the final newline it adds on saving. */
  const savedText = (): string => readFileSync(saved, 'utf8').replace(/\n$/, '');

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
    human = await SimulatedHuman.connect(desktop.display);
    saved = join(desktop.root, 'qt-note.txt');
  });

  after(async () => {
    await human?.close();
    await server?.close();
    await desktop?.stop();
  });

  test('should read the window of a Qt app: menus, toolbar buttons, the editor and the status line', async () => {
    const opened = await server.callOk('open_application_and_traverse', { identifier: 'featherpad' });
    pid = opened.structured.pid as number;
    assert.equal(opened.structured.app, 'FeatherPad');
    const lines = await tree();
    assert.ok(lines.some((line) => line.role === 'MenuItem' && line.text === 'File'), 'the menu bar');
    assert.ok(lines.some((line) => line.role === 'PushButton' && line.text === 'Find'), 'toolbar buttons by their names');
    assert.equal(lines.find((line) => line.role === 'CheckBox' && line.text === 'Match Case (F5)')?.value, 'unchecked');
    assert.equal((await editor())?.value, '', 'the empty editor');
    assert.ok(lines.some((line) => line.role === 'Label' && /Lines: 1/.test(line.text)), 'the status line');
    assert.ok(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes('QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1'), 'Tandem started it with Qt’s accessibility switch');
  });

  test('should type into the editor, with its value and the window title in the diff', async () => {
    const typed = await server.callOk('type_and_traverse', { pid, text: TYPED });
    const diff = diffOf(typed);
    assert.match(diff, new RegExp(`^~ #\\d+ \\[Text\\] "".*\\| value: '' -> '${TYPED}'$`, 'm'), diff);
    assert.match(diff, /^~ #\d+ \[Frame\] "\*Untitled"/m, 'the title marks the document modified');
  });

  test('should click a check box by its name', async () => {
    const click = await server.callOk('click_and_traverse', { pid, element: 'Match Case (F5)' });
    assert.match(diffOf(click), /^~ #\d+ \[CheckBox\] "Match Case \(F5\)" \| value: 'unchecked' -> 'checked'/m, diffOf(click));
  });

  test('should show the Save dialog in the answer and save through it: the file holds the text', async () => {
    const dialog = await server.callOk('press_key_and_traverse', { pid, keyName: 's', modifierFlags: ['ctrl'] });
    const diff = diffOf(dialog);
    assert.match(diff, /^\+ #\d+ \[Dialog\] "Save as\.\.\."/m, diff);
    assert.match(diff, /^\+ #\d+ \[Text\] "File name:" value:"Untitled"/m, 'its file name field, by its label');
    const save = await server.callOk('click_and_traverse', {
      pid,
      element: 'File name:',
      role: 'Text',
      steps: [{ action: 'press', keyName: 'a', modifierFlags: ['ctrl'] }, { action: 'type', text: saved }, { action: 'press', keyName: 'return' }],
    });
    assert.match(diffOf(save), /^- \[Dialog\] "Save as\.\.\."/m, `the dialog closed:\n${diffOf(save)}`);
    await eventually(() => (existsSync(saved) ? true : undefined), 10_000, 'the saved file');
    assert.equal(savedText(), TYPED, 'FeatherPad wrote exactly what was typed');
  });

  /** Esc during a long type: the editor's length at the answer, and what was saved. */
  let cancelled: { atAnswer: number; saved: string; total: number } | undefined;

  test('should stop typing at Esc: the file keeps an exact prefix of the text', async (t) => {
    const text = 'abcdefghij'.repeat(300);
    await server.callOk('press_key_and_traverse', { pid, keyName: 'a', modifierFlags: ['ctrl'], steps: [{ action: 'press', keyName: 'delete' }] });
    const call = server.call('type_and_traverse', { pid, text });
    await delay(1_200);
    await human.pressKey('Escape');
    const result = await call;
    const atAnswer = fieldLength((await editor())?.value ?? '');
    assert.equal(result.structured.status, 'cancelled', result.text);
    await delay(2_000);
    await server.callOk('press_key_and_traverse', { pid, keyName: 's', modifierFlags: ['ctrl'] });
    const kept = await eventually(() => (savedText().startsWith('abc') ? savedText() : undefined), 10_000, 'the cancelled text saved');
    cancelled = { atAnswer, saved: kept, total: text.length };
    t.diagnostic(`FeatherPad after Esc: ${atAnswer} characters in the editor when the answer came, ${kept.length} saved 2 s later (of ${text.length} typed)`);
    assert.ok(kept.length > 0 && kept.length < text.length, `typing was under way and stopped (${kept.length} of ${text.length})`);
    assert.equal(kept, text.slice(0, kept.length), 'no character lost or out of order');
  });

  test('should let no typed character reach the editor after the cancelled answer', () => {
    assert.ok(cancelled, 'the Esc test ran');
    assert.equal(cancelled.saved.length, cancelled.atAnswer, `${cancelled.saved.length - cancelled.atAnswer} characters reached the editor after the cancelled answer`);
  });
});
