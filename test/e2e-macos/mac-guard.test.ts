// The input guard on a real Mac. A second process (humanPoster.js) plays the person, posting
// untagged CGEvents while the agent acts in TextEdit. The person acts only once the guard is
// known to hold the input (the call's first MCP progress notification), never after a fixed
// delay. Their keys and clicks must not reach the app; plain Esc cancels and puts the cursor
// back, Cmd+Esc does not; the watchdog gives control back; after a cancel the typing stops (≤ 5
// more characters in 2 s); a guard thread that releases itself mid-call ends the call with
// guard-lost; killing the server with SIGKILL gives the person their keyboard back.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpSession, accessibilityUnavailable, contentOf, delay, eventually, human, readArtifact, stopApp, textAreaOf, type TreeLine } from './macHarness.js';

const unavailable = await accessibilityUnavailable();
const skip = unavailable ?? false;
const KEYCODE_ESCAPE = '53';
const COMMAND = String(0x100000);

describe('macOS input guard with a person at the keyboard', { timeout: 600_000 }, () => {
  let server: McpSession;
  let pid: number;
  const document = join(tmpdir(), `tandem-guard-${process.pid}.txt`);

  const area = async (session: McpSession = server): Promise<TreeLine> => textAreaOf(readArtifact((await session.callOk('refresh_traversal', { pid })).structured.file), document);
  const text = async (session?: McpSession): Promise<string> => contentOf(await area(session));
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

  test("should hold back the person's keys and clicks while the agent's input passes", { skip }, async () => {
    const call = server.start('click_and_traverse', { pid, ...target(await area()), text: 'agent', steps: [{ action: 'wait', ms: 3000 }, { action: 'type', text: '-after' }] });
    await call.engaged;
    await human('type', 'zzz');
    const line = await area();
    await human('click', String(line.x + 5), String(line.y + 5));
    const result = await call.result;
    assert.equal(result.structured.status, 'ok', result.text);
    assert.ok(Number(result.structured.human_input_blocked) > 0, `human_input_blocked: ${result.structured.human_input_blocked}`);
    const after = await text();
    assert.match(after, /agent-after/, 'the agent typed in one piece: the click did not move the caret');
    assert.doesNotMatch(after, /zzz/, "the person's keys never reached TextEdit");
  });

  test('should cancel on plain Esc, skip the remaining steps and put the cursor back', { skip }, async () => {
    await human('move', '40', '40');
    await delay(200);
    const call = server.start('click_and_traverse', { pid, ...target(await area()), text: 'first', steps: [{ action: 'wait', ms: 4000 }, { action: 'type', text: 'second' }] });
    await call.engaged;
    await human('key', KEYCODE_ESCAPE);
    const result = await call.result;
    assert.equal(result.isError, true, result.text);
    assert.equal(result.structured.status, 'cancelled', result.text);
    const after = await text();
    assert.match(after, /first/);
    assert.doesNotMatch(after, /second/, 'the step after Esc never ran');
    const [x, y] = (await human('cursor')).split(' ').map(Number);
    assert.ok(Math.abs(x - 40) <= 1 && Math.abs(y - 40) <= 1, `cursor restored to 40,40, found ${x},${y}`);
  });

  test('should not cancel on Cmd+Esc (only plain Esc is the kill switch), and still hold the keys back', { skip }, async () => {
    const before = await text();
    const call = server.start('click_and_traverse', { pid, ...target(await area()), steps: [{ action: 'wait', ms: 3000 }] });
    await call.engaged;
    await human('key', KEYCODE_ESCAPE, COMMAND);
    await human('type', 'qq');
    const result = await call.result;
    assert.equal(result.structured.status, 'ok', result.text);
    assert.ok(Number(result.structured.human_input_blocked) > 0, `human_input_blocked: ${result.structured.human_input_blocked}`);
    const after = await text();
    assert.equal(after.split('qq').length - 1, before.split('qq').length - 1, "the person's qq never reached TextEdit");
  });

  test('should stop typing on Esc: after the cancelled answer at most 5 more characters arrive in 2 s', { skip }, async (t) => {
    const before = (await text()).length;
    const long = 'paced '.repeat(2_000); // 12,000 characters: seconds of typing
    let typing: () => void;
    const typingStarted = new Promise<void>((resolve) => (typing = resolve));
    const running = server.call('click_and_traverse', { pid, ...target(await area()), text: long }, (message) => {
      if (/characters typed/.test(message)) typing();
    });
    await Promise.race([typingStarted, delay(30_000).then(() => Promise.reject(new Error('no typing progress within 30 s')))]);
    await human('key', KEYCODE_ESCAPE);
    const result = await running;
    assert.equal(result.structured.status, 'cancelled', result.text);
    const atAnswer = (await text()).length;
    await delay(2_000);
    const later = (await text()).length;
    t.diagnostic(`typed before Esc was answered: ${atAnswer - before} of ${long.length}; arrived after the answer: ${later - atAnswer}`);
    assert.ok(atAnswer - before > 0 && atAnswer - before < long.length, 'stopped part way through');
    assert.ok(later - atAnswer <= 5, `${later - atAnswer} characters arrived after the cancelled answer`);
  });

  test('should give control back when the watchdog fires, and type nothing after it', { skip }, async (t) => {
    const impatient = await McpSession.start({ TANDEM_WATCHDOG_MS: '1500' });
    try {
      // The wait keeps within the watchdog; the paced typing after it cannot finish in time.
      const result = await impatient.call('click_and_traverse', { pid, ...target(await area(impatient)), steps: [{ action: 'wait', ms: 1200 }, { action: 'type', text: 'late '.repeat(4_000) }] });
      assert.equal(result.structured.status, 'watchdog', result.text);
      assert.ok(Number(result.structured.duration_ms) < 10_000);
      const atAnswer = (await text(impatient)).length;
      await delay(2_000);
      const later = (await text(impatient)).length;
      t.diagnostic(`arrived after the watchdog's answer: ${later - atAnswer}`);
      assert.ok(later - atAnswer <= 5, `${later - atAnswer} characters arrived after the watchdog answer`);
      await human('type', 'back');
      await eventually(async () => ((await text(impatient)).includes('back') ? true : undefined), 10_000, "the person's typing after the watchdog");
    } finally {
      await impatient.close();
    }
  });

  test('should stop with guard-lost when the guard thread releases the tap mid-call, sending nothing more', { skip }, async () => {
    // The guard thread's own lifetime cap, lowered: it lets go 2.5 s into the call, during the wait.
    const shortLived = await McpSession.start({ TANDEM_MAC_GUARD_LIFETIME_MS: '2500' });
    try {
      const started = Date.now();
      const result = await shortLived.call('click_and_traverse', { pid, ...target(await area(shortLived)), text: 'lost-', steps: [{ action: 'wait', ms: 4000 }, { action: 'wait', ms: 4000 }, { action: 'type', text: 'never' }] });
      const took = Date.now() - started;
      assert.equal(result.structured.status, 'error', result.text);
      assert.match(result.text, /guard-lost/);
      assert.ok(took < 8_000, `the call stopped when the guard was lost (${took} ms), not after its waits`);
      await delay(500);
      assert.doesNotMatch(await text(shortLived), /never/, 'nothing was typed after the loss');
      await human('type', 'mine');
      await eventually(async () => ((await text(shortLived)).includes('mine') ? true : undefined), 5_000, "the person's typing after the loss");
    } finally {
      await shortLived.close();
    }
  });

  test('should release the tap when the server is killed with SIGKILL mid-call', { skip }, async () => {
    const doomed = await McpSession.start();
    const call = doomed.start('click_and_traverse', { pid, ...target(await area(doomed)), steps: [{ action: 'wait', ms: 5000 }] });
    call.result.catch(() => undefined);
    await call.engaged;
    await human('type', 'held');
    await delay(300);
    assert.doesNotMatch(await text(), /held/, 'the guard was up: the keys typed before the kill were held back');
    process.kill(doomed.pid, 'SIGKILL');
    const killedAt = Date.now();
    await human('type', 'free');
    await eventually(async () => ((await text()).includes('free') ? true : undefined), 5_000, "the person's typing after the server died");
    const back = Date.now() - killedAt;
    assert.doesNotMatch(await text(), /held/, 'held keys were swallowed, not queued for later');
    assert.ok(back < 5_000, `typing reached TextEdit ${back} ms after the kill`);
    await doomed.close();
  });
});
