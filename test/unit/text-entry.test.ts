// type_text's policy in core (insert where the field takes it, keys otherwise or when asked, the
// way used kept as a fact), press_key's repeat with a cancel between presses, and one window's
// part of a tree — over the scripted desktop and hand-built trees.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { LIMITS } from '../../src/core/limits.js';
import type { PressStep, Step, TypeTextStep } from '../../src/core/call/steps.js';
import { frameMatch, windowSubtree } from '../../src/core/tree/windowChoice.js';
import { TandemError, isTandemError } from '../../src/core/errors.js';
import { ScriptedDesktop } from '../support/scriptedDesktop.js';
import { FINDER, START_CURSOR, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { rect, snapshotOf, tree } from '../support/treeFactory.js';
import { stepsText } from '../support/modelText.js';

const EDITOR = 200;

function editorDesktop(): ScriptedDesktop {
  return new ScriptedDesktop({
    apps: [
      { pid: FINDER, name: 'Finder', tree: { role: 'Application', text: 'Finder', children: [{ role: 'Window', text: 'Desktop', bounds: rect(0, 0, 1280, 800) }] } },
      {
        pid: EDITOR,
        name: 'Editor',
        tree: {
          role: 'Application',
          text: 'Editor',
          children: [
            {
              role: 'Window',
              text: 'Editor',
              bounds: rect(0, 0, 600, 400),
              children: [
                { role: 'Text', text: 'Memo', singleLine: true, bounds: rect(10, 10, 200, 30) },
                { role: 'Text', text: 'Body', focused: true, bounds: rect(10, 50, 400, 200) },
                { role: 'Terminal', text: 'Shell', editable: true, insertable: false, bounds: rect(10, 260, 400, 100) },
                { role: 'PasswordText', text: 'Passphrase', secure: true, bounds: rect(220, 10, 200, 30) },
                { role: 'Label', text: 'Status', editable: false, bounds: rect(430, 10, 100, 20) },
                { role: 'Text', text: 'Locked', enabled: false, bounds: rect(430, 40, 100, 30) },
              ],
            },
            { role: 'Window', text: 'Palette', bounds: rect(700, 0, 200, 300), children: [{ role: 'PushButton', text: 'Only here', bounds: rect(710, 10, 100, 30) }] },
          ],
        },
      },
    ],
    frontmostPid: FINDER,
    cursor: START_CURSOR,
  });
}

const typeTextStep = (text: string, mode: TypeTextStep['mode'] = 'auto', elementText?: string): TypeTextStep => ({
  kind: 'type-text',
  text,
  mode,
  ...(elementText ? { query: { text: elementText } } : {}),
});
const act = (...steps: Step[]) => ({ tool: 'type_text', pid: EDITOR, steps });
const inputs = (desktop: ScriptedDesktop): string[] => desktop.actions().filter((action) => /^(insert|type|click|key)/.test(action));

describe('type_text in core', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should insert into the field a query names, not type keys, and say so', async () => {
    fixture = await engineFixture(editorDesktop());
    const result = await fixture.engine.act(act(typeTextStep('hello', 'auto', 'Memo')));
    assert.equal(result.status, 'ok', result.error?.message);
    assert.deepEqual(inputs(fixture.desktop), ['insert "hello"']);
    assert.equal(fixture.desktop.find(EDITOR, 'Memo').value, 'hello');
    assert.deepEqual(result.textEntries, [{ step: 0, method: 'insertion', element: { index: 2, role: 'Text', name: 'Memo' } }]);
    assert.deepEqual(stepsText(result), ['inserted "hello" into [Text] "Memo"']);
  });

  it('should say when the field kept text it had besides the text sent (a file name typed over its selected stem)', async () => {
    const desktop = editorDesktop();
    desktop.find(EDITOR, 'Memo').value = 'probe.txt';
    fixture = await engineFixture(desktop);
    const result = await fixture.engine.act(act(typeTextStep('probe.txt', 'auto', 'Memo')));
    assert.equal(fixture.desktop.find(EDITOR, 'Memo').value, 'probe.txtprobe.txt');
    assert.equal(result.textEntries?.[0].keptOtherText, true);
    const fresh = await fixture.engine.act(act(typeTextStep('new', 'auto', 'Body')));
    assert.equal(fresh.textEntries?.[0].keptOtherText, undefined, 'an empty field holds only the text sent');
  });

  it('should say when the field does not show the text sent after the call (the keys went elsewhere), and not when it does', async () => {
    const desktop = editorDesktop();
    fixture = await engineFixture(desktop);
    // The app drops what is inserted into Memo: its value stays empty.
    Object.defineProperty(desktop.find(EDITOR, 'Memo'), 'value', { get: () => '', set: () => undefined });
    const dropped = await fixture.engine.act(act(typeTextStep('hello', 'auto', 'Memo')));
    assert.equal(dropped.textEntries?.[0].textMissing, true, JSON.stringify(dropped.textEntries));
    const arrived = await fixture.engine.act(act(typeTextStep('there', 'auto', 'Body')));
    assert.equal(arrived.textEntries?.[0].textMissing, undefined, 'the text is in the field');
  });

  it('should say when keys typed after a click into a field do not show in it, unless a later step may have emptied it', async () => {
    const desktop = editorDesktop();
    fixture = await engineFixture(desktop);
    Object.defineProperty(desktop.find(EDITOR, 'Memo'), 'value', { get: () => '', set: () => undefined });
    const click = { kind: 'click' as const, target: { query: { text: 'Memo' } }, button: 'left' as const, count: 1 as const, modifiers: [] };
    const lost = await fixture.engine.act(act(click, { kind: 'type', text: 'hello' }));
    assert.deepEqual(lost.keysNotShown?.map((typed) => [typed.step, typed.element.name]), [[1, 'Memo']]);
    const sent = await fixture.engine.act(act(click, { kind: 'type', text: 'hello' }, { kind: 'press', key: 'return', modifiers: [] }));
    assert.equal(sent.keysNotShown, undefined, 'Return may send and empty the field: nothing is judged');
  });

  it('should replace all the field holds when asked, as one edit, and say so', async () => {
    const desktop = editorDesktop();
    desktop.find(EDITOR, 'Memo').value = 'probe.txt';
    fixture = await engineFixture(desktop);
    const result = await fixture.engine.act(act({ ...typeTextStep('notes.txt', 'auto', 'Memo'), replace: true }));
    assert.equal(result.status, 'ok', result.error?.message);
    assert.deepEqual(inputs(fixture.desktop), []);
    assert.ok(fixture.desktop.actions().includes('set-value "notes.txt"'), fixture.desktop.actions().join('\n'));
    assert.equal(fixture.desktop.find(EDITOR, 'Memo').value, 'notes.txt');
    assert.deepEqual(result.textEntries, [{ step: 0, method: 'insertion', element: { index: 2, role: 'Text', name: 'Memo' }, replaced: true }]);
  });

  it('should empty the field before typing keys when replacing with keys', async () => {
    const desktop = editorDesktop();
    desktop.find(EDITOR, 'Body').value = 'old draft';
    fixture = await engineFixture(desktop);
    const result = await fixture.engine.act(act({ ...typeTextStep('clean', 'keys'), replace: true }));
    assert.equal(result.status, 'ok', result.error?.message);
    assert.equal(fixture.desktop.find(EDITOR, 'Body').value, 'clean');
    assert.equal(result.textEntries?.[0].replaced, true);
  });

  it('should insert into the focused field when no element is named', async () => {
    fixture = await engineFixture(editorDesktop());
    const result = await fixture.engine.act(act(typeTextStep('two\nlines')));
    assert.equal(result.status, 'ok', result.error?.message);
    assert.equal(fixture.desktop.find(EDITOR, 'Body').value, 'two\nlines', 'a many-line field takes line breaks');
    assert.equal(result.textEntries?.[0].method, 'insertion');
  });

  it('should fall back to keys where the field takes no insertion: clicked first, then typed', async () => {
    fixture = await engineFixture(editorDesktop());
    const result = await fixture.engine.act(act(typeTextStep('ls', 'auto', 'Shell')));
    assert.equal(result.status, 'ok', result.error?.message);
    assert.deepEqual(inputs(fixture.desktop), ['insert "ls"', 'click 210,310', 'type ls']);
    assert.deepEqual(result.textEntries, [{ step: 0, method: 'keys', reason: 'no-editable-text', element: { index: 4, role: 'Terminal', name: 'Shell' } }]);
  });

  it('should type keys into the focused field in mode keys, without a click', async () => {
    fixture = await engineFixture(editorDesktop());
    const result = await fixture.engine.act(act(typeTextStep('abc', 'keys')));
    assert.deepEqual(inputs(fixture.desktop), ['type abc']);
    assert.deepEqual(result.textEntries, [{ step: 0, method: 'keys', reason: 'mode', element: { index: 3, role: 'Text', name: 'Body' } }]);
  });

  it('should type keys where nothing can take an insertion: a static label, no focus at all', async () => {
    fixture = await engineFixture(editorDesktop());
    const label = await fixture.engine.act(act(typeTextStep('x', 'auto', 'Status')));
    assert.equal(label.textEntries?.[0].reason, 'not-editable');
    assert.deepEqual(inputs(fixture.desktop), ['click 480,20', 'type x'], 'no insertion was tried into the label');
    const disabled = await fixture.engine.act(act(typeTextStep('x', 'insert', 'Locked')));
    assert.equal(disabled.error?.details?.reason, 'not-editable');
    assert.equal(fixture.desktop.find(EDITOR, 'Locked').value, '', 'nothing was inserted into the disabled field');
  });

  it('should refuse in mode insert where insertion cannot be done, typing nothing', async () => {
    fixture = await engineFixture(editorDesktop());
    const result = await fixture.engine.act(act(typeTextStep('ls', 'insert', 'Shell')));
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'unsupported');
    assert.equal(result.error?.details?.reason, 'no-editable-text');
    assert.deepEqual(inputs(fixture.desktop), ['insert "ls"']);
    assert.equal(result.textEntries, undefined);
  });

  it('should refuse line breaks for a one-line field before inserting anything; mode keys types them', async () => {
    fixture = await engineFixture(editorDesktop());
    const refused = await fixture.engine.act(act(typeTextStep('a\nb', 'auto', 'Memo')));
    assert.equal(refused.error?.code, 'bad-input');
    assert.equal(refused.error?.details?.reason, 'line-breaks-in-single-line');
    assert.deepEqual(inputs(fixture.desktop), []);
    const keys = await fixture.engine.act(act(typeTextStep('a\nb', 'keys', 'Memo')));
    assert.equal(keys.status, 'ok');
    assert.deepEqual(inputs(fixture.desktop), ['click 110,25', 'type a\nb']);
  });

  it('should keep text inserted into a password field out of events, answers and files', async () => {
    fixture = await engineFixture(editorDesktop());
    const result = await fixture.engine.act(act(typeTextStep('hunter2-secret', 'auto', 'Passphrase')));
    assert.equal(result.status, 'ok');
    assert.equal(result.textEntries?.[0].method, 'insertion');
    const everywhere = JSON.stringify(fixture.events) + JSON.stringify(result) + (await fixture.artifactText());
    assert.ok(!everywhere.includes('hunter2'), 'the secret leaked');
    assert.ok(!/14 char/.test(everywhere), 'its length leaked');
    assert.deepEqual(stepsText(result), ['inserted [secure text] into [PasswordText] "Passphrase"']);
  });

  it('should refuse a bad mode and an empty text before the guard', async () => {
    fixture = await engineFixture(editorDesktop());
    await assert.rejects(fixture.engine.act(act({ ...typeTextStep('x'), mode: 'paste' as never })), (error) => isTandemError(error, 'bad-input') && /mode must be auto, insert or keys/.test(error.message));
    await assert.rejects(fixture.engine.act(act(typeTextStep(''))), (error) => isTandemError(error, 'bad-input'));
    assert.equal(fixture.desktop.guardEngagements, 0);
  });

  it('should type keys, once, where the app refuses insertion as one it would ignore (Gecko), and say why', async () => {
    const desktop = editorDesktop();
    desktop.behave('insertText', { fail: new TandemError('unsupported', 'never applied', { reason: 'insertion-ignored' }) });
    fixture = await engineFixture(desktop);
    const result = await fixture.engine.act(act(typeTextStep('hello', 'auto', 'Memo')));
    assert.equal(result.status, 'ok', result.error?.message);
    assert.equal(fixture.desktop.find(EDITOR, 'Memo').value, 'hello');
    assert.deepEqual(result.textEntries?.map((entry) => [entry.method, entry.reason]), [['keys', 'insertion-ignored']]);
    const insert = await fixture.engine.act(act(typeTextStep('x', 'insert', 'Memo')));
    assert.equal(insert.error?.reason, 'insertion-ignored', 'mode "insert" answers why, typing nothing');
  });

  it('should answer not-editable, not a mode to send, for type_text at the Application element (no field, no position)', async () => {
    fixture = await engineFixture(editorDesktop());
    await fixture.engine.refresh(EDITOR);
    const result = await fixture.engine.act(act({ kind: 'type-text', text: 'x', mode: 'auto', query: { index: 0 } }));
    assert.equal(result.error?.reason, 'not-editable', JSON.stringify(result.error));
    assert.deepEqual(inputs(fixture.desktop), []);
  });
});

describe('press_key repeats in core', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());
  const backspaces = (count: number): PressStep => ({ kind: 'press', key: 'backspace', modifiers: [], count });

  it('should press the key count times, each taken in before the next', async () => {
    fixture = await engineFixture(editorDesktop());
    const result = await fixture.engine.act(act(backspaces(5)));
    assert.equal(fixture.desktop.actions().filter((a) => a === 'key backspace').length, 5);
    assert.deepEqual(stepsText(result), ['pressed backspace ×5']);
  });

  it('should stop the presses left when Esc comes between two of them, and say how many went in', async () => {
    fixture = await engineFixture(editorDesktop());
    let presses = 0;
    fixture.desktop.when('key backspace', () => {
      if (++presses === 3) fixture.desktop.human.pressEscape();
    });
    const result = await fixture.engine.act(act(backspaces(10), { kind: 'press', key: 'return', modifiers: [] }));
    assert.equal(result.status, 'cancelled');
    assert.equal(fixture.desktop.actions().filter((a) => a.startsWith('key')).length, 3, 'no press after the Esc');
    assert.deepEqual(stepsText(result), ['pressed backspace 3 of 10 times, then stopped']);
  });

  it(`should refuse a count of 0 or more than ${LIMITS.keyRepeat} before the guard`, async () => {
    fixture = await engineFixture(editorDesktop());
    for (const count of [0, LIMITS.keyRepeat + 1, 2.5]) {
      await assert.rejects(fixture.engine.act(act(backspaces(count))), (error) => isTandemError(error, 'bad-input') && /count must be a whole number from 1 to 1000/.test(error.message));
    }
    assert.equal(fixture.desktop.guardEngagements, 0);
  });
});

describe('one window of an app', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it("should read only that window's elements, numbered from 0, and capture that window", async () => {
    fixture = await engineFixture(editorDesktop());
    const windows = await fixture.engine.listWindows(EDITOR);
    const palette = windows.find((w) => w.title === 'Palette')!;
    const result = await fixture.engine.refresh(EDITOR, {}, { windowId: palette.windowId });
    const text = await fixture.artifactText();
    assert.match(text, /^#0 \[Window\] "Palette"/m);
    assert.match(text, /\[PushButton\] "Only here"/);
    assert.doesNotMatch(text, /Memo|Passphrase/);
    assert.equal(result.elementCount, 2);
    assert.ok(fixture.desktop.calls.includes(`screenshot window ${palette.windowId}`), fixture.desktop.calls.join('\n'));
  });

  it("should refuse a window the pid does not have, listing the pid's windows", async () => {
    fixture = await engineFixture(editorDesktop());
    await assert.rejects(fixture.engine.refresh(EDITOR, {}, { windowId: 4242 }), (error) => {
      assert.ok(isTandemError(error, 'not-found'));
      assert.deepEqual((error.details?.windows as Array<{ title: string }>).map((w) => w.title).sort(), ['Editor', 'Palette']);
      return true;
    });
  });

  it('should tell frames apart by title, and by place when two share a title', () => {
    const elements = tree({
      role: 'Application',
      text: 'Mousepad',
      children: [
        { role: 'Frame', text: 'Untitled', bounds: rect(0, 0, 400, 300), children: [{ role: 'Text', text: 'left doc' }] },
        { role: 'Frame', text: 'Untitled', bounds: rect(500, 0, 400, 300), children: [{ role: 'Text', text: 'right doc' }, { role: 'PushButton', text: 'OK' }] },
        { role: 'Dialog', text: 'Save As', bounds: rect(100, 100, 300, 200) },
      ],
    });
    const window = (title: string, x: number) => ({ windowId: 7, pid: 1, title, bounds: rect(x + 1, 20, 398, 279) });
    const right = windowSubtree(snapshotOf(elements), window('Untitled', 500))!;
    assert.deepEqual(right.elements.map((el) => [el.index, el.parentIndex, el.depth, el.text]), [[0, null, 0, 'Untitled'], [1, 0, 1, 'right doc'], [2, 0, 1, 'OK']]);
    assert.equal(windowSubtree(snapshotOf(elements), window('Untitled', 0))!.elements[1].text, 'left doc');
    assert.equal(windowSubtree(snapshotOf(elements), { windowId: 8, pid: 1, title: 'Save As', bounds: null })!.elements[0].role, 'Dialog');
    assert.equal(windowSubtree(snapshotOf(elements), { windowId: 9, pid: 1, title: 'Preferences', bounds: rect(2000, 2000, 100, 100) }), null);
    assert.equal(frameMatch(elements[1], { windowId: 9, pid: 1, title: 'Other', bounds: rect(0, 0, 400, 300) }) > 0, true, 'the same place, a changed title');
  });
});
