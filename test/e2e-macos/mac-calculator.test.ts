// Calculator through a real MCP client: keys pressed in one guarded call, the result read back
// from the accessibility tree, and a button clicked by its text.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpSession, stopApp, accessibilityUnavailable, human, readArtifact, treeLines } from './macHarness.js';

const unavailable = await accessibilityUnavailable();

/** Calculator wraps numbers in direction marks on some versions: compare digits only. */
const digits = (text: string): string => text.replace(/[^0-9.,-]/g, '');

describe('Calculator over MCP on macOS', { timeout: 180_000 }, () => {
  let server: McpSession;
  let pid: number;

  before(async () => {
    if (unavailable) return;
    server = await McpSession.start();
  });

  after(async () => {
    if (unavailable) return;
    await server?.close();
    await stopApp(pid);
  });

  test('should open Calculator by name', { skip: unavailable ?? false }, async () => {
    const result = await server.callOk('open_application_and_traverse', { identifier: 'Calculator' });
    pid = Number(result.structured.pid);
    assert.ok(pid > 0);
    assert.match(readArtifact(result.structured.file), /\[Button\]/);
  });

  test('should compute 7+8 from key presses chained in one call', { skip: unavailable ?? false }, async () => {
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
    const tree = readArtifact((await server.callOk('refresh_traversal', { pid })).structured.file);
    assert.ok(treeLines(tree).some((l) => digits(l.text) === '15'), `no 15 in the tree:\n${tree.slice(0, 4000)}`);
  });

  test('should press a button through its accessibility action without moving the mouse', { skip: unavailable ?? false }, async () => {
    await server.callOk('press_key_and_traverse', { pid, keyName: 'escape' });
    const before = await human('cursor');
    const result = await server.callOk('press_ax_and_traverse', { pid, element: '4', role: 'button' });
    assert.equal(result.structured.status, 'ok', result.text);
    assert.equal(await human('cursor'), before, 'AXPress moved no pointer');
    const tree = readArtifact((await server.callOk('refresh_traversal', { pid })).structured.file);
    assert.ok(treeLines(tree).some((l) => l.role !== 'Button' && digits(l.text) === '4'), `the display does not show 4:\n${tree.slice(0, 4000)}`);
  });

  test('should click a button found by its text', { skip: unavailable ?? false }, async () => {
    await server.callOk('press_key_and_traverse', { pid, keyName: 'escape' });
    const result = await server.callOk('click_and_traverse', { pid, element: '9', role: 'button' });
    assert.equal(result.structured.status, 'ok', result.text);
    const tree = readArtifact((await server.callOk('refresh_traversal', { pid })).structured.file);
    assert.ok(treeLines(tree).some((l) => l.role !== 'Button' && digits(l.text) === '9'), `the display does not show 9:\n${tree.slice(0, 4000)}`);
  });
});
