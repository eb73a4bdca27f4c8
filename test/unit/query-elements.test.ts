import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTandemError } from '../../src/core/errors.js';
import { chooseElement, closestCandidates, elementAtPoint, findElement, substringEditDistance } from '../../src/core/tree/query.js';
import { rect, seededRandom, tree } from '../support/treeFactory.js';
import { modelText } from '../support/modelText.js';

const window = tree({
  role: 'Frame',
  text: 'Document — Editor',
  bounds: rect(0, 0, 800, 600),
  children: [
    {
      role: 'ToolBar',
      bounds: rect(0, 0, 800, 40),
      children: [
        { role: 'PushButton', text: 'Save As…', bounds: rect(0, 0, 80, 40), actionable: true },
        { role: 'PushButton', text: 'Save', bounds: rect(80, 0, 60, 40), actionable: true },
        { role: 'ToggleButton', text: 'Bold', bounds: rect(140, 0, 40, 40), actionable: true, selected: false },
        { role: 'PushButton', text: 'Print', bounds: rect(180, 0, 60, 40), actionable: true, enabled: false },
        { role: 'PushButton', text: 'Print', bounds: rect(240, 0, 60, 40), actionable: true },
      ],
    },
    { role: 'Label', text: 'Save', bounds: rect(0, 500, 60, 20) },
    { role: 'PushButton', text: 'Save', bounds: rect(0, 0, 60, 40), actionable: true, visible: false },
    { role: 'PasswordText', text: 'Passphrase', value: 'secret-save', secure: true, bounds: rect(10, 100, 200, 24) },
    { role: 'Text', text: 'Quarterly budget report', bounds: rect(0, 40, 800, 460), children: [{ role: 'Link', text: 'budget.xlsx', bounds: rect(20, 60, 90, 16), actionable: true }] },
  ],
});

const byText = (text: string) => window.find((el) => el.text === text)!;

test('should match text as a case-insensitive substring', () => {
  assert.equal(findElement(window, { text: 'QUARTERLY' }).text, 'Quarterly budget report');
});

test('should filter by a role it starts with or contains, ignoring case and spaces', () => {
  assert.equal(findElement(window, { text: 'bold', role: 'toggle' }).role, 'ToggleButton');
  assert.equal(findElement(window, { text: 'bold', role: 'button' }).role, 'ToggleButton');
  assert.equal(findElement(window, { role: 'push button', text: 'save' }).role, 'PushButton');
  assert.throws(() => findElement(window, { text: 'bold', role: 'link' }), (error) => isTandemError(error, 'not-found'));
});

test('should prefer a visible, enabled, actionable exact match with the shortest text', () => {
  // "save" matches "Save As…", "Save" (button, visible), "Save" (label), "Save" (hidden button).
  const save = findElement(window, { text: 'save' });
  assert.equal(save.role, 'PushButton');
  assert.equal(save.text, 'Save');
  assert.equal(save.visible, true);
  // Two visible "Print" buttons: the enabled one wins over document order.
  assert.equal(findElement(window, { text: 'print' }).enabled, true);
  // Among visible non-actionable matches, the shorter text wins.
  assert.equal(findElement(window, { text: 'budget' }).text, 'budget.xlsx');
});

test('should resolve element_index to that element', () => {
  const bold = byText('Bold');
  assert.equal(findElement(window, { index: bold.index }), bold);
  assert.equal(findElement(window, { index: bold.index, text: 'bol' }), bold);
});

test('should call an unknown or mismatching element_index stale', () => {
  assert.throws(() => findElement(window, { index: 999 }), (error) => isTandemError(error, 'stale-element') && /not in the current tree/.test(error.message) && /refresh_traversal/.test(modelText(error)));
  assert.throws(
    () => findElement(window, { index: byText('Bold').index, text: 'Save' }),
    (error) => isTandemError(error, 'stale-element') && /\[ToggleButton\] "Bold"/.test(error.message),
  );
});

test('should refuse an empty query and say what to send', () => {
  assert.throws(() => findElement(window, {}), (error) => isTandemError(error, 'bad-input') && /element_index/.test(modelText(error)));
});

test('should find a secure field by its label', () => {
  assert.equal(findElement(window, { text: 'passphrase' }).role, 'PasswordText');
});

test('should match a field by its value as well as its label, preferring the label', () => {
  const fields = tree({ role: 'Frame', text: 'Form', children: [
    { role: 'Text', text: 'Subject', value: 'Invoice 42', bounds: rect(10, 10, 200, 24) },
    { role: 'Label', text: 'Invoice', bounds: rect(10, 40, 200, 24) },
  ] });
  assert.equal(findElement(fields, { text: 'invoice 42' }).text, 'Subject');
  assert.equal(findElement(fields, { text: 'invoice' }).role, 'Label', 'a label that holds the text beats a value that does');
});

test('should prefer the field over the label sharing its name when typing follows, and say why', () => {
  const pair = tree({ role: 'Frame', text: 'Form', children: [
    { role: 'Label', text: 'Courier note', bounds: rect(10, 10, 100, 20) },
    { role: 'Text', text: 'Courier note', value: '', editable: true, bounds: rect(120, 10, 200, 24) },
  ] });
  const choice = chooseElement(pair, { text: 'Courier note' }, 'editable');
  assert.equal(choice.element.role, 'Text');
  assert.equal(choice.runnerUp?.role, 'Label');
  assert.equal(choice.reason, 'editable');
  assert.equal(choice.others, 1);
});

test('should prefer for a click the element that can be clicked or typed into over static text with the same name', () => {
  // Neither is actionable (macOS text fields are not): the field still beats the label that comes first.
  const pair = tree({ role: 'Frame', text: 'Form', children: [
    { role: 'Label', text: 'Courier note', bounds: rect(10, 10, 100, 20) },
    { role: 'Text', text: 'Courier note', value: '', editable: true, bounds: rect(120, 10, 200, 24) },
  ] });
  const choice = chooseElement(pair, { text: 'Courier note' });
  assert.equal(choice.element.role, 'Text');
  assert.equal(choice.reason, 'interactive');
  // A button beats a static label of the same text, whatever their order.
  const button = tree({ role: 'Frame', text: 'Form', children: [
    { role: 'Label', text: 'Send', bounds: rect(10, 10, 100, 20) },
    { role: 'PushButton', text: 'Send', actionable: true, bounds: rect(120, 10, 60, 24) },
  ] });
  assert.equal(chooseElement(button, { text: 'Send' }).element.role, 'PushButton');
  assert.equal(chooseElement(button, { text: 'Send' }).reason, 'interactive');
  // GTK 4 labels carry an action (their mnemonic) and its entries too: the label is still static text.
  const gtk4 = tree({ role: 'Frame', text: 'Form', children: [
    { role: 'Label', text: 'Memo', actionable: true, bounds: rect(10, 10, 40, 20) },
    { role: 'Text', text: 'Memo', value: '', editable: true, actionable: true, bounds: rect(60, 10, 200, 24) },
  ] });
  assert.equal(chooseElement(gtk4, { text: 'Memo' }).element.role, 'Text');
  assert.equal(chooseElement(gtk4, { text: 'Memo' }).reason, 'interactive');
});

test('should go by the backend\'s editable flag over the role, so a read-only text view is not taken for a field', () => {
  const views = tree({ role: 'Frame', text: 'Form', children: [
    { role: 'Text', text: 'Notes', value: 'read me', editable: false, bounds: rect(10, 10, 200, 100) },
    { role: 'Text', text: 'Notes', value: '', editable: true, bounds: rect(10, 120, 200, 24) },
  ] });
  const choice = chooseElement(views, { text: 'Notes' }, 'editable');
  assert.equal(choice.element.value, '', 'the editable one');
  assert.equal(choice.reason, 'editable');
  assert.equal(chooseElement(views, { text: 'Notes' }).reason, 'interactive', 'a click too: the read-only view is static text');
  const alike = tree({ role: 'Frame', text: 'Form', children: [
    { role: 'PushButton', text: 'Save', actionable: true, bounds: rect(10, 10, 60, 24) },
    { role: 'PushButton', text: 'Save', actionable: true, bounds: rect(80, 10, 60, 24) },
  ] });
  const first = chooseElement(alike, { text: 'save' });
  assert.equal(first.element.index, 1, 'two alike: the first in the tree');
  assert.equal(first.reason, 'first');
});

test('should not let a value that merely contains the text beat an element named so, even when typing follows', () => {
  const editor = tree({ role: 'Frame', text: 'Editor', children: [
    { role: 'Text', text: '', value: 'Remember to save the search results', editable: true, bounds: rect(10, 50, 400, 300) },
    { role: 'PushButton', text: 'Search', actionable: true, bounds: rect(10, 10, 60, 24) },
  ] });
  const choice = chooseElement(editor, { text: 'search' }, 'editable');
  assert.equal(choice.element.role, 'PushButton');
  assert.equal(choice.reason, 'label');
});

test('should never match a secure field by its leaked value', () => {
  assert.throws(() => findElement(window, { text: 'secret' }), (error) => isTandemError(error, 'not-found') && !error.message.includes('secret-save'));
});

test('should list the closest candidates with their element index when nothing matches', () => {
  let message = '';
  assert.throws(
    () => findElement(window, { text: 'Sve', role: 'button' }),
    (error) => {
      if (!isTandemError(error, 'not-found')) return false;
      message = error.message;
      return true;
    },
  );
  const save = window.find((el) => el.text === 'Save' && el.role === 'PushButton' && el.visible)!;
  assert.match(message, /No element matches text "Sve" and role "button"/);
  assert.ok(message.includes(`#${save.index} [PushButton] "Save" x:80 y:0 w:60 h:40 visible`), message);
  assert.match(message, /element_index/);
  const candidateLines = message.split('\n').filter((line) => line.startsWith('  #'));
  assert.ok(candidateLines.length >= 1 && candidateLines.length <= 5);
  assert.match(candidateLines[0], /"Save"/);
});

test('should rank candidates by text closeness with the role as a bonus', () => {
  const candidates = closestCandidates(window, { text: 'budget reprot' }, 3);
  assert.equal(candidates[0].text, 'Quarterly budget report');
  const labelFirst = closestCandidates(window, { text: 'Sav', role: 'label' }, 2);
  assert.equal(labelFirst[0].role, 'Label');
  assert.deepEqual(closestCandidates(window, {}, 5), []);
  assert.ok(closestCandidates(window, { text: 'Sav' }, 2).length === 2);
});

/** Plain dynamic programming (Sellers): the oracle for the bit-parallel matcher. */
function referenceDistance(pattern: string, text: string): number {
  let previous = Array.from({ length: pattern.length + 1 }, (_, i) => i);
  let best = pattern.length;
  for (const ch of text) {
    const current = [0];
    for (let i = 1; i <= pattern.length; i++) {
      current[i] = Math.min(previous[i - 1] + (pattern[i - 1] === ch ? 0 : 1), previous[i] + 1, current[i - 1] + 1);
    }
    best = Math.min(best, current[pattern.length]);
    previous = current;
  }
  return best;
}

test('should agree with plain dynamic programming on random strings up to 32 characters', () => {
  const random = seededRandom(5);
  const word = (length: number): string => Array.from({ length }, () => 'abcdé'[Math.floor(random() * 5)]).join('');
  for (let round = 0; round < 2000; round++) {
    const pattern = word(1 + Math.floor(random() * 32));
    const text = word(Math.floor(random() * 60));
    assert.equal(substringEditDistance(pattern, text), referenceDistance(pattern, text), `${pattern} in ${text}`);
  }
});

test('should measure edit distance to the closest substring', () => {
  assert.equal(substringEditDistance('save', 'please save it'), 0);
  assert.equal(substringEditDistance('sve', 'save as'), 1);
  assert.equal(substringEditDistance('xyz', 'ab'), 3);
  assert.equal(substringEditDistance('', 'ab'), 0);
});

test('should find the innermost visible element under a point', () => {
  assert.equal(elementAtPoint(window, { x: 30, y: 65 })?.text, 'budget.xlsx');
  assert.equal(elementAtPoint(window, { x: 400, y: 300 })?.text, 'Quarterly budget report');
  // The hidden "Save" button lies under (10,10) too, and is smaller than "Save As…": visible wins.
  assert.equal(elementAtPoint(window, { x: 10, y: 10 })?.text, 'Save As…');
  assert.equal(elementAtPoint(window, { x: 799, y: 599 })?.role, 'Frame');
  assert.equal(elementAtPoint(window, { x: 800, y: 10 }), null);
  assert.equal(elementAtPoint(window, { x: -5, y: 10 }), null);
});

test('should not name unrelated elements as candidates', () => {
  assert.deepEqual(closestCandidates(window, { text: 'qqqqzzzz' }, 5), []);
  assert.throws(() => findElement(window, { text: 'qqqqzzzz' }), (error) => isTandemError(error, 'not-found') && /no element close to it/.test(error.message) && !/#\d/.test(error.message));
});
