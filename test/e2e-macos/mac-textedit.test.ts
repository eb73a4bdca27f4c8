// TextEdit through a real MCP client on a real Mac: open a document, read its tree, click into the
// text and type with a chained Return, read the diff, follow the save panel (Cmd+S) when it comes
// up, screenshot a window whose own pixels are known (a magenta block no wallpaper shows), and
// hand off to an app a clicked link launches. Runs only on macOS; without the grants it is
// SKIPPED (and the workflow fails such a run). The text area is always the one in the window of
// the test's own document.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { McpSession, stopApp, accessibilityUnavailable, contentOf, screenCaptureUnavailable, delay, inside, openDocument, probeMac, readArtifact, textAreaOf, treeLines } from './macHarness.js';

const unavailable = await accessibilityUnavailable();
/** The screenshot test also needs Screen Recording: without it Tandem refuses screenshots. */
const screenUnavailable = await screenCaptureUnavailable();
/** The known colour of the screenshot test's text and its background: pure magenta. */
const MAGENTA = { red: 255, green: 0, blue: 255 };
/** The app a link in TextEdit launches: System Settings, through a URL scheme (a sandboxed TextEdit may not open a file URL to an app bundle). */
const SETTINGS = 'System Settings';
const SETTINGS_URL = 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility';

/** Pixels of a PNG close to magenta (colour management may move a channel a little; no wallpaper is this colour). */
async function magentaPixels(png: Buffer): Promise<{ count: number; width: number; height: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i + 2 < data.length; i += info.channels) if (data[i] > 200 && data[i + 1] < 80 && data[i + 2] > 200) count++;
  return { count, width: info.width, height: info.height };
}

/**
 * The save panel itself in a tree: a sheet or a dialog (or a window titled Save) that holds a
 * text field for the file name and a Save button. Any other "Save" (a menu item) does not count.
 */
function savePanelIn(tree: string): string | null {
  const lines = treeLines(tree).filter((l) => Number.isFinite(l.x));
  const panels = lines.filter((l) => l.role === 'Sheet' || l.role === 'Dialog' || (l.role === 'Window' && /^save\b/i.test(l.text)));
  for (const panel of panels) {
    const within = lines.filter((l) => l !== panel && inside(l, panel));
    if (within.some((l) => l.role === 'TextField') && within.some((l) => l.role === 'Button' && /^save$/i.test(l.text.trim()))) return panel.line;
  }
  return null;
}
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

  test('should open a document in TextEdit and return its pid and tree', { skip: unavailable ?? false }, async () => {
    const opened = await openDocument(server, document);
    pid = opened.pid;
    assert.match(String(opened.result.structured.app), /TextEdit/);
    assert.match(contentOf(opened.area), /Tandem start/);
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
    const appSwitch = result.structured.app_switch as { app?: string; file?: string } | undefined;
    t.diagnostic(`app_switch: ${JSON.stringify(appSwitch)}`);
    // The panel is drawn by an out-of-process service: either it is handed off as another app
    // (its tree comes with the answer), or TextEdit's own tree holds the sheet.
    const handedOff = appSwitch?.file ? readArtifact(appSwitch.file) : '';
    const own = readArtifact((await server.callOk('refresh_traversal', { pid })).structured.file);
    const panel = savePanelIn(handedOff) ?? savePanelIn(own);
    t.diagnostic(`the panel: ${panel}`);
    assert.ok(panel, `no sheet or dialog with a name field and a Save button, handed off or in TextEdit's tree:\n${result.text}\n${handedOff.slice(0, 3000)}\n${own.slice(0, 3000)}`);
    await server.call('press_key_and_traverse', { pid, keyName: 'escape' });
  });

  test("should screenshot the window's own pixels, not what lies behind it", { skip: screenUnavailable ?? false }, async () => {
    // A document whose text and its background are magenta: a block no wallpaper or other window shows.
    const colourDocument = join(tmpdir(), `tandem-colour-${process.pid}.rtf`);
    const { red, green, blue } = MAGENTA;
    writeFileSync(colourDocument, `{\\rtf1\\ansi{\\fonttbl\\f0\\fswiss Helvetica;}{\\colortbl;\\red${red}\\green${green}\\blue${blue};}\\f0\\fs144\\cf1\\cb1 MMMMMMMM\\par}`);
    const { result } = await openDocument(server, colourDocument);
    assert.equal(typeof result.structured.screenshot, 'string', `a screenshot came with the answer: ${result.text}`);
    const png = readFileSync(String(result.structured.screenshot));
    const { count, width, height } = await magentaPixels(png);
    assert.ok(width > 100 && height > 100, `a window-sized image (${width}×${height})`);
    assert.ok(count >= 10_000, `the magenta block of the document is in the screenshot: ${count} magenta pixels of ${width}×${height} (${String(result.structured.screenshot)})`);
  });

  test('should wait for the app a clicked link launches and hand off to its window', { skip: unavailable ?? false }, async (t) => {
    const running = (): string | undefined => {
      try {
        return execFileSync('/usr/bin/pgrep', ['-x', SETTINGS]).toString().trim().split('\n')[0] || undefined;
      } catch {
        return undefined;
      }
    };
    // System Settings must not be running: its launch by the click is what is under test.
    if (running()) {
      execFileSync('/usr/bin/pkill', ['-x', SETTINGS]);
      await delay(1000);
    }
    assert.equal(running(), undefined, `${SETTINGS} is not running before the click`);
    const linkDocument = join(tmpdir(), `tandem-link-${process.pid}.rtf`);
    writeFileSync(linkDocument, `{\\rtf1\\ansi{\\fonttbl\\f0\\fswiss Helvetica;}\\f0\\fs48 {\\field{\\*\\fldinst{HYPERLINK "${SETTINGS_URL}"}}{\\fldrslt Open the Accessibility settings}}\\par}`);
    const { area: link } = await openDocument(server, linkDocument);
    const result = await server.call('click_and_traverse', { pid, x: link.x + 30, y: link.y + 12 });
    t.diagnostic(result.text);
    const appSwitch = result.structured.app_switch as { app?: string } | undefined;
    const launched = result.structured.launched as Array<{ app: string }> | undefined;
    const settings = running();
    assert.ok(settings, `the click launched ${SETTINGS} (through LaunchServices)`);
    assert.ok(appSwitch?.app === SETTINGS || launched?.some((l) => l.app === SETTINGS), `the answer hands off to ${SETTINGS} or names it as launched:\n${result.text}`);
    await stopApp(Number(settings));
  });
});

// The refusal is seen only where this process is really not trusted: with Accessibility granted
// but another grant missing, the read would succeed.
const probe = await probeMac();
const refusalUnobservable = typeof probe === 'string' ? probe : probe.trusted ? 'Accessibility is granted here (AXIsProcessTrusted() is true): the refusal path cannot be observed' : false;

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
