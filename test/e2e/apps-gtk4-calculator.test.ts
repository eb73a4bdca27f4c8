// gnome-calculator (GTK 4, libadwaita) through a real MCP client: the screenshot an answer writes
// shows what its diff says. The calculator works '=' out off its main loop and shows the result
// after the click's own repaint, when the app has already fallen quiet once: an answer that took
// its screenshot then said '413' in the diff while its picture still showed "12×34+5". The oracle
// is pixels: the result display cropped from that answer's PNG must have changed from the PNG of
// the answer before '=', and must match a screenshot taken well after, once nothing moves.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { McpSession, delay, eventually, type ToolResult } from '../support/e2eHarness.js';

const CALCULATOR = '/usr/bin/gnome-calculator';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The pixels of `box` (window-relative) in a PNG, as raw RGB. */
async function crop(png: string, box: Box): Promise<Buffer> {
  const meta = await sharp(png).metadata();
  assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= (meta.width ?? 0) && box.y + box.height <= (meta.height ?? 0), `the display ${JSON.stringify(box)} lies inside the ${meta.width}x${meta.height} screenshot ${png}`);
  return sharp(png).extract({ left: box.x, top: box.y, width: box.width, height: box.height }).removeAlpha().raw().toBuffer();
}

/** How many pixels differ visibly (any channel by more than 48) between two crops of one size. */
function pixelsDiffering(a: Buffer, b: Buffer): number {
  assert.equal(a.length, b.length);
  let count = 0;
  for (let i = 0; i < a.length; i += 3) {
    if (Math.abs(a[i] - b[i]) > 48 || Math.abs(a[i + 1] - b[i + 1]) > 48 || Math.abs(a[i + 2] - b[i + 2]) > 48) count++;
  }
  return count;
}

const clicks = (...labels: string[]): Array<{ action: string; element: string; role: string }> => labels.map((label) => ({ action: 'click', element: label, role: 'button' }));

describe('gnome-calculator (GTK 4) through a real MCP client', { skip: !existsSync(CALCULATOR) && 'gnome-calculator is not installed', timeout: 180_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let pid: number;

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
    pid = (await server.callOk('launch_app', { name: 'gnome-calculator' })).structured.pid as number;
    // The window maps before every button is on the accessibility bus.
    await eventually(async () => (/\[PushButton\] "="/.test(readFileSync((await server.callOk('get_window_state', { pid, query: '=' })).structured.file as string, 'utf8')) ? true : undefined), 15_000, 'the calculator\'s "=" button');
  });
  after(async () => {
    await server?.close();
    await desktop?.stop();
  });

  test("the screenshot of the answer whose diff shows the result shows the result", async () => {
    const typed = await server.callOk('run_steps', { pid, steps: clicks('1', '2', '×', '3', '4', '+', '5') });
    const equals = await server.callOk('run_steps', { pid, steps: clicks('=') });
    const changes = equals.structured.text_changes as Array<{ role: string; after: string }>;
    assert.ok(
      changes.some((change) => change.role === 'Text' && change.after === '413'),
      `the diff shows the result: ${JSON.stringify(changes)}`,
    );

    const display = displayBox(equals);
    const [window] = (await server.callOk('list_windows', { pid })).structured.windows as Array<{ bounds: Box }>;
    const box = { x: display.x - window.bounds.x, y: display.y - window.bounds.y, width: display.width, height: display.height };
    // Long after the answer nothing is still being computed or painted.
    await delay(1_500);
    const later = await server.callOk('refresh_traversal', { pid });

    const beforeEquals = await crop(typed.structured.screenshot as string, box);
    const shown = await crop(equals.structured.screenshot as string, box);
    const settled = await crop(later.structured.screenshot as string, box);
    // "12×34+5" and "413" differ in hundreds of pixels; the text cursor (which blinks) in a few dozen.
    assert.ok(pixelsDiffering(beforeEquals, shown) > 300, `the '=' answer's screenshot shows a changed display (${pixelsDiffering(beforeEquals, shown)} pixels differ from the one before '=')`);
    assert.ok(pixelsDiffering(shown, settled) < 80, `the '=' answer's screenshot shows what the display settles on (${pixelsDiffering(shown, settled)} pixels differ)`);
    assert.equal(equals.structured.settled, undefined, 'the answer says the calculator settled');
  });
});

/** The result display's screen bounds: the Text element whose value became the result. */
function displayBox(answer: ToolResult): Box {
  const diff = readFileSync(answer.structured.file as string, 'utf8');
  const line = diff.split('\n').find((text) => /\[Text\]/.test(text) && /-> '413'/.test(text));
  const bounds = line && /x:(-?\d+) y:(-?\d+) w:(\d+) h:(\d+)/.exec(line);
  assert.ok(bounds, `the diff has the display's line with its bounds:\n${diff}`);
  const [x, y, width, height] = bounds.slice(1).map(Number);
  return { x, y, width, height };
}
