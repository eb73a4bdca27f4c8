// Answers taken once the app has settled, through a real MCP client: a label the app sets
// 400 ms after the click is in the click's diff and in its screenshot, a label that changes
// every 50 ms makes the answer say `settled: no` (with settle_quiet_ms at 200 ms, so that a
// loaded machine's pauses between the app's changes do not count as settling), and mousepad's
// Save As has written its file and closed its dialog by the time the answer arrives. The oracles are the app's own: the fixture's stdout, the file on
// disk, the colour the fixture paints its result with.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, type ToolResult } from '../support/e2eHarness.js';

/** The fixture's LATE_COLOUR (#00c000): only its late result is painted with it. */
const LATE_COLOUR = [0, 0xc0, 0];

/** Pixels of the PNG within a few levels of `colour` in every channel. */
async function pixelsOf(png: string, colour: number[]): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let offset = 0; offset + 2 < data.length; offset += info.channels) {
    if (colour.every((level, channel) => Math.abs(data[offset + channel] - level) <= 8)) count++;
  }
  return count;
}

const diffOf = (result: ToolResult): string => readFileSync(result.structured.file as string, 'utf8');

describe('answers taken once the app has settled', { timeout: 180_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  /** A server for which only 200 ms of quiet count as settled (settle_quiet_ms). */
  let watchful: McpSession;
  let fixture: FixtureApp;

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
    watchful = await McpSession.start(desktop, { env: { TANDEM_SETTLE_QUIET_MS: '200' } });
    fixture = await FixtureApp.start(desktop, ['--settle']);
  });
  after(async () => {
    await fixture?.stop();
    await watchful?.close();
    await server?.close();
    await desktop?.stop();
  });

  test('should show a label the app sets 400 ms after the click in the diff and the screenshot', async () => {
    const before = await server.callOk('refresh_traversal', { pid: fixture.pid });
    assert.match(readFileSync(before.structured.file as string, 'utf8'), /^#\d+ \[Label\] "Result: waiting"/m);
    assert.equal(await pixelsOf(before.structured.screenshot as string, LATE_COLOUR), 0, 'nothing is painted with the result colour before the click');

    const result = await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Show result later', role: 'button' });
    const answeredAt = Date.now();
    const shown = fixture.eventsNamed('late-label')[0];
    assert.ok(shown, `the app had set its label when the answer arrived: ${JSON.stringify(fixture.events.slice(-5))}`);
    assert.ok(Number(shown.t) <= answeredAt, 'the label was set before the answer');
    assert.ok(
      (result.structured.text_changes as Array<{ before: string; after: string }>).some((change) => change.before === 'Result: waiting' && change.after === 'Result: ready'),
      `the diff has the late label: ${result.text}`,
    );
    assert.equal(result.fields.settled, undefined, 'the app settled within the bound');
    const painted = await pixelsOf(result.structured.screenshot as string, LATE_COLOUR);
    assert.ok(painted > 500, `the screenshot shows the result painted (${painted} px of its colour)`);
  });

  test('should say settled: no when the app keeps changing past the bound, and nothing when it stops', async () => {
    const changing = await watchful.callOk('click_and_traverse', { pid: fixture.pid, element: 'Keep changing', role: 'button' });
    assert.ok(fixture.eventsNamed('ticking-started').length > 0, 'the app started changing');
    assert.match(changing.fields.settled ?? '', /^no\b/, changing.text);
    assert.equal(changing.structured.settled, false);

    const stopped = await watchful.callOk('click_and_traverse', { pid: fixture.pid, element: 'Stop changing', role: 'button' });
    assert.ok(fixture.eventsNamed('ticking-stopped').length > 0, 'the app stopped changing');
    assert.equal(stopped.fields.settled, undefined, stopped.text);
    assert.equal(stopped.structured.settled, undefined);
  });

  test('should say that nothing changed only within the wait, and to read the app again, when a click shows no effect', async () => {
    // The ticking is stopped already: this click reaches the app (it says so) and changes nothing it shows.
    const stoppedBefore = fixture.eventsNamed('ticking-stopped').length;
    const idle = await watchful.callOk('click_and_traverse', { pid: fixture.pid, element: 'Stop changing', role: 'button' });
    assert.ok(fixture.eventsNamed('ticking-stopped').length > stoppedBefore, 'the click reached the app');
    assert.equal(idle.structured.summary, 'no changes', idle.text);
    assert.match(idle.text, /^no_effect: nothing changed in the \d+ ms this answer watched after the action; a busy app may still show its effect: refresh_traversal before repeating the action$/m);
    assert.equal(typeof idle.structured.no_effect_within_ms, 'number');
  });

  test("should answer mousepad's Save As once the dialog is gone and the file is written", async () => {
    const saved = join(desktop.root, 'settled-note.txt');
    const typedText = 'written before the answer';
    const pid = (await server.callOk('open_application_and_traverse', { identifier: 'mousepad' })).structured.pid as number;
    try {
      await server.callOk('type_and_traverse', { pid, text: typedText });
      const dialog = await server.callOk('press_key_and_traverse', { pid, keyName: 's', modifierFlags: ['ctrl'] });
      assert.match(diffOf(dialog), /^\+ #\d+ \[\w+\] "Save As"/m, `the dialog is in the diff:\n${diffOf(dialog)}`);
      assert.equal(dialog.structured.app_switch, undefined, 'a dialog of the same app is no app switch');

      // The name typed, then the dialog's Save button clicked: Return would first close the
      // completion popup GTK shows for a typed path.
      await server.callOk('press_key_and_traverse', { pid, keyName: 'a', modifierFlags: ['ctrl'], steps: [{ action: 'type', text: saved }] });
      const save = await server.callOk('click_and_traverse', { pid, element: 'Save', role: 'button' });
      const existedAtAnswer = existsSync(saved);
      assert.ok(existedAtAnswer, `the file exists when the answer arrives:\n${save.text}`);
      assert.equal(readFileSync(saved, 'utf8').replace(/\n$/, ''), typedText, 'mousepad wrote what was typed');
      assert.match(diffOf(save), /^- \[\w+\] "Save As"/m, `the dialog's closing is in the diff:\n${diffOf(save)}`);
      assert.notEqual(save.structured.summary, 'no changes');
    } finally {
      process.kill(pid, 'SIGTERM');
    }
  });
});
