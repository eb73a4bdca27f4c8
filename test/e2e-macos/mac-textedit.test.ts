// TextEdit through a real MCP client on a real Mac: open a document, read its tree, click into the
// text and type with a chained Return, read the diff, take a screenshot, follow the save panel
// (Cmd+S) when it comes up, and hand off to an app a clicked link launches. Runs only on macOS;
// without the grants it is SKIPPED (and the workflow fails such a run). The text area is always
// the one in the window of the test's own document.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { McpSession, stopApp, accessibilityUnavailable, contentOf, delay, readArtifact, textAreaOf } from './macHarness.js';

const unavailable = await accessibilityUnavailable();
const TYPED = 'hello from tandem, 😀 typed in chunks ok'; // the emoji sits on the 20-unit boundary

describe('TextEdit over MCP on macOS', { timeout: 240_000 }, () => {
  let server: McpSession;
  let pid: number;
  const document = join(tmpdir(), `tandem-e2e-${process.pid}.txt`);

  const textArea = (tree: string) => textAreaOf(tree, document);

  before(async () => {
    if (unavailable) return;
    writeFileSync(document, 'Tandem start\n');
    server = await McpSession.start();
  });

  after(async () => {
    if (unavailable) return;
    await server?.close();
    await stopApp(pid);
  });

  test('should open a document in TextEdit and return its pid, tree and a screenshot', { skip: unavailable ?? false }, async () => {
    const result = await server.callOk('open_application_and_traverse', { identifier: document });
    pid = Number(result.structured.pid);
    assert.ok(pid > 0, result.text);
    assert.match(String(result.structured.app), /TextEdit/);
    const tree = readArtifact(result.structured.file);
    assert.match(tree, /\[Window\]/);
    assert.match(contentOf(textArea(tree)), /Tandem start/);
    const png = readFileSync(String(result.structured.screenshot));
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'the screenshot is a PNG');
    assert.ok(png.readUInt32BE(16) > 100, 'the screenshot has a real width');
  });

  test('should double-click a word (click state 2) so typing replaces it', { skip: unavailable ?? false }, async () => {
    const area = textArea(readArtifact((await server.callOk('refresh_traversal', { pid })).structured.file));
    // The first word, "Tandem", starts at the text view's left inset on the first line.
    const result = await server.callOk('click_and_traverse', { pid, x: area.x + 14, y: area.y + 9, doubleClick: true, text: 'Agent' });
    assert.equal(result.structured.status, 'ok', result.text);
    const after = textArea(readArtifact((await server.callOk('refresh_traversal', { pid })).structured.file));
    assert.match(contentOf(after), /^Agent start/, `a double click selects the word, so it was replaced: ${contentOf(after)}`);
  });

  test('should right-click to open the context menu, then close it with Escape', { skip: unavailable ?? false }, async () => {
    const area = textArea(readArtifact((await server.callOk('refresh_traversal', { pid })).structured.file));
    const result = await server.callOk('click_and_traverse', { pid, x: area.x + area.width / 2, y: area.y + area.height / 2, rightClick: true });
    const diff = readArtifact(result.structured.file);
    assert.match(diff, /\[Menu(Item)?\]/, `the context menu appeared in the diff:\n${diff}`);
    await server.callOk('press_key_and_traverse', { pid, keyName: 'escape' });
  });

  test('should click into the text, type and press Return in one call, and show it in the diff', { skip: unavailable ?? false }, async () => {
    const tree = readArtifact((await server.callOk('refresh_traversal', { pid })).structured.file);
    const area = textArea(tree);
    const result = await server.callOk('click_and_traverse', {
      pid,
      x: area.x,
      y: area.y,
      width: area.width,
      height: area.height,
      // Longer than one 20-unit unicode event, with an emoji across a chunk boundary.
      text: TYPED,
      pressKey: 'return',
    });
    assert.equal(result.structured.status, 'ok', result.text);
    const diff = readArtifact(result.structured.file);
    assert.ok(diff.includes(TYPED), `the diff shows the typed text whole:\n${diff}`);
    const after = textArea(readArtifact((await server.callOk('refresh_traversal', { pid })).structured.file));
    assert.ok(contentOf(after).includes(`${TYPED}\n`), `Return made a new line after the text: ${contentOf(after)}`);
  });

  test('should follow the save panel that Cmd+S opens on a new document', { skip: unavailable ?? false }, async (t) => {
    await server.callOk('press_key_and_traverse', { pid, keyName: 'n', modifierFlags: ['command'] });
    await server.callOk('type_and_traverse', { pid, text: 'draft' });
    const result = await server.callOk('press_key_and_traverse', { pid, keyName: 's', modifierFlags: ['command'] });
    const appSwitch = result.structured.app_switch as { app?: string } | undefined;
    const diff = readArtifact(result.structured.file);
    t.diagnostic(`app_switch: ${JSON.stringify(appSwitch)}`);
    // The panel is drawn by an out-of-process service: either it is handed off as another app,
    // or TextEdit's own tree gains the sheet. Either way the agent must see it.
    assert.ok(appSwitch !== undefined || /\[(Sheet|Dialog)\]|Save/.test(diff), `neither a handoff nor a save sheet in the diff:\n${result.text}\n${diff}`);
    await server.call('press_key_and_traverse', { pid, keyName: 'escape' });
  });

  test('should wait for the app a clicked link launches and hand off to its window', { skip: unavailable ?? false }, async (t) => {
    // Calculator must not be running: its launch by the click is what is under test.
    try {
      execFileSync('/usr/bin/pkill', ['-x', 'Calculator']);
      await delay(1000);
    } catch {
      // not running
    }
    const linkDocument = join(tmpdir(), `tandem-link-${process.pid}.rtf`);
    const url = 'file:///System/Applications/Calculator.app/';
    writeFileSync(linkDocument, `{\\rtf1\\ansi{\\fonttbl\\f0\\fswiss Helvetica;}\\f0\\fs48 {\\field{\\*\\fldinst{HYPERLINK "${url}"}}{\\fldrslt Open Calculator}}\\par}`);
    const opened = await server.callOk('open_application_and_traverse', { identifier: linkDocument });
    const link = textAreaOf(readArtifact(opened.structured.file), linkDocument);
    const result = await server.call('click_and_traverse', { pid, x: link.x + 30, y: link.y + 12 });
    t.diagnostic(result.text);
    const appSwitch = result.structured.app_switch as { app?: string } | undefined;
    const launched = result.structured.launched as Array<{ app: string }> | undefined;
    let calculator: string | undefined;
    try {
      calculator = execFileSync('/usr/bin/pgrep', ['-x', 'Calculator']).toString().trim().split('\n')[0];
    } catch {
      calculator = undefined;
    }
    assert.ok(calculator, 'the click launched Calculator (through LaunchServices)');
    assert.ok(appSwitch?.app === 'Calculator' || launched?.some((l) => l.app === 'Calculator'), `the answer hands off to Calculator or names it as launched:\n${result.text}`);
    await stopApp(Number(calculator));
  });
});

const refusalUnobservable = process.platform !== 'darwin' ? 'the macOS end-to-end suite runs on macOS only' : unavailable === null ? 'Accessibility is granted here: the refusal path cannot be observed' : false;

describe('macOS permissions, reported honestly', () => {
  test('should answer a tree request without Accessibility with a permission error naming the setting', { skip: refusalUnobservable }, async () => {
    const server = await McpSession.start();
    try {
      const result = await server.call('refresh_traversal', { pid: process.pid });
      assert.equal(result.isError, true);
      assert.match(result.text, /Accessibility/);
    } finally {
      await server.close();
    }
  });
});
