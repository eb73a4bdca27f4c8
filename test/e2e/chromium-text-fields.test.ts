// Chromium's form fields through the default tool profile, as an agent uses it: an <input> offers
// no EditableText, so replace: true (type_text, both modes) and set_value replace its text with
// the select-all key and typing, and the field then holds exactly the new text; a <select>'s value
// is the chosen option's name, never the U+FFFC its text holds. The oracle: the page's own tree
// and what the browser sends the test's server.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { chromiumEntry, startFormServer, type FormServer } from '../../scripts/lib/appHarness.js';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { McpSession, eventually, parseTreeLines, type ToolResult, type TreeLine } from '../support/e2eHarness.js';

describe('Chromium text fields and select through the default tools', { timeout: 240_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let web: FormServer;
  let pid: number;

  const fileOf = (result: ToolResult): string => readFileSync(result.structured.file as string, 'utf8');
  const tree = async (): Promise<TreeLine[]> => parseTreeLines(fileOf(await server.callOk('get_window_state', { pid })));
  const find = async (role: string, name: string): Promise<TreeLine> => {
    const line = (await tree()).find((entry) => entry.role === role && entry.text === name);
    assert.ok(line, `[${role}] "${name}" in the tree`);
    return line;
  };
  const typedBy = (result: ToolResult): Array<Record<string, unknown>> => result.structured.typed_by as Array<Record<string, unknown>>;

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    web = await startFormServer();
    // No --tools: the default profile, as a client sees it.
    server = await McpSession.start(desktop, { args: [] });
    const launched = await server.callOk('launch_app', { id: chromiumEntry(desktop, `${web.origin}/form`) });
    pid = launched.structured.pid as number;
    await eventually(async () => ((await tree()).some((line) => line.role === 'PushButton' && line.text === 'Book courier') ? true : undefined), 20_000, 'the form in the tree');
  });

  after(async () => {
    await server?.close();
    await web?.close();
    await desktop?.stop();
  });

  test('should replace all a text input holds with type_text replace: true, inserting or typing keys', async () => {
    const name = await find('Entry', 'Recipient name');
    await server.callOk('type_text', { pid, element_index: name.index!, text: 'Jane Placeholder' });
    assert.equal((await find('Entry', 'Recipient name')).value, 'Jane Placeholder', 'the field holds text to replace');

    const replaced = await server.callOk('type_text', { pid, element_index: name.index!, text: 'Ada Lovelace', replace: true });
    assert.match(fileOf(replaced), /^~ #\d+ \[Entry\] "Recipient name" \| value: 'Jane Placeholder' -> 'Ada Lovelace'$/m, fileOf(replaced));
    assert.equal((await find('Entry', 'Recipient name')).value, 'Ada Lovelace', 'exactly the new text, nothing of the old');
    assert.deepEqual(
      [typedBy(replaced)[0].method, typedBy(replaced)[0].replaced, typedBy(replaced)[0].selected_all, typedBy(replaced)[0].kept_other_text, typedBy(replaced)[0].text_missing],
      ['keys', true, 'control+a', undefined, undefined],
      replaced.text,
    );

    const keys = await server.callOk('type_text', { pid, element_index: name.index!, text: 'Grace Hopper', replace: true, mode: 'keys' });
    assert.equal((await find('Entry', 'Recipient name')).value, 'Grace Hopper', keys.text);
    assert.equal(typedBy(keys)[0].selected_all, 'control+a', keys.text);
  });

  test('should set a text input that takes no value through accessibility with set_value, as a replacement', async () => {
    const note = await find('Entry', 'Courier note');
    await server.callOk('type_text', { pid, element_index: note.index!, text: 'Leave at the door' });
    const set = await server.callOk('set_value', { pid, element_index: note.index!, value: 'Ring twice' });
    assert.match(fileOf(set), /^~ #\d+ \[Entry\] "Courier note" \| value: 'Leave at the door' -> 'Ring twice'$/m, fileOf(set));
    assert.equal((await find('Entry', 'Courier note')).value, 'Ring twice');
    assert.equal(typedBy(set)[0].selected_all, 'control+a', set.text);
  });

  test("should give the select's chosen option as its value, in the diff and the tree", async () => {
    const speed = await find('ComboBox', 'Speed');
    assert.equal(speed.value, 'Standard', 'the first option, before anything is chosen');
    await server.callOk('click', { pid, element_index: speed.index! });
    const express = await eventually(async () => (await tree()).find((line) => line.role === 'MenuItem' && line.text === 'Express' && / visible/.test(line.line)), 5_000, 'the open list');
    const pick = await server.callOk('click', { pid, element_index: express.index! });
    assert.match(pick.text, /ComboBox "Speed" value: 'Standard' -> 'Express'/, pick.text);
    assert.equal((await find('ComboBox', 'Speed')).value, 'Express');
  });

  test('should say the open list closed when the app the person had in front came back, and the tree then shows it closed', async () => {
    // The person works in another app; the agent opens the select. Putting that app back in
    // front takes Chromium's focus, which closes its list: the answer must not leave the options
    // looking open (agent-seat audit: the next click on one answered stale-element).
    const editor = desktop.spawnApp('mousepad', []);
    await eventually(async () => {
      const front = (await server.callOk('list_windows', {})).structured.windows as Array<{ pid: number; z?: number }>;
      return front[0]?.pid === editor.pid ? true : undefined;
    }, 20_000, 'mousepad in front');
    const speed = await find('ComboBox', 'Speed');
    const opened = await server.callOk('click', { pid, element_index: speed.index! });
    assert.match(opened.text, /^restore: .*previous app brought back to the front, which closes the menu or list this call opened/m, opened.text);
    assert.equal((opened.structured.restore as { menu_closed?: boolean }).menu_closed, true);
    const after = await tree();
    assert.ok(!after.some((line) => line.role === 'MenuItem' && / visible/.test(line.line)), 'no option of the list is visible once the front went back');
    editor.kill();
  });
  test('should send exactly the replaced texts and the choice with the form', async () => {
    await server.callOk('click', { pid, element_index: (await find('PushButton', 'Book courier')).index! });
    const submission = await web.waitForSubmission((entry) => entry.path === '/submit');
    assert.deepEqual(submission.fields, { name: 'Grace Hopper', note: 'Ring twice', speed: 'Express' });
  });

});
