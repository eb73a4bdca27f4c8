// Calculator through a real MCP client: keys pressed in one guarded call, the result read back
// from the accessibility tree, a button pressed through its accessibility action and one clicked.
// Calculator was redesigned in macOS 15, so nothing assumes its buttons' titles: they are found
// by what the tree shows (a digit, or its name) and the tree file stays in the run's artifacts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpSession, stopApp, accessibilityUnavailable, contentOf, human, readArtifact, treeLines, type TreeLine } from './macHarness.js';

const unavailable = await accessibilityUnavailable();
const skip = unavailable ?? false;

/** Calculator wraps numbers in direction marks and separators on some versions: compare digits only. */
const digits = (text: string): string => text.replace(/[^0-9.,-]/g, '');
const DIGIT_NAMES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** The button for digit `d`, by what this Calculator's tree shows: "7", or "seven". */
export function digitButton(tree: string, d: number): TreeLine | undefined {
  const buttons = treeLines(tree).filter((l) => l.role === 'Button' && Number.isFinite(l.x));
  return buttons.find((l) => l.text.trim() === String(d)) ?? buttons.find((l) => l.text.trim().toLowerCase() === DIGIT_NAMES[d]);
}

/** Whether the display (any non-button element) shows `value`. */
const shows = (tree: string, value: string): boolean => treeLines(tree).some((l) => l.role !== 'Button' && digits(contentOf(l)) === value);

describe('Calculator over MCP on macOS', { timeout: 180_000 }, () => {
  let server: McpSession;
  let pid: number;
  const tree = async (): Promise<string> => readArtifact((await server.callOk('refresh_traversal', { pid })).structured.file);

  before(async () => {
    if (unavailable) return;
    server = await McpSession.start();
  });

  after(async () => {
    if (unavailable) return;
    await server?.close();
    await stopApp(pid);
  });

  test('should open Calculator by name and show its digit buttons', { skip }, async (t) => {
    const result = await server.callOk('open_application_and_traverse', { identifier: 'Calculator' });
    pid = Number(result.structured.pid);
    assert.ok(pid > 0);
    const opened = readArtifact(result.structured.file);
    t.diagnostic(`tree file (kept with the run's artifacts): ${String(result.structured.file)}`);
    const found = [4, 7, 8, 9].map((d) => digitButton(opened, d));
    assert.ok(found.every(Boolean), `digit buttons by title or name (4, 7, 8, 9) in:\n${opened.slice(0, 4000)}`);
  });

  test('should compute 7+8 from key presses chained in one call', { skip }, async () => {
    await server.callOk('press_key_and_traverse', { pid, keyName: 'escape' });
    const result = await server.callOk('press_key_and_traverse', {
      pid,
      keyName: '7',
      steps: [
        { action: 'press', keyName: '+' },
        { action: 'press', keyName: '8' },
        { action: 'press', keyName: '=' },
      ],
    });
    assert.equal(result.structured.status, 'ok', result.text);
    const now = await tree();
    assert.ok(shows(now, '15'), `no 15 on the display:\n${now.slice(0, 4000)}`);
  });

  test('should press a button through its accessibility action without moving the mouse', { skip }, async () => {
    await server.callOk('press_key_and_traverse', { pid, keyName: 'escape' });
    const four = digitButton(await tree(), 4);
    assert.ok(four, 'the 4 button');
    const before = await human('cursor');
    const result = await server.callOk('press_ax_and_traverse', { pid, element: four.text, role: 'button' });
    assert.equal(result.structured.status, 'ok', result.text);
    assert.equal(await human('cursor'), before, 'AXPress moved no pointer');
    const now = await tree();
    assert.ok(shows(now, '4'), `the display does not show 4:\n${now.slice(0, 4000)}`);
  });

  test('should click a button found by its text', { skip }, async () => {
    await server.callOk('press_key_and_traverse', { pid, keyName: 'escape' });
    const nine = digitButton(await tree(), 9);
    assert.ok(nine, 'the 9 button');
    const result = await server.callOk('click_and_traverse', { pid, element: nine.text, role: 'button' });
    assert.equal(result.structured.status, 'ok', result.text);
    const now = await tree();
    assert.ok(shows(now, '9'), `the display does not show 9:\n${now.slice(0, 4000)}`);
  });
});
