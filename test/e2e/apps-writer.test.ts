// LibreOffice Writer through a real MCP client: a paragraph typed into a new document, made bold
// with the hotkey, read back from the tree, saved through the Save As dialog (which the answer
// shows), and a long typing cut short by Esc. The oracle is the document LibreOffice writes to
// disk (its content.xml), read independently of Tandem. One desktop and one Writer for the file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { writerEntry } from '../../scripts/lib/appHarness.js';
import { fieldLength } from '../support/browserFormSuite.js';
import { McpSession, SYSTEM_PYTHON, delay, eventually, parseTreeLines, type ToolResult, type TreeLine } from '../support/e2eHarness.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';

const PARAGRAPH = 'Tandem writes this paragraph.';

/** The text of every paragraph of an .odt, and whether its text is bold, from content.xml. */
function odtParagraphs(path: string): Array<{ text: string; bold: boolean }> {
  const script = [
    'import sys, zipfile, xml.etree.ElementTree as ET',
    'ns = {"text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0", "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0", "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"}',
    'root = ET.fromstring(zipfile.ZipFile(sys.argv[1]).read("content.xml"))',
    'bold = {s.get("{%s}name" % ns["style"]) for s in root.iter("{%s}style" % ns["style"]) for p in s.findall("style:text-properties", ns) if p.get("{%s}font-weight" % ns["fo"]) == "bold"}',
    'def style(e): return e.get("{%s}style-name" % ns["text"])',
    'for p in root.iter("{%s}p" % ns["text"]):',
    '    text = "".join(p.itertext())',
    '    spans = [s for s in p.iter("{%s}span" % ns["text"]) if "".join(s.itertext())]',
    '    b = style(p) in bold or (bool(spans) and all(style(s) in bold for s in spans) and sum(len("".join(s.itertext())) for s in spans) == len(text))',
    '    print(("B" if b else "-") + text)',
  ].join('\n');
  const out = execFileSync(SYSTEM_PYTHON, ['-c', script, path], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean).map((line) => ({ bold: line[0] === 'B', text: line.slice(1) }));
}

describe('LibreOffice Writer through a real MCP client', { timeout: 240_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let human: SimulatedHuman;
  let pid: number;
  let saved: string;

  const diffOf = (result: ToolResult): string => readFileSync(result.structured.file as string, 'utf8');
  const tree = async (): Promise<TreeLine[]> => parseTreeLines(diffOf(await server.callOk('refresh_traversal', { pid })));

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
    human = await SimulatedHuman.connect(desktop.display);
    saved = join(desktop.root, 'tandem-note.odt');
  });

  after(async () => {
    await human?.close();
    await server?.close();
    await desktop?.stop();
  });

  test('should read a new Writer document: menus, toolbars and the empty page', async () => {
    const opened = await server.callOk('open_application_and_traverse', { identifier: writerEntry(desktop) });
    pid = opened.structured.pid as number;
    const lines = await eventually(async () => {
      const found = await tree();
      return found.some((line) => line.role === 'ToggleButton' && line.text === 'Bold') ? found : undefined;
    }, 20_000, 'the formatting toolbar');
    assert.ok(lines.some((line) => line.role === 'DocumentText' && /Untitled 1/.test(line.text)), 'the document');
    assert.ok(lines.some((line) => line.role === 'Menu' && line.text === 'Format'), 'the menu bar');
    assert.equal(lines.find((line) => line.role === 'ToggleButton' && line.text === 'Bold')?.value, 'unchecked');
    assert.ok(!lines.some((line) => line.role === 'Dialog'), 'no first-start dialog (tip of the day) in the way');
  });

  test('should type a paragraph into the page, shown as a text change in the diff', async () => {
    const typed = await server.callOk('click_and_traverse', { pid, element: 'Untitled 1 - LibreOffice Document', role: 'DocumentText', text: PARAGRAPH });
    assert.match(diffOf(typed), new RegExp(`^~ #\\d+ \\[Paragraph\\] .*\\| text: '' -> '${PARAGRAPH}'$`, 'm'), diffOf(typed));
    const paragraph = (await tree()).find((line) => line.role === 'Paragraph' && line.text === PARAGRAPH);
    assert.ok(paragraph, 'the paragraph reads back whole');
  });

  test('should make it bold with the hotkey: the Bold button shows it', async () => {
    await server.callOk('press_key_and_traverse', { pid, keyName: 'a', modifierFlags: ['ctrl'] });
    const bold = await server.callOk('press_key_and_traverse', { pid, keyName: 'b', modifierFlags: ['ctrl'] });
    assert.match(diffOf(bold), /^~ #\d+ \[ToggleButton\] "Bold" \| value: 'unchecked' -> 'checked'/m, diffOf(bold));
  });

  test('should show the Save As dialog in the answer and save through it: the file holds the bold paragraph', async () => {
    const dialog = await server.callOk('press_key_and_traverse', { pid, keyName: 's', modifierFlags: ['ctrl', 'shift'] });
    const diff = diffOf(dialog);
    assert.match(diff, /^\+ #\d+ \[FileChooser\] "Save"/m, diff);
    assert.match(diff, /^\+ #\d+ \[Text\] "Name:" value:"Untitled 1"/m, 'its name field, by its label, with the proposed name');
    const save = await server.callOk('click_and_traverse', {
      pid,
      element: 'Name:',
      role: 'Text',
      steps: [{ action: 'press', keyName: 'a', modifierFlags: ['ctrl'] }, { action: 'type', text: saved }, { action: 'press', keyName: 'return' }],
    });
    assert.match(diffOf(save), new RegExp(`^~ #\\d+ \\[Text\\] "Name:" \\| value: 'Untitled 1' -> '${saved}'$`, 'm'), diffOf(save));
    // Writer takes the Return, then closes the dialog and saves a moment after the answer.
    const after = await eventually(async () => {
      const found = await tree();
      return found.some((line) => line.role === 'Frame' && line.text.startsWith('tandem-note.odt')) ? found : undefined;
    }, 10_000, 'the window named after the file');
    assert.ok(!after.some((line) => line.role === 'FileChooser'), 'the dialog is gone');
    await eventually(() => (existsSync(saved) ? true : undefined), 10_000, 'the saved file');
    assert.deepEqual(odtParagraphs(saved), [{ text: PARAGRAPH, bold: true }], 'LibreOffice wrote the paragraph, bold');
  });

  /** Esc during a long type into a second paragraph: its length at the answer, and what was saved. */
  let cancelled: { atAnswer: number; saved: string; total: number } | undefined;

  test('should answer Esc with cancelled, the document holding an exact prefix of the text', async (t) => {
    const text = 'abcdefghij'.repeat(300);
    // A new, plain paragraph after the first.
    await server.callOk('press_key_and_traverse', { pid, keyName: 'end', modifierFlags: ['ctrl'], steps: [{ action: 'press', keyName: 'return' }, { action: 'press', keyName: 'b', modifierFlags: ['ctrl'] }] });
    const call = server.call('press_key_and_traverse', { pid, keyName: 'end', steps: [{ action: 'type', text }] });
    await delay(1_200);
    await human.pressKey('Escape');
    const result = await call;
    const paragraphs = (await tree()).filter((line) => line.role === 'Paragraph' && line.text.startsWith('abc'));
    const atAnswer = fieldLength(paragraphs[0]?.text ?? '');
    assert.equal(result.structured.status, 'cancelled', result.text);
    await delay(2_000);
    await server.callOk('press_key_and_traverse', { pid, keyName: 's', modifierFlags: ['ctrl'] });
    const second = await eventually(() => odtParagraphs(saved)[1], 10_000, 'the second paragraph saved');
    cancelled = { atAnswer, saved: second.text, total: text.length };
    t.diagnostic(`Writer after Esc: ${atAnswer} characters in the paragraph when the answer came, ${second.text.length} saved 2 s later (of ${text.length} typed)`);
    assert.ok(second.text.length > 0, 'typing was under way');
    assert.equal(second.text, text.slice(0, second.text.length), 'no character lost or out of order');
    assert.equal(second.bold, false, 'the new paragraph is plain');
  });

  // Writer answers the pacing's window-manager ping while its own queue still holds the keys:
  // before typing was also paced by Writer's count of inserted characters, "cancelled" came with
  // ~200 characters in the paragraph and all 3,000 arrived in the next two seconds.
  test('should let no typed character reach the document after the cancelled answer', () => {
    assert.ok(cancelled, 'the Esc test ran');
    assert.ok(cancelled.saved.length < cancelled.total, `Esc stopped the typing (${cancelled.saved.length} of ${cancelled.total} characters arrived)`);
    assert.equal(cancelled.saved.length, cancelled.atAnswer, `${cancelled.saved.length - cancelled.atAnswer} characters reached the document after the cancelled answer`);
  });
});
