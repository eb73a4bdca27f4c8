// What a field holds, apart from what it is called — on a real GTK 3 app through a real MCP
// client. The fixture has fields labelled the way most apps label them (a Gtk.Label tied to the
// entry, no accessible name of its own): "Memo" and a password field "Passphrase"; and one
// named by hand ("Name entry"). Its stdout is the oracle of what it received.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { SECURE_FILL } from '../../src/core/artifacts/crosshair.js';
import type { VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, parseTreeLines, startDesktopSession, stopDesktopSession } from '../support/e2eHarness.js';

describe('MCP: names and values of fields', { timeout: 120_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;

  before(async () => ({ desktop, server, fixture } = await startDesktopSession()));
  after(() => stopDesktopSession({ desktop, server }));

  const treeLines = async (): Promise<ReturnType<typeof parseTreeLines>> =>
    parseTreeLines(readFileSync((await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string, 'utf8'));

  test('should show a labelled field by its label, and what it holds as its value', async () => {
    const lines = await treeLines();
    const memo = lines.find((line) => line.role === 'Text' && line.text === 'Memo');
    assert.ok(memo, `the entry is named after its label:\n${lines.map((line) => line.line).join('\n')}`);
    assert.equal(memo.value, '', 'an empty field shows an empty value');
    assert.ok(lines.some((line) => line.role === 'Label' && line.text === 'Memo'), 'the label itself is there too');
  });

  test('should type into the field by its label (not into the label beside it) and report old and new value', async () => {
    const result = await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Memo', text: 'hello world' });
    await fixture.waitForEvent((event) => event.event === 'memo' && event.text === 'hello world');
    const diff = readFileSync(result.structured.file as string, 'utf8');
    assert.match(diff, /^~ #\d+ \[Text\] "Memo" \| value: '' -> 'hello world'$/m, diff);
    assert.match(result.fields.summary, /1 value change/);
    assert.deepEqual(result.structured.text_changes, [{ role: 'Text', field: 'value', name: 'Memo', before: '', after: 'hello world' }]);
    const memo = (await treeLines()).find((line) => line.role === 'Text' && line.text === 'Memo');
    assert.equal(memo?.value, 'hello world');
    assert.match(memo?.line ?? '', /^#\d+ \[Text\] "Memo" value:"hello world" x:/);
    // The answer says which of the two "Memo" elements it used, and why.
    assert.match(result.text, /^chosen: step 1 used #\d+ \[Text\] "Memo", not #\d+ \[Label\] "Memo": text is typed next and it takes typing, the other does not \(two elements matched; send role "Label" to use the other\)$/m, result.text);
    const [choice] = result.structured.choices as Array<{ step: number; role: string; reason: string; over: { role: string } }>;
    assert.deepEqual([choice.step, choice.role, choice.reason, choice.over.role], [1, 'Text', 'editable', 'Label']);
  });

  test('should click the field, not its label, when the click comes alone and the typing in another call', async () => {
    const click = await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Memo' });
    assert.match(click.text, /^chosen: step 1 used #\d+ \[Text\] "Memo", not #\d+ \[Label\] "Memo": it can be clicked or typed into, the other is static text/m, click.text);
    const typed = await server.callOk('type_and_traverse', { pid: fixture.pid, text: ' again' });
    await fixture.waitForEvent((event) => event.event === 'memo' && event.text === 'hello world again');
    assert.match(readFileSync(typed.structured.file as string, 'utf8'), /^~ #\d+ \[Text\] "Memo" \| value: 'hello world' -> 'hello world again'$/m);
    await server.callOk('set_value_and_traverse', { pid: fixture.pid, element: 'Memo', value: 'hello world' });
    await fixture.waitForEvent((event) => event.event === 'memo' && event.text === 'hello world' && Number(event.t) >= Date.now() - 10_000);
  });

  test('should find a field by what it holds', async () => {
    const result = await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'hello world', role: 'text', text: '!' });
    await fixture.waitForEvent((event) => event.event === 'memo' && event.text === 'hello world!');
    assert.match(readFileSync(result.structured.file as string, 'utf8'), /value: 'hello world' -> 'hello world!'/);
  });

  test('should still show the value of a field named by hand (accessible name only)', async () => {
    await server.callOk('click_and_traverse', { pid: fixture.pid, element: 'Name entry', text: 'Ada' });
    await fixture.waitForEvent((event) => event.event === 'name' && event.text === 'Ada');
    assert.equal((await treeLines()).find((line) => line.text === 'Name entry')?.value, 'Ada');
  });

  test('should click and type into a password field by its label, and write its value — or its length — nowhere', async () => {
    const secret = 'Tr0ub4dor-Passphrase-9';
    const lines = await treeLines();
    const field = lines.find((line) => line.role === 'PasswordText' && line.text === 'Passphrase');
    assert.ok(field, 'the password field keeps its name');
    assert.equal(field.value, undefined, 'and shows no value');
    const notices: string[] = [];
    const raw = await server.client.callTool(
      { name: 'click_and_traverse', arguments: { pid: fixture.pid, element: 'Passphrase', role: 'password', text: secret, pressKey: 'tab' } },
      undefined,
      { onprogress: (notice) => notices.push(notice.message ?? '') },
    );
    assert.equal(raw.isError, undefined, JSON.stringify(raw.content));
    const received = await fixture.waitForEvent((event) => event.event === 'passphrase' && event.length === secret.length);
    assert.equal(received.length, secret.length, 'the app received the whole secret');

    const length = String(secret.length);
    const answer = JSON.stringify(raw);
    assert.ok(!answer.includes(secret), 'the secret is not in the answer');
    assert.ok(!new RegExp(`\\b${length} (chars|characters)\\b`).test(answer), `its length is not in the answer: ${answer.slice(0, 400)}`);
    assert.ok(!JSON.stringify(notices).includes(secret) && !notices.some((notice) => new RegExp(`\\b${length}\\b`).test(notice)), notices.join('\n'));
    const structured = raw.structuredContent as { file: string; screenshot: string };
    const folder = dirname(structured.file);
    for (const name of readdirSync(folder)) {
      const content = readFileSync(join(folder, name));
      assert.equal(content.includes(secret), false, `the secret is in ${name}`);
    }
    const diff = readFileSync(structured.file, 'utf8');
    assert.ok(!/PasswordText.*value/.test(diff), `no value line for the password field:\n${diff}`);
    // Nor its length, in any file, the answer or the log, however it might be phrased.
    const asLength = new RegExp(`\\b${length} ?(chars?|characters|keys?|input events?)\\b|length"?:\\s*${length}\\b`);
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.txt'))) {
      assert.doesNotMatch(readFileSync(join(folder, name), 'utf8'), asLength, name);
    }
    assert.doesNotMatch(answer, asLength);
    assert.doesNotMatch(server.stderr, asLength);
    // The screenshot shows the window with the password field painted over (its dots would count
    // the secret): a grey block the field's size, where the field is relative to the others.
    const shot = await sharp(structured.screenshot).raw().toBuffer({ resolveWithObject: true });
    const { width, height, channels } = shot.info;
    const grey = (x: number, y: number): boolean => {
      const at = (y * width + x) * channels;
      return shot.data[at] === SECURE_FILL && shot.data[at + 1] === SECURE_FILL && shot.data[at + 2] === SECURE_FILL;
    };
    const rows: number[] = [];
    const columns: number[] = [];
    for (let y = 0; y < height; y++) {
      let count = 0;
      for (let x = 0; x < width; x++) if (grey(x, y)) count++;
      if (count > field.width / 2) rows.push(y);
    }
    for (let x = 0; x < width; x++) {
      let count = 0;
      for (let y = 0; y < height; y++) if (grey(x, y)) count++;
      if (count > field.height / 2) columns.push(x);
    }
    assert.ok(rows.length && columns.length, 'a grey block is in the screenshot');
    // Both password fields of the window are painted over: the grey spans exactly the two.
    const secure = lines.filter((line) => line.role === 'PasswordText' && line.line.includes(' visible'));
    const union = {
      x: Math.min(...secure.map((line) => line.x)),
      y: Math.min(...secure.map((line) => line.y)),
      right: Math.max(...secure.map((line) => line.x + line.width)),
      bottom: Math.max(...secure.map((line) => line.y + line.height)),
    };
    const block = { x: columns[0], y: rows[0], right: columns.at(-1)! + 1, bottom: rows.at(-1)! + 1 };
    assert.deepEqual([block.right - block.x, block.bottom - block.y], [union.right - union.x, union.bottom - union.y], `grey ${JSON.stringify(block)}, password fields ${secure.map((line) => line.line).join(' | ')}`);
    const shift = { x: block.x - union.x, y: block.y - union.y };
    const greyShare = (box: { x: number; y: number; width: number; height: number }): number => {
      let count = 0;
      let all = 0;
      for (let y = box.y; y < box.y + box.height; y++) {
        for (let x = box.x; x < box.x + box.width; x++) {
          all++;
          if (grey(x + shift.x, y + shift.y)) count++;
        }
      }
      return count / all;
    };
    assert.ok(greyShare(field) > 0.9, `the Passphrase field is painted over (${greyShare(field)}; the click's crosshair is drawn on top)`);
    const memo = lines.find((line) => line.role === 'Text' && line.text === 'Memo')!;
    const memoGrey = greyShare(memo);
    assert.equal(memoGrey, 0, 'the Memo field beside it is left as it is');
    assert.ok(!server.stderr.includes(secret), "the secret is in the server's log");
    assert.ok(!new RegExp(`typing ${length} characters`).test(server.stderr), "its length is in the server's log");
  });
});
