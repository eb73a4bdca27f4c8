// Calculator through a real MCP client: keys pressed in one guarded call, the result read back
// from Tandem's accessibility tree, a button pressed through its accessibility action and one
// clicked with the mouse. Calculator was redesigned in macOS 15 (SwiftUI), so nothing assumes its
// buttons' titles: a digit button is found by what Tandem's tree shows (its title or description,
// "7" or "seven"), else by its AX identifier read by the suite's own reader and matched to the
// tree line by its bounds. On a failure the tree file and the own reader's view of the app are
// named in the message; both stay in the run's artifacts (the session's folder under TMPDIR).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpSession, stopApp, accessibilityUnavailable, axElements, contentOf, eventually, human, indexedTreeLines, readArtifact, treeLines, type TreeLine } from './macHarness.js';
import type { AxNode } from './axReader.js';

const unavailable = await accessibilityUnavailable();
const skip = unavailable ?? false;

/** Calculator wraps numbers in direction marks and separators on some versions: compare digits only. */
const digits = (text: string): string => text.replace(/[^0-9.,-]/g, '');
const DIGIT_NAMES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

type IndexedLine = TreeLine & { index: number };

/** Whether an AX identifier names digit `d`: "7", "Seven", "Key7", "digit_seven", "SevenButton"… */
export function identifierNamesDigit(identifier: string, d: number): boolean {
  const words = identifier.replace(/([a-z])([A-Z0-9])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '' && !['key', 'digit', 'button', 'number', 'calculator'].includes(w));
  return words.length === 1 && (words[0] === String(d) || words[0] === DIGIT_NAMES[d]);
}

const sameBounds = (line: TreeLine, node: AxNode): boolean =>
  node.x !== null && node.y !== null && node.width !== null && node.height !== null &&
  Math.abs(line.x - node.x) <= 1 && Math.abs(line.y - node.y) <= 1 && Math.abs(line.width - node.width) <= 1 && Math.abs(line.height - node.height) <= 1;

/** The tree line of the button for digit `d`, by what the tree shows, else by its AX identifier. */
export function digitButton(tree: string, d: number, ax: AxNode[]): IndexedLine | undefined {
  const buttons = indexedTreeLines(tree).filter((l) => l.role === 'Button' && Number.isFinite(l.x));
  const shown = buttons.find((l) => l.text.trim() === String(d)) ?? buttons.find((l) => l.text.trim().toLowerCase() === DIGIT_NAMES[d]);
  if (shown) return shown;
  const byIdentifier = ax.find((node) => node.role === 'AXButton' && node.identifier !== null && identifierNamesDigit(node.identifier, d));
  return byIdentifier ? buttons.find((l) => sameBounds(l, byIdentifier)) : undefined;
}

/** The frontmost app's pid, as Launch Services says (lsappinfo needs no permission), or null. */
function frontmostPid(): number | null {
  try {
    const front = execFileSync('lsappinfo', ['front'], { encoding: 'utf8' }).trim();
    const info = execFileSync('lsappinfo', ['info', '-only', 'pid', front], { encoding: 'utf8' });
    const pid = /"pid"\s*=\s*(\d+)/i.exec(info)?.[1];
    return pid ? Number(pid) : null;
  } catch {
    return null;
  }
}

/** Whether the display (any non-button element of Tandem's tree) shows `value`. */
const shows = (tree: string, value: string): boolean => treeLines(tree).some((l) => l.role !== 'Button' && digits(contentOf(l)) === value);

describe('Calculator over MCP on macOS', { timeout: 180_000 }, () => {
  let server: McpSession;
  let pid: number;
  let treeFile = '';
  const tree = async (): Promise<string> => {
    treeFile = String((await server.callOk('refresh_traversal', { pid })).structured.file);
    return readArtifact(treeFile);
  };
  /** Keeps the own reader's view of Calculator beside the tree file and names both, for a failure message. */
  const evidence = async (): Promise<string> => {
    const dump = join(server.artifacts, `calculator-ax-${Date.now()}.json`);
    writeFileSync(dump, JSON.stringify(await axElements(pid).catch((error: unknown) => String(error)), null, 1));
    return `Tandem's tree: ${treeFile}; the suite's own AX reading: ${dump}`;
  };
  const button = async (d: number): Promise<IndexedLine> => {
    const found = digitButton(await tree(), d, await axElements(pid));
    assert.ok(found, `the ${d} button, by title, description or identifier (${await evidence()})`);
    return found;
  };

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
    assert.ok(pid > 0, result.text);
    treeFile = String(result.structured.file);
    t.diagnostic(`tree file (kept with the run's artifacts): ${treeFile}`);
    const opened = readArtifact(treeFile);
    const ax = await axElements(pid);
    const missing = [4, 7, 8, 9].filter((d) => !digitButton(opened, d, ax));
    assert.deepEqual(missing, [], `digit buttons not found (${await evidence()}):\n${opened.slice(0, 4000)}`);
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
    assert.ok(shows(now, '15'), `no 15 on the display (${await evidence()}):\n${now.slice(0, 4000)}`);
  });

  test('should press a button through its accessibility action without moving the mouse', { skip }, async () => {
    await server.callOk('press_key_and_traverse', { pid, keyName: 'escape' });
    const four = await button(4);
    const before = await human('cursor');
    const result = await server.callOk('press_ax_and_traverse', { pid, element_index: four.index });
    assert.equal(result.structured.status, 'ok', result.text);
    assert.equal(await human('cursor'), before, 'AXPress moved no pointer');
    const now = await tree();
    assert.ok(shows(now, '4'), `the display does not show 4 (${await evidence()}):\n${now.slice(0, 4000)}`);
  });

  test('should click a digit button with the mouse', { skip }, async () => {
    await server.callOk('press_key_and_traverse', { pid, keyName: 'escape' });
    const nine = await button(9);
    const result = await server.callOk('click_and_traverse', { pid, x: nine.x, y: nine.y, width: nine.width, height: nine.height });
    assert.equal(result.structured.status, 'ok', result.text);
    const now = await tree();
    assert.ok(shows(now, '9'), `the display does not show 9 (${await evidence()}):\n${now.slice(0, 4000)}`);
  });

  test("should press a digit in the background: Calculator stays behind the person's front app and the pointer stays", { skip }, async () => {
    await server.callOk('press_key_and_traverse', { pid, keyName: 'escape' });
    const six = await button(6);
    // The person's app in front: Finder, which every Mac runs, brought there by Tandem's own tool
    // (since macOS 14 `open -a` from a background process may leave it behind).
    execFileSync('open', [homedir()]); // a Finder window, so that Finder has one to bring forward
    const finder = Number(/"pid"\s*=\s*(\d+)/.exec(execFileSync('lsappinfo', ['info', '-only', 'pid', '-app', 'com.apple.finder'], { encoding: 'utf8' }))?.[1]);
    await server.callOk('bring_to_front', { pid: finder });
    const front = await eventually(async () => (frontmostPid() === finder ? finder : undefined), 10_000, 'Finder in front of Calculator');
    const cursor = await human('cursor');
    const result = await server.callOk('click', { pid, element_index: six.index, background: true });
    assert.equal(result.structured.status, 'ok', result.text);
    assert.equal(result.structured.background, true, result.text);
    // Had Calculator taken the front, Tandem would have put Finder back before answering: the
    // answer's restore is the record of it.
    assert.equal((result.structured.restore as { frontmost?: string }).frontmost, 'not-needed', `Calculator took the front during the call: ${result.text}`);
    assert.equal(frontmostPid(), front, 'Calculator was not activated: the person\'s app is still in front');
    assert.equal(await human('cursor'), cursor, 'the pointer did not move');
    const now = await eventually(async () => {
      const read = await tree();
      return shows(read, '6') ? read : undefined;
    }, 5_000, `the display to show 6 (${await evidence()})`);
    assert.ok(shows(now, '6'));
  });
});
