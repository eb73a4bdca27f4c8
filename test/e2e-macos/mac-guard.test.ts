// The input guard on a real Mac. A second process (humanPoster.js) plays the person, posting
// untagged CGEvents while the agent acts in TextEdit: their keys and clicks must not reach the
// app, plain Esc must cancel and put the cursor back, the watchdog must give control back, and
// killing the server with SIGKILL must release the tap (a tap dies with its process).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpSession, stopApp, accessibilityUnavailable, delay, eventually, human, readArtifact, treeLines, type TreeLine } from './macHarness.js';

const unavailable = await accessibilityUnavailable();
const KEYCODE_ESCAPE = '53';

describe('macOS input guard with a person at the keyboard', { timeout: 300_000 }, () => {
  let server: McpSession;
  let pid: number;
  const document = join(tmpdir(), `tandem-guard-${process.pid}.txt`);

  const area = async (session: McpSession = server): Promise<TreeLine> => {
    const tree = readArtifact((await session.callOk('refresh_traversal', { pid })).structured.file);
    const line = treeLines(tree).find((l) => l.role === 'TextArea' && Number.isFinite(l.x));
    assert.ok(line, `no TextArea in:\n${tree.slice(0, 3000)}`);
    return line;
  };
  const target = (line: TreeLine) => ({ x: line.x, y: line.y, width: line.width, height: line.height });

  before(async () => {
    if (unavailable) return;
    writeFileSync(document, 'guard test\n');
    server = await McpSession.start();
    pid = Number((await server.callOk('open_application_and_traverse', { identifier: document })).structured.pid);
  });

  after(async () => {
    if (unavailable) return;
    await server?.close();
    await stopApp(pid);
  });

  test("should hold back the person's keys and clicks while the agent's input passes", { skip: unavailable ?? false }, async () => {
    const text = await area();
    const call = server.call('click_and_traverse', { pid, ...target(text), text: 'agent', steps: [{ action: 'wait', ms: 3000 }, { action: 'type', text: '-after' }] });
    await delay(1500);
    await human('type', 'zzz');
    await human('click', String(text.x + 5), String(text.y + 5));
    const result = await call;
    assert.equal(result.structured.status, 'ok', result.text);
    assert.ok(Number(result.structured.human_input_blocked) > 0, `human_input_blocked: ${result.structured.human_input_blocked}`);
    const after = (await area()).text;
    assert.match(after, /agent-after/, 'the agent typed in one piece: the click did not move the caret');
    assert.doesNotMatch(after, /zzz/, "the person's keys never reached TextEdit");
  });

  test('should cancel on plain Esc, skip the remaining steps and put the cursor back', { skip: unavailable ?? false }, async () => {
    const text = await area();
    await human('move', '40', '40');
    await delay(200);
    const call = server.call('click_and_traverse', { pid, ...target(text), text: 'first', steps: [{ action: 'wait', ms: 4000 }, { action: 'type', text: 'second' }] });
    await delay(1500);
    await human('key', KEYCODE_ESCAPE);
    const result = await call;
    assert.equal(result.isError, true, result.text);
    assert.equal(result.structured.status, 'cancelled', result.text);
    await delay(300);
    const after = (await area()).text;
    assert.match(after, /first/);
    assert.doesNotMatch(after, /second/, 'the step after Esc never ran');
    const [x, y] = (await human('cursor')).split(' ').map(Number);
    assert.ok(Math.abs(x - 40) <= 1 && Math.abs(y - 40) <= 1, `cursor restored to 40,40, found ${x},${y}`);
  });

  test('should not cancel on Cmd+Esc (only plain Esc is the kill switch)', { skip: unavailable ?? false }, async () => {
    const text = await area();
    const call = server.call('click_and_traverse', { pid, ...target(text), text: 'm', steps: [{ action: 'wait', ms: 2500 }] });
    await delay(1200);
    await human('key', KEYCODE_ESCAPE, String(0x100000));
    const result = await call;
    assert.equal(result.structured.status, 'ok', result.text);
  });

  test('should give control back when the watchdog fires', { skip: unavailable ?? false }, async () => {
    const impatient = await McpSession.start({ TANDEM_WATCHDOG_MS: '1500' });
    try {
      const text = await area(impatient);
      const result = await impatient.call('click_and_traverse', { pid, ...target(text), steps: [{ action: 'wait', ms: 5000 }, { action: 'wait', ms: 5000 }, { action: 'type', text: 'late' }] });
      assert.equal(result.structured.status, 'watchdog', result.text);
      assert.ok(Number(result.structured.duration_ms) < 10_000);
      await human('type', 'back');
      await eventually(async () => ((await area(impatient)).text.includes('back') ? true : undefined), 10_000, "the person's typing after the watchdog");
      assert.doesNotMatch((await area(impatient)).text, /late/);
    } finally {
      await impatient.close();
    }
  });

  test('should release the tap when the server is killed with SIGKILL mid-call', { skip: unavailable ?? false }, async () => {
    const doomed = await McpSession.start();
    const text = await area(doomed);
    const call = doomed.call('click_and_traverse', { pid, ...target(text), text: 'k', steps: [{ action: 'wait', ms: 8000 }] }).catch(() => undefined);
    await delay(1500);
    process.kill(doomed.pid, 'SIGKILL');
    await call;
    await delay(500);
    await human('type', 'free');
    await eventually(async () => ((await area()).text.includes('free') ? true : undefined), 10_000, "the person's typing after the server died");
    await doomed.close();
  });
});
