import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_TEXT_CHARS,
  TREE_HEADER_LINES,
  escapeText,
  formatElementLine,
  formatTree,
  indexOfLineNumber,
  lineNumberOfIndex,
} from '../../src/core/tree/treeFormat.js';
import { element, rect, snapshotOf, tree } from '../support/treeFactory.js';

test('should print role, quoted text, rounded geometry and the visible flag', () => {
  const line = formatElementLine(element({ role: 'PushButton', text: 'Save', bounds: rect(10.4, 20.6, 80.5, 24.49) }));
  assert.equal(line, '[PushButton] "Save" x:10 y:21 w:81 h:24 visible');
});

test('should leave geometry out when the element has no bounds and say hidden', () => {
  assert.equal(formatElementLine(element({ role: 'Label', text: 'x', visible: false })), '[Label] "x" hidden');
});

test('should add focused, disabled, secure and selected flags after visibility', () => {
  const line = formatElementLine(element({ role: 'CheckBox', text: 'Wrap', focused: true, enabled: false, selected: true }));
  assert.equal(line, '[CheckBox] "Wrap" visible focused disabled selected');
  assert.equal(formatElementLine(element({ role: 'CheckBox', text: 'Wrap', selected: false })), '[CheckBox] "Wrap" visible');
});

test('should escape newlines, tabs, carriage returns, quotes and backslashes so a line stays one line', () => {
  const line = formatElementLine(element({ role: 'Text', text: 'a\nb\tc\r"d"\\e' }));
  assert.equal(line, '[Text] "a\\nb\\tc\\r\\"d\\"\\\\e" visible');
  assert.equal(line.split('\n').length, 1);
});

test('should escape other control characters and line separators as \\uXXXX', () => {
  assert.equal(escapeText('a\u0000b\u001bc\u007fd\u2028e\u2029'), 'a\\u0000b\\u001bc\\u007fd\\u2028e\\u2029');
});

test('should keep emoji and accented text as they are', () => {
  assert.equal(escapeText('Café 👍🏽 naïve'), 'Café 👍🏽 naïve');
});

test('should escape lone surrogates that would be invalid UTF-8 in the file', () => {
  assert.equal(escapeText('a\ud83dz'), 'a\\ud83dz');
  assert.equal(escapeText('a\ude00z'), 'a\\ude00z');
});

test('should escape single quotes only when asked to quote with them', () => {
  assert.equal(escapeText("it's \"x\"", "'"), "it\\'s \"x\"");
  assert.equal(escapeText("it's"), "it's");
});

test('should cut long text at MAX_TEXT_CHARS code points and say how much was cut', () => {
  const text = 'x'.repeat(MAX_TEXT_CHARS + 123);
  const line = formatElementLine(element({ role: 'Text', text }));
  assert.equal(line, `[Text] "${'x'.repeat(MAX_TEXT_CHARS)}…(+123 chars)" visible`);
});

test('should not cut text of exactly MAX_TEXT_CHARS code points', () => {
  const text = '😀'.repeat(MAX_TEXT_CHARS); // 2 UTF-16 units each
  assert.equal(formatElementLine(element({ role: 'Text', text })), `[Text] "${text}" visible`);
});

test('should never split a surrogate pair when cutting', () => {
  const text = 'a' + '😀'.repeat(MAX_TEXT_CHARS + 5);
  const line = formatElementLine(element({ role: 'Text', text }));
  const quoted = line.slice(line.indexOf('"') + 1, line.lastIndexOf('"'));
  const kept = quoted.slice(0, quoted.indexOf('…'));
  assert.equal([...kept].length, MAX_TEXT_CHARS);
  assert.ok(kept.endsWith('😀'));
  assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(kept), 'no dangling high surrogate');
  assert.ok(quoted.endsWith('…(+6 chars)'));
});

test('should print a secure element by its label, never its value, even when the backend filled it in', () => {
  const line = formatElementLine(element({ role: 'PasswordText', text: 'Passphrase', value: 'hunter2', secure: true, focused: true }));
  assert.equal(line, '[PasswordText] "Passphrase" visible focused secure');
  const file = formatTree(snapshotOf(tree({ role: 'Frame', text: 'Login', children: [{ role: 'PasswordText', text: 'Passphrase', value: 'hunter2', secure: true }] })));
  assert.ok(!file.includes('hunter2'));
  assert.ok(file.includes('"Passphrase"'));
});

test('should print the name and the value of a field separately, the value only where there is one', () => {
  assert.equal(formatElementLine(element({ role: 'Text', text: 'Memo', value: 'hello "world"', bounds: { x: 1, y: 2, width: 3, height: 4 } })), '[Text] "Memo" value:"hello \\"world\\"" x:1 y:2 w:3 h:4 visible');
  assert.equal(formatElementLine(element({ role: 'Text', text: '', value: '' })), '[Text] "" value:"" visible');
  assert.equal(formatElementLine(element({ role: 'Label', text: 'Memo' })), '[Label] "Memo" visible');
});

test('should keep a role with spaces, brackets or control characters on one bracketed label', () => {
  assert.equal(formatElementLine(element({ role: 'Push ]Button', text: '' })), '[PushButton] "" visible');
  assert.equal(formatElementLine(element({ role: 'menu\nitem\u0000', text: '' })), '[menuitem] "" visible');
  assert.equal(formatElementLine(element({ role: '', text: 'x' })), '[Unknown] "x" visible');
});

test('should start the tree file with a fixed header giving app, pid and counts', () => {
  const elements = tree({ role: 'Frame', text: 'Editor', children: [{ role: 'PushButton', text: 'OK' }, { role: 'Label', text: 'hidden', visible: false }] });
  const lines = formatTree(snapshotOf(elements, 'gedit', 77)).split('\n');
  assert.equal(lines.slice(0, TREE_HEADER_LINES).every((line) => line.startsWith('# ')), true);
  assert.match(lines[0], /app: gedit\s+pid: 77/);
  assert.match(lines[1], /elements: 3\s+visible: 2\s+truncated: no/);
});

test('should say when and why the tree was truncated', () => {
  const snapshot = { ...snapshotOf(tree({ role: 'Frame' })), truncated: { reason: 'count' as const, detail: 'stopped at 5000 elements' } };
  assert.match(formatTree(snapshot), /truncated: count \(stopped at 5000 elements\)/);
});

test('should start every element line with its element_index, element index k on line k + header + 1', () => {
  const elements = tree({
    role: 'Frame',
    text: 'Main',
    children: [{ role: 'Panel', children: [{ role: 'PushButton', text: 'Alpha' }, { role: 'PushButton', text: 'Beta\nsecond line' }] }, { role: 'Label', text: 'Gamma' }],
  });
  const file = formatTree(snapshotOf(elements));
  const lines = file.split('\n');
  assert.equal(lines.length, TREE_HEADER_LINES + elements.length + 1); // trailing newline
  for (const el of elements) {
    const lineNumber = lineNumberOfIndex(el.index);
    assert.equal(lines[lineNumber - 1], `#${el.index} ${formatElementLine(el)}`);
    assert.equal(indexOfLineNumber(lineNumber), el.index);
  }
  const betaLine = lines.findIndex((line) => line.includes('Beta')) + 1;
  assert.equal(indexOfLineNumber(betaLine), 3);
  assert.match(lines[betaLine - 1], /^#3 \[PushButton\] "Beta\\nsecond line"/, 'the line says its index: no line arithmetic');
  assert.match(file, /^# #N at the start of a line is the element_index/m);
  assert.equal(indexOfLineNumber(1), null);
});

test('should mark a value the backend read only in part, so the model knows the field holds more', () => {
  const document = 'word '.repeat(40);
  assert.equal(
    formatElementLine(element({ role: 'Text', text: 'Document', value: document, valueTruncated: true })),
    `[Text] "Document" value:"${document.slice(0, 160)}…(+40 chars, more not read)" visible`,
  );
  assert.equal(formatElementLine(element({ role: 'Text', text: '', value: 'short', valueTruncated: true })), '[Text] "" value:"short…(more not read)" visible');
  assert.equal(formatElementLine(element({ role: 'PasswordText', text: 'Pin', value: 'x', valueTruncated: true, secure: true })), '[PasswordText] "Pin" visible secure');
});
