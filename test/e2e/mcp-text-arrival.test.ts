// An answer never reads as if typed text had arrived when the field does not show it: a real GTK
// entry that takes at most four characters is sent six, as paced keys and by insertion; the
// answer says the field does not show the text sent, and the app's own log agrees with the
// field. Text that does arrive is answered without that warning.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, eventually, findElement } from '../support/e2eHarness.js';

describe('MCP: typed text the field does not show', { timeout: 120_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let form: FixtureApp;
  let code: number;

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
    form = await FixtureApp.start(desktop, ['--form']);
    code = findElement((await server.callOk('get_window_state', { pid: form.pid })).structured.file as string, 'Code').index!;
  });

  after(async () => {
    await server?.close();
    await desktop?.stop();
  });

  const codeInApp = (): unknown => form.eventsNamed('code').at(-1)?.text;

  for (const mode of ['keys', 'insert'] as const) {
    test(`should say the field does not show the text sent when it took only part of it (${mode})`, async () => {
      const answer = await server.callOk('type_text', { pid: form.pid, element_index: code, text: '123456', mode, replace: true });
      const entry = (answer.structured.typed_by as Array<{ text_missing?: boolean }>)[0];
      assert.equal(entry.text_missing, true, answer.text);
      assert.match(answer.text, /^typed_by: .*"Code".*but the field does not show the text sent/m);
      await eventually(() => (codeInApp() === '1234' ? true : undefined), 5_000, 'the app to hold its four characters');
    });
  }

  test('should say when keys typed after a click do not show in the field the click focused', async () => {
    await server.callOk('set_value', { pid: form.pid, element_index: code, value: '' });
    const answer = await server.callOk('click_and_traverse', { pid: form.pid, element_index: code, text: '987654' });
    assert.deepEqual((answer.structured.text_missing as Array<{ element_index: number }>).map((typed) => typed.element_index), [code], answer.text);
    assert.match(answer.text, /^text_missing: step 2's keys do not show in #\d+ \[Text\] "Code"/m);
    await eventually(() => (codeInApp() === '9876' ? true : undefined), 5_000, 'the app to hold its four characters');
  });

  test('should not warn when the text is in the field', async () => {
    const answer = await server.callOk('type_text', { pid: form.pid, element_index: code, text: '42', replace: true });
    assert.equal((answer.structured.typed_by as Array<{ text_missing?: boolean }>)[0].text_missing, undefined, answer.text);
    assert.doesNotMatch(answer.text, /does not show the text sent/);
    const clicked = await server.callOk('click_and_traverse', { pid: form.pid, element_index: code, text: '7' });
    assert.equal(clicked.structured.text_missing, undefined, clicked.text);
    await eventually(() => (codeInApp() === '427' ? true : undefined), 5_000, 'the app to hold "427"');
  });
});
