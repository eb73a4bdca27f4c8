import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffTrees, formatDiff, summarizeDiff, textChanges } from '../../src/core/tree/diff.js';
import type { NodeSpec } from '../support/treeFactory.js';
import { buildAppTree, rect, seededRandom, tree, withChanged, withInserted, withoutSubtree } from '../support/treeFactory.js';

/** A small dialog; `edit` may change the children list before flattening. */
function dialog(children: NodeSpec[]): ReturnType<typeof tree> {
  return tree({ role: 'Dialog', text: 'Preferences', bounds: rect(100, 100, 400, 300), children });
}

const ok: NodeSpec = { role: 'PushButton', text: 'OK', bounds: rect(300, 350, 80, 30), actionable: true };
const cancel: NodeSpec = { role: 'PushButton', text: 'Cancel', bounds: rect(200, 350, 80, 30), actionable: true };
const name: NodeSpec = { role: 'Text', text: 'draft.txt', bounds: rect(120, 140, 300, 24) };

test('should report nothing for identical trees', () => {
  const diff = diffTrees(dialog([name, cancel, ok]), dialog([name, cancel, ok]));
  assert.equal(formatDiff(diff), '');
  assert.equal(summarizeDiff(diff), 'no changes');
});

test('should show an inserted element as a + tree line', () => {
  const help: NodeSpec = { role: 'PushButton', text: 'Help', bounds: rect(120, 350, 60, 30) };
  const diff = diffTrees(dialog([name, cancel, ok]), dialog([name, help, cancel, ok]));
  assert.equal(formatDiff(diff), '+ #2 [PushButton] "Help" x:120 y:350 w:60 h:30 visible\n');
  assert.equal(summarizeDiff(diff), '1 added');
});

test('should show a deleted element as a - tree line', () => {
  const diff = diffTrees(dialog([name, cancel, ok]), dialog([name, ok]));
  assert.equal(formatDiff(diff), '- [PushButton] "Cancel" x:200 y:350 w:80 h:30 visible\n');
  assert.equal(summarizeDiff(diff), '1 removed');
});

test('should show a rename as one ~ line with the whole old and new text', () => {
  const diff = diffTrees(dialog([name, cancel, ok]), dialog([{ ...name, text: 'draft-2 final.txt' }, cancel, ok]));
  assert.equal(formatDiff(diff), "~ #1 [Text] \"draft-2 final.txt\" | text: 'draft.txt' -> 'draft-2 final.txt'\n");
  assert.equal(summarizeDiff(diff), '1 text change');
  assert.deepEqual(textChanges(diff), [{ role: 'Text', before: 'draft.txt', after: 'draft-2 final.txt' }]);
});

test('should pair a renamed element whose size changed too', () => {
  const before = dialog([{ ...name, text: '' }]);
  const after = dialog([{ ...name, text: 'hello world', bounds: rect(120, 140, 320, 40) }]);
  assert.equal(formatDiff(diffTrees(before, after)), "~ #1 [Text] \"hello world\" | text: '' -> 'hello world'\n");
});

test('should pair a rename by identity even when it moved far away', () => {
  const before = tree({ role: 'Frame', children: [{ role: 'Label', text: 'Saving…', identity: '/a/7', bounds: rect(0, 0, 50, 10) }] });
  const after = tree({ role: 'Frame', children: [{ role: 'Label', text: 'Saved', identity: '/a/7', bounds: rect(900, 700, 50, 10) }] });
  assert.equal(formatDiff(diffTrees(before, after)), "~ #1 [Label] \"Saved\" | text: 'Saving…' -> 'Saved'\n");
});

test('should escape quotes and newlines in ~ lines', () => {
  const diff = diffTrees(dialog([{ ...name, text: "it's" }]), dialog([{ ...name, text: 'line 1\nline 2' }]));
  assert.equal(formatDiff(diff), "~ #1 [Text] \"line 1\\nline 2\" | text: 'it\\'s' -> 'line 1\\nline 2'\n");
});

test('should print nothing for a move or a resize', () => {
  const moved = dialog([name, { ...cancel, bounds: rect(180, 360, 90, 30) }, { ...ok, bounds: rect(310, 360, 80, 30) }]);
  const diff = diffTrees(dialog([name, cancel, ok]), moved);
  assert.equal(formatDiff(diff), '');
  const reordered = diffTrees(dialog([name, cancel, ok]), dialog([ok, name, cancel]));
  assert.equal(formatDiff(reordered), '');
});

test('should drop scroll bars and everything inside them', () => {
  const scroller = (value: string, y: number): NodeSpec => ({
    role: 'ScrollPane',
    children: [{ role: 'ScrollBar', text: value, bounds: rect(480, y, 16, 200), children: [{ role: 'Slider', text: value, bounds: rect(480, y + 20, 16, 40) }] }],
  });
  const diff = diffTrees(dialog([scroller('0', 100)]), dialog([scroller('55', 160)]));
  assert.equal(formatDiff(diff), '');
  const appeared = diffTrees(dialog([]), dialog([scroller('0', 100)]));
  assert.equal(formatDiff(appeared), '');
});

test('should drop text-less row, cell and menu churn but keep rows with text', () => {
  const rows = (n: number, withText: boolean): NodeSpec[] =>
    Array.from({ length: n }, (_, i) => ({
      role: 'TableRow',
      bounds: rect(100, 100 + i * 20, 300, 20),
      children: [{ role: 'TableCell', text: withText ? `file ${i}` : '', bounds: rect(100, 100 + i * 20, 300, 20) }],
    }));
  const churn = diffTrees(dialog([{ role: 'Table', children: rows(3, false) }, { role: 'Menu' }]), dialog([{ role: 'Table', children: rows(9, false) }]));
  assert.equal(formatDiff(churn), '');
  const news = diffTrees(dialog([{ role: 'Table', children: rows(1, true) }]), dialog([{ role: 'Table', children: rows(2, true) }]));
  assert.equal(formatDiff(news), '+ #5 [TableCell] "file 1" x:100 y:120 w:300 h:20 visible\n');
});

test('should show an element turning visible as + and one turning hidden as -', () => {
  const menu = (visible: boolean): NodeSpec => ({ role: 'MenuItem', text: 'Copy', visible, bounds: rect(0, 30, 100, 20) });
  assert.equal(formatDiff(diffTrees(dialog([menu(false)]), dialog([menu(true)]))), '+ #1 [MenuItem] "Copy" x:0 y:30 w:100 h:20 visible\n');
  assert.equal(formatDiff(diffTrees(dialog([menu(true)]), dialog([menu(false)]))), '- [MenuItem] "Copy" x:0 y:30 w:100 h:20 visible\n');
});

test('should not show hidden elements coming or going', () => {
  const hidden: NodeSpec = { role: 'MenuItem', text: 'Paste', visible: false };
  assert.equal(formatDiff(diffTrees(dialog([name]), dialog([name, hidden]))), '');
});

test('should show a toggle getting checked and a button getting enabled', () => {
  const box = (selected: boolean): NodeSpec => ({ role: 'CheckBox', text: 'Wrap lines', selected, bounds: rect(120, 200, 120, 20) });
  const save = (enabled: boolean): NodeSpec => ({ ...ok, text: 'Save', enabled });
  const diff = diffTrees(dialog([box(false), save(false)]), dialog([box(true), save(true)]));
  assert.equal(
    formatDiff(diff),
    '~ #1 [CheckBox] "Wrap lines" | selected: false -> true\n~ #2 [PushButton] "Save" | enabled: false -> true\n',
  );
  assert.equal(summarizeDiff(diff), '2 state changes');
  assert.deepEqual(textChanges(diff), []);
});

test('should say where a text-less element is when its state changes', () => {
  const row = (selected: boolean): NodeSpec => ({ role: 'TableRow', selected, bounds: rect(100, 160, 300, 20), children: [{ role: 'TableCell', text: 'a.txt', bounds: rect(100, 160, 300, 20) }] });
  const diff = diffTrees(dialog([{ role: 'Table', children: [row(false)] }]), dialog([{ role: 'Table', children: [row(true)] }]));
  assert.equal(formatDiff(diff), '~ #2 [TableRow] "" x:100 y:160 w:300 h:20 | selected: false -> true\n');
});

test('should not report focus moving', () => {
  const diff = diffTrees(dialog([{ ...name, focused: false }, { ...ok, focused: true }]), dialog([{ ...name, focused: true }, { ...ok, focused: false }]));
  assert.equal(formatDiff(diff), '');
});

test('should never show a secure field value, even if a backend leaked it, nor that it changed', () => {
  const password = (value: string): NodeSpec => ({ role: 'PasswordText', text: 'Passphrase', value, secure: true, bounds: rect(120, 180, 200, 24) });
  const diff = diffTrees(dialog([password('')]), dialog([password('hunter2')]));
  assert.equal(formatDiff(diff), '', 'not even a ~ line that would say its length changed');
  assert.deepEqual(textChanges(diff), []);
  const added = diffTrees(dialog([]), dialog([password('hunter2')]));
  assert.ok(!formatDiff(added).includes('hunter2'));
  assert.match(formatDiff(added), /^\+ #1 \[PasswordText\] "Passphrase" x:120/m, 'its label is shown: it is not secret');
});

test('should report a labelled field whose value changed as one ~ line with the old and new value', () => {
  const memo = (value: string): NodeSpec => ({ role: 'Text', text: 'Memo', value, identity: 'memo', bounds: rect(120, 220, 300, 24) });
  const diff = diffTrees(dialog([memo('')]), dialog([memo('hello world')]));
  assert.equal(formatDiff(diff), "~ #1 [Text] \"Memo\" | value: '' -> 'hello world'\n");
  assert.equal(summarizeDiff(diff), '1 value change');
  assert.deepEqual(textChanges(diff), [{ role: 'Text', field: 'value', name: 'Memo', before: '', after: 'hello world' }]);
});

test('should count in the summary exactly the text and value entries it lists, an element whose label and value both changed in each', () => {
  const field = (text: string, value: string): NodeSpec => ({ role: 'Text', text, value, identity: 'field', bounds: rect(120, 220, 300, 24) });
  const display = (value: string): NodeSpec => ({ role: 'Text', text: 'Display', value, identity: 'display', bounds: rect(120, 250, 300, 24) });
  const diff = diffTrees(dialog([field('Name', ''), display('1')]), dialog([field('Full name', 'Ada'), display('12')]));
  const changes = textChanges(diff);
  assert.equal(summarizeDiff(diff), '1 text change, 2 value changes');
  assert.equal(changes.filter((change) => change.field !== 'value').length, 1);
  assert.equal(changes.filter((change) => change.field === 'value').length, 2);
});

test('should count the elements still there whose element_index is another after the change', () => {
  const banner: NodeSpec = { role: 'Label', text: 'Update available', bounds: rect(0, 0, 400, 20) };
  assert.equal(diffTrees(dialog([ok]), dialog([banner, ok])).renumbered, 1, 'OK moved down one line');
  assert.equal(diffTrees(dialog([ok]), dialog([ok, banner])).renumbered, 0, 'added after it: OK keeps its index');
});

test('should mark in a ~ line a value that was read only in part', () => {
  const page = (value: string): NodeSpec => ({ role: 'Text', text: '', value, valueTruncated: true, identity: 'doc', bounds: rect(10, 60, 400, 300) });
  const line = formatDiff(diffTrees(dialog([page('abc')]), dialog([page('abcd')])));
  assert.equal(line, "~ #1 [Text] \"\" x:10 y:60 w:400 h:300 | value: 'abc…(more not read)' -> 'abcd…(more not read)'\n");
});

test('should report a secure field only by its label and state, with no value part, even when its value and cut mark differ', () => {
  const password = (value: string, enabled: boolean): NodeSpec => ({ role: 'PasswordText', text: 'Pin', value, valueTruncated: value.length > 3, secure: true, enabled, bounds: rect(120, 180, 200, 24) });
  const diff = diffTrees(dialog([password('123', true)]), dialog([password('1234567', false)]));
  assert.equal(formatDiff(diff), '~ #1 [PasswordText] "Pin" | enabled: true -> false\n');
  assert.equal(summarizeDiff(diff), '1 state change');
});

test('should report a check box turning on as a value change', () => {
  const bold = (value: string): NodeSpec => ({ role: 'CheckBox', text: 'Bold', value, bounds: rect(20, 260, 80, 20) });
  assert.equal(formatDiff(diffTrees(dialog([bold('unchecked')]), dialog([bold('checked')]))), "~ #1 [CheckBox] \"Bold\" | value: 'unchecked' -> 'checked'\n");
});

test('should summarise several kinds of change in one line', () => {
  const help: NodeSpec = { role: 'PushButton', text: 'Help', bounds: rect(120, 350, 60, 30) };
  const apply: NodeSpec = { role: 'PushButton', text: 'Apply', bounds: rect(20, 20, 60, 30) };
  const diff = diffTrees(dialog([name, cancel, ok]), dialog([{ ...name, text: 'b.txt' }, help, apply, ok]));
  assert.equal(summarizeDiff(diff), '2 added, 1 removed, 1 text change');
});

test('should find exactly one rename in the middle of a 10 000-element tree', () => {
  const before = buildAppTree(10_000, { seed: 7 });
  const target = before.findIndex((el, i) => i > 5000 && el.role === 'TableCell' && el.text.endsWith('.txt'));
  const after = withChanged(before, target, { text: 'renamed.txt' });
  const diff = diffTrees(before, after);
  assert.deepEqual(diff.added, []);
  assert.deepEqual(diff.removed, []);
  assert.equal(diff.changed.length, 1);
  assert.equal(diff.changed[0].before.index, target);
  assert.equal(formatDiff(diff), `~ #${target} [TableCell] "renamed.txt" | text: '${before[target].text}' -> 'renamed.txt'\n`);
});

test('should find an insertion and a removal in a 10 000-element tree with shifted indices', () => {
  const base = buildAppTree(10_000, { seed: 3 });
  const labelIndex = base.findIndex((el, i) => i > 3000 && el.role === 'Label');
  const removedText = base[labelIndex].text;
  const withoutLabel = withoutSubtree(base, labelIndex);
  const host = withoutLabel[8000];
  const after = withInserted(withoutLabel, 8001, host.index, {
    ...host,
    role: 'Label',
    text: 'Brand new label',
    bounds: rect(5, 5, 10, 10),
    identity: undefined,
  });
  const diff = diffTrees(base, after);
  assert.equal(diff.removed.length, 1);
  assert.equal(diff.removed[0].text, removedText);
  assert.equal(diff.added.length, 1);
  assert.equal(diff.added[0].text, 'Brand new label');
  assert.equal(diff.changed.length, 0);
});

test('should match 10 000 elements by identity and report only the real change', () => {
  const before = buildAppTree(10_000, { seed: 11, identities: true });
  const toggle = before.findIndex((el) => el.role === 'ToggleButton');
  // Every element moves 3 points down (a banner appeared) and one toggle is switched on.
  const after = before.map((el) => ({
    ...el,
    bounds: el.bounds && { ...el.bounds, y: el.bounds.y + 3 },
    selected: el.index === toggle ? true : el.selected,
  }));
  const diff = diffTrees(before, after);
  assert.equal(formatDiff(diff), `~ #${toggle} [ToggleButton] "Bold" | selected: false -> true\n`);
});

test('should report only the cells of a removed row when the rows below move up', () => {
  // Dates repeat (as in a real file list), rows are text-less, and row 12 is selected.
  const rows = (skip: number | null): NodeSpec[] => {
    const specs: NodeSpec[] = [];
    for (let row = 0; row < 30; row++) {
      if (row === skip) continue;
      const y = 100 + specs.length * 20;
      specs.push({
        role: 'TableRow',
        bounds: rect(0, y, 400, 20),
        selected: row === 12,
        children: [
          { role: 'TableCell', text: `file_${row}.txt`, bounds: rect(0, y, 200, 20) },
          { role: 'TableCell', text: `2024-01-0${row % 3}`, bounds: rect(200, y, 200, 20) },
        ],
      });
    }
    return specs;
  };
  const diff = diffTrees(dialog([{ role: 'Table', children: rows(null) }]), dialog([{ role: 'Table', children: rows(5) }]));
  assert.equal(
    formatDiff(diff),
    '- [TableCell] "file_5.txt" x:0 y:200 w:200 h:20 visible\n- [TableCell] "2024-01-02" x:200 y:200 w:200 h:20 visible\n',
  );
});

test('should report the moved-up rows as unchanged when a list scrolls', () => {
  const list = (offset: number): NodeSpec[] =>
    Array.from({ length: 40 }, (_, row) => ({
      role: 'ListItem',
      text: row % 4 === 0 ? '' : `item ${row % 7}`,
      bounds: rect(0, 100 + row * 20 - offset, 300, 20),
    }));
  assert.equal(formatDiff(diffTrees(dialog([{ role: 'List', children: list(0) }]), dialog([{ role: 'List', children: list(200) }]))), '');
});

for (const [scroll, identities] of [[0, false], [-240, false], [-48, true]] as const) {
  test(`should report exactly the renamed and removed elements among random edits (table scrolled ${scroll}, identities ${identities})`, () => {
    const before = buildAppTree(3_000, { seed: 21 - scroll, identities });
    const random = seededRandom(99);
    const isNews = (el: (typeof before)[number]): boolean => el.visible && el.text !== '' && el.role !== 'Slider' && el.role !== 'Frame';
    const leaves = new Set(before.filter((el) => el.parentIndex !== null).map((el) => el.parentIndex));
    const pickDistinct = (count: number, taken: Set<number>, accept: (index: number) => boolean): number[] => {
      const picked: number[] = [];
      while (picked.length < count) {
        const index = Math.floor(random() * before.length);
        if (taken.has(index) || !accept(index)) continue;
        taken.add(index);
        picked.push(index);
      }
      return picked;
    };
    const taken = new Set<number>();
    const renamed = pickDistinct(25, taken, (i) => isNews(before[i]));
    const removed = pickDistinct(10, taken, (i) => isNews(before[i]) && !leaves.has(i));
    const scrolls = new Set(['TableRow', 'TableCell', 'Label']);
    let after = before.map((el) => (scrolls.has(el.role) && el.bounds ? { ...el, bounds: { ...el.bounds, y: el.bounds.y + scroll } } : el));
    for (const index of renamed) after = withChanged(after, index, { text: `${before[index].text} v2` });
    for (const index of [...removed].sort((x, y) => y - x)) after = withoutSubtree(after, index);
    const diff = diffTrees(before, after);
    assert.deepEqual(diff.added, []);
    assert.deepEqual(diff.removed.map((el) => el.index).sort((x, y) => x - y), removed.sort((x, y) => x - y));
    assert.deepEqual(diff.changed.map(({ before: el }) => el.index).sort((x, y) => x - y), renamed.sort((x, y) => x - y));
    for (const { before: was, after: now } of diff.changed) assert.equal(now.text, `${was.text} v2`);
  });
}

test('should not call a different element in the same place a rename when the backend says it is another element', () => {
  // A list scrolled by a page: the label of row 136 now sits where row 1's label was.
  const before = tree({ role: 'ListBox', text: 'Items', children: [{ role: 'Label', text: 'Item 1', identity: '/row/1/label', bounds: rect(53, 278, 441, 29) }] });
  const after = tree({ role: 'ListBox', text: 'Items', children: [{ role: 'Label', text: 'Item 136', identity: '/row/136/label', bounds: rect(53, 278, 441, 29) }] });
  const diff = diffTrees(before, after);
  assert.deepEqual(textChanges(diff), [], 'no text change claimed');
  assert.deepEqual(diff.removed.map((el) => el.text), ['Item 1']);
  assert.deepEqual(diff.added.map((el) => el.text), ['Item 136']);
});
