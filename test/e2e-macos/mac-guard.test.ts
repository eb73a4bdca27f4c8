// The input guard on a real Mac. A second process (humanPoster.js) plays the person, posting
// untagged CGEvents while the agent acts in TextEdit. The person acts only once a progress
// notification of the call says the guard holds the input (usually: the step of a wait has
// begun), never after a fixed delay, and each test checks the call had not answered by then.
// Every test types into a fresh short document of its own, and reads it back whole through the
// suite's own AX reader (Tandem's tree lines cut values at 160 characters). What must hold: the
// person's keys and clicks do not reach the app; plain Esc cancels and puts the cursor back,
// Cmd+Esc does not; the watchdog gives control back; after a cancel the typing stops (≤ 5 more
// characters in 2 s); a guard thread that releases itself mid-call ends the call with
// guard-lost; killing the server with SIGKILL gives the person their keyboard back.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_GRACE_MS } from '../../src/core/engine.js';
import { McpSession, delay, guardUnavailable, documentText, eventually, human, openDocument, stepStarted, stopApp, type RunningCall, type TreeLine } from './macHarness.js';

/** The grants, and no Secure Event Input (taps would see no keys): else every test here is skipped, saying why. */
const unavailable = await guardUnavailable();
const skip = unavailable ?? false;
const KEYCODE_ESCAPE = '53';
const COMMAND = String(0x100000);

/** Whether the call is still running: the person's input must have come while it was. */
function pending(call: RunningCall): () => boolean {
  let answered = false;
  call.result.then(
    () => (answered = true),
    () => (answered = true),
  );
  return () => !answered;
}

describe('macOS input guard with a person at the keyboard', { timeout: 600_000 }, () => {
  let server: McpSession;
  let pid: number | undefined;

  /** A new short document for one test, open in TextEdit, with its text area (from a tree read before the call). */
  const freshDocument = async (label: string): Promise<{ document: string; area: TreeLine }> => {
    const document = join(tmpdir(), `tandem-guard-${process.pid}-${label}.txt`);
    writeFileSync(document, 'start\n');
    const opened = await openDocument(server, document);
    pid = opened.pid;
    return { document, area: opened.area };
  };
  const text = (document: string): Promise<string> => documentText(pid!, document);
  /** Clicks the centre of the text area: below the short text, so the caret goes to its end. */
  const target = (line: TreeLine) => ({ x: line.x, y: line.y, width: line.width, height: line.height });

  before(async () => {
    if (unavailable) return;
    server = await McpSession.start();
  });

  after(async () => {
    if (unavailable) return;
    await server?.close();
    await stopApp(pid);
  });

  test("should hold back the person's keys and clicks while the agent's input passes", { skip }, async () => {
    const { document, area } = await freshDocument('keys');
    // Had the person's click passed, the caret would sit before "start" and "-after" would not
    // follow "agent". Its place is taken now: a read during the call would wait for the call.
    const personAt = [String(area.x + 5), String(area.y + 5)];
    const call = server.start('click_and_traverse', { pid, ...target(area), text: 'agent', steps: [{ action: 'wait', ms: 3000 }, { action: 'type', text: '-after' }] }, stepStarted(3));
    const running = pending(call);
    await call.engaged;
    await human('type', 'zzz');
    await human('click', ...personAt);
    assert.ok(running(), 'the person typed and clicked while the call ran');
    const result = await call.result;
    assert.equal(result.structured.status, 'ok', result.text);
    assert.ok(Number(result.structured.human_input_blocked) > 0, `human_input_blocked: ${result.structured.human_input_blocked}`);
    const after = await text(document);
    assert.match(after, /agent-after/, `the agent typed in one piece, the click did not move the caret: ${JSON.stringify(after)}`);
    assert.doesNotMatch(after, /zzz/, "the person's keys never reached TextEdit");
  });

  test('should cancel on plain Esc, skip the remaining steps and put the cursor back', { skip }, async () => {
    const { document, area } = await freshDocument('escape');
    // The last call's guard may hold the input for its late-Esc grace period: the move must land.
    await delay(DEFAULT_GRACE_MS);
    await human('move', '40', '40');
    await delay(200);
    assert.equal(await human('cursor'), '40 40', 'the person put the pointer at 40,40 before the call');
    const call = server.start('click_and_traverse', { pid, ...target(area), text: 'first', steps: [{ action: 'wait', ms: 4000 }, { action: 'type', text: 'second' }] }, stepStarted(3));
    const running = pending(call);
    await call.engaged;
    // Taken before Esc: once the poster exits, the cancelled answer may already be in.
    const wasRunning = running();
    await human('key', KEYCODE_ESCAPE);
    assert.ok(wasRunning, 'the call was running when Esc was pressed');
    const result = await call.result;
    assert.equal(result.isError, true, result.text);
    assert.equal(result.structured.status, 'cancelled', result.text);
    // The person's Esc, not a cancel by the client: what makes the answer prove the kill switch.
    assert.match(String(result.structured.hint), /^The person pressed Esc/, result.text);
    const after = await text(document);
    assert.match(after, /first/);
    assert.doesNotMatch(after, /second/, 'the step after Esc never ran');
    const [x, y] = (await human('cursor')).split(' ').map(Number);
    assert.ok(Math.abs(x - 40) <= 1 && Math.abs(y - 40) <= 1, `cursor restored to 40,40, found ${x},${y}`);
  });

  test('should not cancel on Cmd+Esc (only plain Esc is the kill switch), and still hold the keys back', { skip }, async () => {
    const { document, area } = await freshDocument('command-escape');
    const call = server.start('click_and_traverse', { pid, ...target(area), steps: [{ action: 'wait', ms: 3000 }] }, stepStarted(2));
    const running = pending(call);
    await call.engaged;
    await human('key', KEYCODE_ESCAPE, COMMAND);
    await human('type', 'qq');
    assert.ok(running(), 'Cmd+Esc and the keys came while the call ran');
    const result = await call.result;
    assert.equal(result.structured.status, 'ok', result.text);
    assert.ok(Number(result.structured.human_input_blocked) > 0, `human_input_blocked: ${result.structured.human_input_blocked}`);
    assert.doesNotMatch(await text(document), /qq/, "the person's qq never reached TextEdit");
  });

  test('should stop typing on Esc: after the cancelled answer at most 5 more characters arrive in 2 s', { skip }, async (t) => {
    const { document, area } = await freshDocument('paced');
    const before = (await text(document)).length;
    const long = 'paced '.repeat(2_000); // 12,000 characters: seconds of typing
    const call = server.start('click_and_traverse', { pid, ...target(area), text: long }, (message) => /characters typed/.test(message));
    await call.engaged;
    await human('key', KEYCODE_ESCAPE);
    const result = await call.result;
    assert.equal(result.structured.status, 'cancelled', result.text);
    const atAnswer = (await text(document)).length;
    await delay(2_000);
    const later = (await text(document)).length;
    t.diagnostic(`typed before Esc was answered: ${atAnswer - before} of ${long.length}; arrived after the answer: ${later - atAnswer}`);
    assert.ok(atAnswer - before > 0 && atAnswer - before < long.length, `stopped part way through (${atAnswer - before} of ${long.length})`);
    assert.ok(later - atAnswer <= 5, `${later - atAnswer} characters arrived after the cancelled answer`);
  });

  test('should give control back when the watchdog fires, and type nothing after it', { skip }, async (t) => {
    const { document, area } = await freshDocument('watchdog');
    const before = (await text(document)).length;
    const impatient = await McpSession.start({ TANDEM_WATCHDOG_MS: '1500' });
    try {
      // The wait keeps within the watchdog; the paced typing after it cannot finish in time.
      const late = 'late '.repeat(4_000);
      const result = await impatient.call('click_and_traverse', { pid, ...target(area), steps: [{ action: 'wait', ms: 1200 }, { action: 'type', text: late }] });
      assert.equal(result.structured.status, 'watchdog', result.text);
      const atAnswer = (await text(document)).length;
      await delay(2_000);
      const later = (await text(document)).length;
      t.diagnostic(`typed before the watchdog: ${atAnswer - before} of ${late.length}; arrived after its answer: ${later - atAnswer}`);
      assert.ok(atAnswer - before < late.length, 'the watchdog stopped the typing part way through');
      assert.ok(later - atAnswer <= 5, `${later - atAnswer} characters arrived after the watchdog answer`);
      await human('type', 'back');
      await eventually(async () => ((await text(document)).includes('back') ? true : undefined), 10_000, "the person's typing after the watchdog");
    } finally {
      await impatient.close();
    }
  });

  test('should stop with guard-lost when the guard thread releases the tap mid-call, sending nothing more', { skip }, async () => {
    const { document, area } = await freshDocument('guard-lost');
    // The guard thread's own lifetime cap, lowered: it lets go 2.5 s into the call, during the first wait.
    const shortLived = await McpSession.start({ TANDEM_MAC_GUARD_LIFETIME_MS: '2500' });
    try {
      const call = shortLived.start('click_and_traverse', { pid, ...target(area), text: 'lost-', steps: [{ action: 'wait', ms: 4000 }, { action: 'wait', ms: 4000 }, { action: 'type', text: 'never' }] });
      const result = await call.result;
      assert.equal(result.structured.status, 'error', result.text);
      assert.match(result.text, /guard-lost/);
      assert.ok(!call.messages.some(stepStarted(4)), `the call stopped when the guard was lost, before its second wait: ${JSON.stringify(call.messages)}`);
      await delay(500);
      assert.doesNotMatch(await text(document), /never/, 'nothing was typed after the loss');
      await human('type', 'mine');
      await eventually(async () => ((await text(document)).includes('mine') ? true : undefined), 5_000, "the person's typing after the loss");
    } finally {
      await shortLived.close();
    }
  });

  test('should release the tap when the server is killed with SIGKILL mid-call', { skip }, async () => {
    const { document, area } = await freshDocument('sigkill');
    const doomed = await McpSession.start();
    try {
      const call = doomed.start('click_and_traverse', { pid, ...target(area), steps: [{ action: 'wait', ms: 5000 }] }, stepStarted(2));
      call.result.catch(() => undefined);
      const running = pending(call);
      await call.engaged;
      await human('type', 'held');
      await delay(300);
      assert.ok(running(), 'the keys were typed while the call ran');
      assert.doesNotMatch(await text(document), /held/, 'the guard was up: the keys typed before the kill were held back');
      process.kill(doomed.pid, 'SIGKILL');
      await human('type', 'free');
      await eventually(async () => ((await text(document)).includes('free') ? true : undefined), 5_000, "the person's typing after the server died");
      assert.doesNotMatch(await text(document), /held/, 'held keys were swallowed, not queued for later');
    } finally {
      await doomed.close();
    }
  });
});
