// Revisions, for real: a simulated person types on the X server's real devices into the GTK
// fixture between two agent calls. The next acting call lists their edit as outside_changes (not
// in its own diff); a call naming the revision from before the edit (if_revision) is refused
// with `changed` and presses nothing; with the current revision it acts. And when the person
// presses Esc during a call, the next answer says so once. And while another app is in front, the
// calls' own raising of the fixture and putting that app back are in neither the diff nor outside_changes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, centre, delay, findElement } from '../support/e2eHarness.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';
import { DEFAULT_GRACE_MS } from '../../src/core/engine.js';

describe('MCP revisions with a person at the keyboard', { timeout: 180_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;
  let human: SimulatedHuman;
  let counter: { x: number; y: number };
  let memo: { x: number; y: number };
  let nameEntry: { x: number; y: number };

  const counts = (): number => fixture.eventsNamed('count').length;

  /** The person clicks into a field and types, once the last call's guard has let go. */
  async function personTypes(at: { x: number; y: number }, text: string, event: string): Promise<void> {
    await delay(DEFAULT_GRACE_MS + 200);
    await human.click(at.x, at.y);
    // The click gives the field the keyboard focus; the keys follow once GTK has taken it in.
    await delay(300);
    await human.typeText(text);
    await fixture.waitForEvent((e) => e.event === event && String(e.text).endsWith(text), 15_000);
  }

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
    fixture = await FixtureApp.start(desktop);
    human = await SimulatedHuman.connect(desktop.display);
    const tree = (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
    counter = centre(findElement(tree, 'Count: 0', 'button'));
    memo = centre(findElement(tree, 'Memo', 'text'));
    nameEntry = centre(findElement(tree, 'Name entry', 'text'));
  });

  after(async () => {
    await human?.close();
    await server?.close();
    await desktop?.stop();
  });

  test("should list the person's edit as outside_changes, refuse a stale if_revision with changed, and act on the current one", async () => {
    const read = await server.callOk('refresh_traversal', { pid: fixture.pid });
    const readRevision = Number(read.structured.revision);
    assert.ok(readRevision >= 1, read.text);
    assert.equal(read.fields.revision, String(readRevision));
    // Where the fields are now (the window manager may have placed the window since the first read).
    memo = centre(findElement(read.structured.file as string, 'Memo', 'text'));
    nameEntry = centre(findElement(read.structured.file as string, 'Name entry', 'text'));
    counter = centre(findElement(read.structured.file as string, 'Count: 0', 'button'));

    await personTypes(memo, 'person', 'memo');
    const acted = await server.callOk('click_and_traverse', { pid: fixture.pid, x: counter.x, y: counter.y });
    await fixture.waitForEvent((e) => e.event === 'count');
    const outside = acted.structured.outside_changes as { lines: string[]; count: number };
    assert.ok(outside, acted.text);
    assert.ok(outside.lines.some((line) => /\[Text\] "Memo" \| value: '' -> 'person'/.test(line)), outside.lines.join('\n'));
    assert.match(acted.text, /^outside_changes: \d+ changes? since your last read/m);
    const ownDiff = readFileSync(acted.structured.file as string, 'utf8');
    assert.match(ownDiff, /Count: 1/, "the call's own click is in its diff");
    assert.doesNotMatch(ownDiff, /person/, "the person's edit is not taken for the call's own");
    const actedRevision = Number(acted.structured.revision);
    assert.ok(actedRevision > readRevision, `the revision grew: ${readRevision} -> ${actedRevision}`);

    await personTypes(nameEntry, 'p2', 'name');
    const countsBefore = counts();
    const refused = await server.call('click_and_traverse', { pid: fixture.pid, x: counter.x, y: counter.y, if_revision: actedRevision });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, new RegExp(`^error: changed: .* changed since revision ${actedRevision}: `, 'm'));
    assert.match(refused.text, /^ {2}~ #\d+ \[Text\] "Name entry" \| value: '' -> 'p2'$/m);
    const current = Number(/^revision: (\d+)$/m.exec(refused.text)?.[1]);
    assert.ok(current > actedRevision, refused.text);
    await delay(500);
    assert.equal(counts(), countsBefore, 'nothing was pressed (the fixture counted no click)');
    const check = await server.callOk('refresh_traversal', { pid: fixture.pid });
    findElement(check.structured.file as string, `Count: ${countsBefore}`, 'button');
    assert.equal(Number(check.structured.revision), current, 'a separate read: the app is as the refusal left it');

    const retried = await server.callOk('click_and_traverse', { pid: fixture.pid, x: counter.x, y: counter.y, if_revision: current });
    await fixture.waitForEvent(() => counts() === countsBefore + 1, 10_000);
    assert.equal(retried.structured.outside_changes, undefined, retried.text);
  });

  test('should say in the next answer, once, that the person pressed Esc during a call', async () => {
    await delay(DEFAULT_GRACE_MS + 200);
    const call = server.call('click_and_traverse', { pid: fixture.pid, x: memo.x, y: memo.y, text: 'x', steps: [{ action: 'wait', ms: 4000 }, { action: 'type', text: 'never' }] });
    await fixture.waitForEvent((e) => e.event === 'memo' && String(e.text).endsWith('x'), 15_000);
    await human.pressKey('escape');
    const cancelled = await call;
    assert.equal(cancelled.structured.status, 'cancelled', cancelled.text);
    assert.doesNotMatch(cancelled.text, /^person:/m);

    const next = await server.callOk('refresh_traversal', { pid: fixture.pid });
    assert.match(next.text, /^person: pressed Esc during click_and_traverse \(call \d+\)/m);
    assert.equal((next.structured.person as { escape_pressed: boolean }).escape_pressed, true);
    const after = await server.callOk('refresh_traversal', { pid: fixture.pid });
    assert.doesNotMatch(after.text, /^person:/m, 'said once');
    assert.equal(after.structured.person, undefined);
  });

  test('should say in the next answer, once, that the person was held back during a call', async () => {
    await delay(DEFAULT_GRACE_MS + 200);
    const call = server.call('click_and_traverse', { pid: fixture.pid, x: memo.x, y: memo.y, text: 'y', steps: [{ action: 'wait', ms: 1500 }] });
    await fixture.waitForEvent((e) => e.event === 'memo' && String(e.text).endsWith('y'), 15_000);
    // The person types while the call holds their keyboard: the guard swallows the keys.
    await human.typeText('abc');
    const held = await call;
    assert.equal(held.structured.status, 'ok', held.text);
    const blocked = Number(held.structured.human_input_blocked);
    assert.ok(blocked > 0, `the call itself counts the held-back input: ${held.text}`);

    const next = await server.callOk('refresh_traversal', { pid: fixture.pid });
    assert.match(next.text, /^person: was held back (once|\d+ times) during click_and_traverse \(call \d+\)/m, next.text);
    assert.equal((next.structured.person as { held_back: number }).held_back, blocked);
    const after = await server.callOk('refresh_traversal', { pid: fixture.pid });
    assert.equal(after.structured.person, undefined, 'said once');
  });

  test("should not count Tandem's own raising of the app and putting the other app back as changes", async () => {
    // Another app's window in front, over the fixture's: each call raises the fixture and then
    // puts the other app back on top. Neither is the call's doing nor the person's.
    const other = await FixtureApp.start(desktop);
    try {
      await server.callOk('bring_to_front', { pid: other.pid });
      await server.callOk('refresh_traversal', { pid: fixture.pid });
      for (const key of ['end', 'home']) {
        await delay(DEFAULT_GRACE_MS + 200);
        const pressed = await server.callOk('press_key', { pid: fixture.pid, key });
        await fixture.waitForEvent((e) => e.event === 'key' && String(e.key).toLowerCase() === key, 10_000);
        assert.match(pressed.text, /^restore: .*previous app brought back to the front/m, pressed.text);
        assert.equal(pressed.structured.outside_changes, undefined, pressed.text);
        assert.doesNotMatch(readFileSync(pressed.structured.file as string, 'utf8'), /^\+ /m, "nothing came into sight by the key: the raise is not in the call's diff");
      }
    } finally {
      await other.stop();
    }
  });
});
