import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress } from '../../src/core/progress.js';
import { TandemError } from '../../src/core/errors.js';
import { LIMITS as VALUE_LIMITS } from '../../src/core/limits.js';
import { AxElementRegistry, AxSession } from '../../src/backends/macos/axElement.js';
import { AxTreeReader, elementText, elementValue, isSecure, treeRole, wantsValue } from '../../src/backends/macos/axTree.js';
import { AxActions, axActionName } from '../../src/backends/macos/axActions.js';
import { FakeMacNative, type FakeElement } from './mac-fake-native.js';
import { modelText } from '../support/modelText.js';

const SCREEN = { x: 0, y: 0, width: 1440, height: 900 };
const LIMITS = { maxDepth: 50, maxElements: 5000, maxMs: 10_000 };

function textEdit(): { app: FakeElement; secure: FakeElement; button: FakeElement; field: FakeElement; menuBarItem: FakeElement } {
  const secure: FakeElement = { role: 'AXTextField', subrole: 'AXSecureTextField', value: 'hunter2', position: { x: 120, y: 300 }, size: { width: 200, height: 22 }, settable: ['AXValue'] };
  const button: FakeElement = { role: 'AXButton', title: 'OK', position: { x: 500, y: 450 }, size: { width: 80, height: 30 }, actions: ['AXPress'] };
  const field: FakeElement = { role: 'AXTextArea', value: 'Hello', focused: true, position: { x: 100, y: 130 }, size: { width: 600, height: 150 }, settable: ['AXValue'] };
  const menuBarItem: FakeElement = { role: 'AXMenuBarItem', title: 'File', selected: false, children: [{ role: 'AXMenu', children: [{ role: 'AXMenuItem', title: 'Save', selected: false }] }] };
  const app: FakeElement = {
    role: 'AXApplication',
    title: 'TextEdit',
    children: [
      {
        role: 'AXWindow',
        title: 'Untitled',
        windowId: 77,
        position: { x: 100, y: 100 },
        size: { width: 600, height: 400 },
        children: [
          field,
          secure,
          button,
          { role: 'AXStaticText', value: 'Label', position: { x: 100, y: 480 }, size: { width: 50, height: 16 } },
          { role: 'AXGroup', description: 'offscreen group', position: { x: 5000, y: 5000 }, size: { width: 10, height: 10 }, children: [{ role: 'AXGroup', children: [{ role: 'AXGroup' }] }] },
          { role: 'AXTextField', subrole: 'AXSearchField', value: 'query', enabled: false },
        ],
      },
      { role: 'AXMenuBar', children: [menuBarItem] },
    ],
  };
  return { app, secure, button, field, menuBarItem };
}

function setup(): { fake: FakeMacNative; session: AxSession; registry: AxElementRegistry; reader: AxTreeReader; parts: ReturnType<typeof textEdit> } {
  const fake = new FakeMacNative();
  const parts = textEdit();
  fake.addApp(42, parts.app);
  const session = new AxSession(fake);
  const registry = new AxElementRegistry(fake.cf);
  return { fake, session, registry, reader: new AxTreeReader(session, registry), parts };
}

const progress = () => createProgress({ timeoutMs: 10_000 });
const options = { screens: [SCREEN], windowBounds: [] };

test('should map AX roles and subroles to tree roles', () => {
  assert.equal(treeRole('AXButton', null), 'Button');
  assert.equal(treeRole('AXStaticText', null), 'StaticText');
  assert.equal(treeRole('AXTextField', 'AXSearchField'), 'SearchField');
  assert.equal(treeRole('AXWindow', 'AXStandardWindow'), 'Window');
  assert.equal(treeRole('AXWindow', 'AXDialog'), 'Dialog');
  assert.equal(treeRole(null, null), 'Unknown');
  assert.equal(treeRole('CustomRole', null), 'CustomRole');
});

test('should take the label from the title, else the description, else a static text\'s value; never a secure value', () => {
  assert.equal(elementText({ role: 'AXStaticText', title: 'T', value: 'V', description: 'D', secure: false }), 'T');
  assert.equal(elementText({ role: 'AXStaticText', title: '', value: 'V', description: '', secure: false }), 'V');
  assert.equal(elementText({ role: 'AXTextField', title: '', value: 'typed', description: 'Memo', secure: false }), 'Memo', 'a field is labelled by its description, not its content');
  assert.equal(elementText({ role: 'AXTextField', title: null, value: 'typed', description: null, secure: false }), '');
  assert.equal(elementText({ role: 'AXTextField', title: null, value: 'hunter2', description: 'Passphrase', secure: true }), 'Passphrase');
  assert.equal(isSecure('AXTextField', 'AXSecureTextField'), true);
  assert.equal(wantsValue('AXTextField', 'AXSecureTextField', ''), false);
  assert.equal(wantsValue('AXTextField', null, 'titled'), true, 'a field always: its value is not its label');
  assert.equal(wantsValue('AXStaticText', null, ''), true);
  assert.equal(wantsValue('AXStaticText', null, 'titled'), false);
  assert.equal(wantsValue('AXGroup', null, ''), false);
});

test('should give fields their value: text, numbers, on/off; nothing for secure fields or plain elements', () => {
  assert.equal(elementValue({ role: 'AXTextField', value: 'hello world', secure: false }), 'hello world');
  assert.equal(elementValue({ role: 'AXTextField', value: 'hunter2', secure: true }), undefined);
  assert.equal(elementValue({ role: 'AXSlider', value: 0.333333, secure: false }), '0.3333');
  assert.equal(elementValue({ role: 'AXCheckBox', value: 1, secure: false }), 'checked');
  assert.equal(elementValue({ role: 'AXCheckBox', value: 0, secure: false }), 'unchecked');
  assert.equal(elementValue({ role: 'AXCheckBox', value: 2, secure: false }), 'mixed');
  assert.equal(elementValue({ role: 'AXStaticText', value: 'label', secure: false }), undefined);
});

test('should snapshot the tree in pre-order with roles, text, bounds, flags and window ids', async () => {
  const { reader, session, registry, fake } = setup();
  const snap = await reader.snapshot(42, LIMITS, progress(), options);
  assert.equal(snap.app, 'TextEdit');
  assert.equal(snap.truncated, undefined);
  const lines = snap.elements.map((e) => `${'  '.repeat(e.depth)}${e.role} "${e.text}"${e.value !== undefined ? ` value:"${e.value}"` : ''}${e.visible ? '' : ' hidden'}${e.enabled ? '' : ' disabled'}${e.focused ? ' focused' : ''}${e.secure ? ' secure' : ''}`);
  assert.deepEqual(lines, [
    'Application "TextEdit" hidden',
    '  Window "Untitled"',
    '    TextArea "" value:"Hello" focused',
    '    TextField "" secure',
    '    Button "OK"',
    '    StaticText "Label"',
    '    Group "offscreen group" hidden',
    '      Group "" hidden',
    '        Group "" hidden',
    '    SearchField "" value:"query" hidden disabled',
    '  MenuBar "" hidden',
    '    MenuBarItem "File" hidden',
  ]);
  assert.deepEqual(snap.elements[1].bounds, { x: 100, y: 100, width: 600, height: 400 });
  assert.equal(snap.elements[1].windowId, 77);
  assert.equal(snap.elements[4].windowId, 77, 'descendants inherit the window id');
  assert.equal(snap.elements[4].actionable, true);
  assert.equal(snap.elements[2].parentIndex, 1);
  assert.deepEqual(snap.elements.map((e) => e.index), snap.elements.map((_, i) => i));
  registry.releaseAll();
  session.close();
  assert.deepEqual(fake.leaks(), [], 'every Copy/Create released exactly once');
});

test('should read a tree whose short strings and numbers come back as the same pointers (Apple Silicon), releasing each +1', async () => {
  const { fake, registry, session, reader } = setup();
  fake.internValues = true;
  const first = await reader.snapshot(42, LIMITS, progress(), options);
  const second = await reader.snapshot(42, LIMITS, progress(), options);
  assert.deepEqual(second.elements.map((e) => e.text), first.elements.map((e) => e.text));
  assert.ok(first.elements.some((e) => e.text === 'OK'), 'the short title decoded');
  registry.releaseAll();
  session.close();
  assert.deepEqual(fake.leaks(), [], 'every +1 released once per copy');
});

test('should never read the value of a secure text field', async () => {
  const { reader, fake, parts } = setup();
  const snap = await reader.snapshot(42, LIMITS, progress(), options);
  assert.ok(!fake.reads.some((r) => r.element === parts.secure && r.attribute === 'AXValue'), 'AXValue of the secure field was requested');
  assert.ok(!JSON.stringify(snap.elements.map(({ handle: _h, ...rest }) => rest)).includes('hunter2'));
});

test('should read each element with one batched call plus AXValue only where it is the text', async () => {
  const { reader, fake } = setup();
  const snap = await reader.snapshot(42, LIMITS, progress(), options);
  const roleReads = fake.reads.filter((r) => r.attribute === 'AXRole').length;
  assert.equal(roleReads, snap.elements.length);
  const valueReads = fake.reads.filter((r) => r.attribute === 'AXValue').map((r) => r.element.role);
  assert.deepEqual(valueReads.sort(), ['AXStaticText', 'AXTextArea', 'AXTextField']);
});

test('should say which elements take typing, and cut a document\'s value at the read cap with the cut marked', async () => {
  const { reader, parts } = setup();
  parts.field.value = `${'a'.repeat(VALUE_LIMITS.readValueChars)}and more`;
  const snap = await reader.snapshot(42, LIMITS, progress(), options);
  const area = snap.elements.find((e) => e.role === 'TextArea')!;
  assert.equal(area.editable, true);
  assert.equal(area.value?.length, VALUE_LIMITS.readValueChars);
  assert.equal(area.valueTruncated, true);
  assert.equal(snap.elements.find((e) => e.secure)?.editable, true, 'a password field is typed into');
  assert.equal(snap.elements.find((e) => e.role === 'StaticText')?.editable, false);
  assert.equal(snap.elements.find((e) => e.role === 'Button')?.editable, false);
  parts.field.value = 'a'.repeat(VALUE_LIMITS.readValueChars);
  const exact = (await reader.snapshot(42, LIMITS, progress(), options)).elements.find((e) => e.role === 'TextArea')!;
  assert.equal(exact.valueTruncated, undefined, 'exactly the cap is whole');
});

test('should walk an open menu but not a closed one', async () => {
  const { reader, parts } = setup();
  assert.ok(!(await reader.snapshot(42, LIMITS, progress(), options)).elements.some((e) => e.role === 'MenuItem'));
  parts.menuBarItem.selected = true;
  assert.ok((await reader.snapshot(42, LIMITS, progress(), options)).elements.some((e) => e.role === 'MenuItem' && e.text === 'Save'));
});

test('should flag the tree truncated by count, depth and time', async () => {
  const { reader } = setup();
  const byCount = await reader.snapshot(42, { ...LIMITS, maxElements: 3 }, progress(), options);
  assert.equal(byCount.elements.length, 3);
  assert.equal(byCount.truncated?.reason, 'count');
  const byDepth = await reader.snapshot(42, { ...LIMITS, maxDepth: 1 }, progress(), options);
  assert.equal(byDepth.truncated?.reason, 'depth');
  assert.ok(byDepth.elements.every((e) => e.depth <= 1));
  let clock = 0;
  const byTime = await reader.snapshot(42, { ...LIMITS, maxMs: 5 }, progress(), { ...options, now: () => (clock += 2) });
  assert.equal(byTime.truncated?.reason, 'time');
  assert.ok(byTime.elements.length < 12);
});

test('should map windows by bounds when the private window call is missing', async () => {
  const { reader, fake } = setup();
  fake.ax._AXUIElementGetWindow = null;
  const snap = await reader.snapshot(42, LIMITS, progress(), { ...options, windowBounds: [{ windowId: 501, bounds: { x: 100, y: 100, width: 600, height: 400 } }] });
  assert.equal(snap.elements[1].windowId, 501);
});

test('should report an app that is gone and keep nothing alive', async () => {
  const { reader, session, registry, fake } = setup();
  await assert.rejects(reader.snapshot(999, LIMITS, progress(), options), (e: TandemError) => e.code === 'app-gone');
  registry.releaseAll();
  session.close();
  assert.deepEqual(fake.leaks(), []);
});

test('should turn a handle from a retired snapshot into a stale-element error, not a crash', async () => {
  const { reader, registry, session, fake } = setup();
  const actions = new AxActions(session, registry);
  const first = await reader.snapshot(42, LIMITS, progress(), options);
  for (let i = 0; i < 3; i++) await reader.snapshot(42, LIMITS, progress(), options);
  const oldButton = first.elements.find((e) => e.role === 'Button')!;
  assert.throws(() => actions.perform({ element: oldButton, action: 'press' }, progress()), (e: TandemError) => e.code === 'stale-element' && /refresh_traversal/.test(modelText(e)));
  assert.equal(fake.performed.length, 0);
});

test('should press, set values (secure fields included) and report unsupported actions', async () => {
  const { reader, registry, session, fake, parts } = setup();
  const actions = new AxActions(session, registry);
  const snap = await reader.snapshot(42, LIMITS, progress(), options);
  const byRole = (role: string) => snap.elements.find((e) => e.role === role)!;
  actions.perform({ element: byRole('Button'), action: 'press' }, progress());
  assert.deepEqual(fake.performed.map((p) => [p.element, p.action]), [[parts.button, 'AXPress']]);
  actions.setValue(byRole('TextArea'), 'New text', progress());
  assert.deepEqual(fake.written.at(-1), { element: parts.field, attribute: 'AXValue', value: 'New text' });
  const secureNode = snap.elements.find((e) => e.secure)!;
  actions.setValue(secureNode, 's3cret', progress());
  assert.equal(fake.written.at(-1)?.element, parts.secure);
  assert.throws(() => actions.perform({ element: byRole('TextArea'), action: 'press' }, progress()), (e: TandemError) => e.code === 'unsupported');
  assert.throws(() => actions.setValue(byRole('Button'), 'x', progress()), (e: TandemError) => e.code === 'unsupported' && /type_text {pid, element_index, text, replace: true}/.test(modelText(e)));
  registry.releaseAll();
  session.close();
  assert.deepEqual(fake.leaks(), []);
});

test('should map canonical action names to AX actions', () => {
  assert.equal(axActionName('press'), 'AXPress');
  assert.equal(axActionName('show-menu'), 'AXShowMenu');
  assert.equal(axActionName('Show Menu'), 'AXShowMenu');
  assert.equal(axActionName('increment'), 'AXIncrement');
  assert.equal(axActionName('AXRaise'), 'AXRaise');
  assert.throws(() => axActionName('explode'), (e: TandemError) => e.code === 'bad-input');
});

test('should switch on AXManualAccessibility once and wait for a Chromium tree to fill in on the first read', async () => {
  const fake = new FakeMacNative();
  const page: FakeElement = { role: 'AXWebArea', title: 'Page', children: [{ role: 'AXButton', title: 'Sign in', actions: ['AXPress'] }] };
  let windowReads = 0;
  const window: FakeElement = {
    role: 'AXWindow',
    title: 'Electron app',
    get children() {
      windowReads++;
      return windowReads >= 3 ? [page] : []; // the renderer's tree arrives a little later
    },
  };
  const app: FakeElement = { role: 'AXApplication', title: 'Electron app', settable: ['AXManualAccessibility'], children: [window] };
  fake.addApp(5, app);
  const session = new AxSession(fake);
  const registry = new AxElementRegistry(fake.cf);
  const reader = new AxTreeReader(session, registry);
  const first = await reader.snapshot(5, LIMITS, progress(), options);
  assert.deepEqual(fake.written.map((w) => [w.attribute, w.value]), [['AXManualAccessibility', true]]);
  assert.ok(first.elements.some((e) => e.text === 'Sign in'), first.elements.map((e) => e.role).join(','));
  const readsBefore = windowReads;
  await reader.snapshot(5, LIMITS, progress(), options);
  assert.equal(windowReads - readsBefore, 1, 'later snapshots read once, without waiting');
  assert.equal(fake.written.length, 1, 'set once per app');
  registry.releaseAll();
  session.close();
  assert.deepEqual(fake.leaks(), []);
});

test('should survive an app that lists the same child twice, retaining it once', async () => {
  const fake = new FakeMacNative();
  const shared: FakeElement = { role: 'AXButton', title: 'Twice', actions: ['AXPress'] };
  fake.addApp(8, { role: 'AXApplication', title: 'Quirky', children: [shared, shared] });
  const session = new AxSession(fake);
  const registry = new AxElementRegistry(fake.cf);
  const snap = await new AxTreeReader(session, registry).snapshot(8, LIMITS, progress(), options);
  assert.deepEqual(snap.elements.map((e) => e.text), ['Quirky', 'Twice', 'Twice']);
  registry.releaseAll();
  session.close();
  assert.deepEqual(fake.leaks(), []);
});

test('should insert text at the selection through AXSelectedText, and answer unsupported where it is read-only', async () => {
  const fake = new FakeMacNative();
  const field: FakeElement = { role: 'AXTextField', value: 'Hello', focused: true, position: { x: 10, y: 10 }, size: { width: 200, height: 22 }, settable: ['AXValue', 'AXSelectedText'] };
  const label: FakeElement = { role: 'AXTextField', value: 'fixed', position: { x: 10, y: 40 }, size: { width: 200, height: 22 } };
  fake.addApp(42, { role: 'AXApplication', title: 'Notes', children: [{ role: 'AXWindow', title: 'Note', windowId: 5, position: { x: 0, y: 0 }, size: { width: 400, height: 300 }, children: [field, label] }] });
  const session = new AxSession(fake);
  const registry = new AxElementRegistry(fake.cf);
  const actions = new AxActions(session, registry);
  const snap = await new AxTreeReader(session, registry).snapshot(42, LIMITS, progress(), options);
  const [first, second] = snap.elements.filter((e) => e.role === 'TextField');
  assert.equal(first.singleLine, true, 'an AXTextField holds one line');
  actions.insertText(first, ' wörld');
  assert.deepEqual(fake.written.at(-1), { element: field, attribute: 'AXSelectedText', value: ' wörld' });
  const writes = fake.written.length;
  assert.throws(() => actions.insertText(second, 'x'), (e: TandemError) => e.code === 'unsupported' && e.details?.reason === 'no-editable-text');
  assert.equal(fake.written.length, writes, 'nothing was written to the read-only field');
  registry.releaseAll();
  session.close();
  assert.deepEqual(fake.leaks(), []);
});
