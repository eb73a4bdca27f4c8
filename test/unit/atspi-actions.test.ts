import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AtspiActions, insertTextLength, resolveActionIndex } from '../../src/backends/linux/atspiActions.js';
import type { AtspiBus } from '../../src/backends/linux/atspiBus.js';
import type { AtspiHandle } from '../../src/backends/linux/atspiHandle.js';
import { isTandemError } from '../../src/core/errors.js';
import type { ElementNode } from '../../src/core/model.js';
import { createProgress } from '../../src/core/progress.js';
import { IFACE } from '../../native/linux/atspiProtocol.js';

test('should map press onto the toolkit action that presses', () => {
  assert.equal(resolveActionIndex('press', ['click']), 0);
  assert.equal(resolveActionIndex('press', ['activate', 'click']), 1);
  assert.equal(resolveActionIndex('press', ['toggle']), 0);
  // Nothing known: the first action is the default one.
  assert.equal(resolveActionIndex('press', ['frobnicate', 'other']), 0);
});

test('should map show-menu and raw names, and refuse what the element lacks', () => {
  assert.equal(resolveActionIndex('show-menu', ['click', 'popup']), 1);
  assert.equal(resolveActionIndex('Expand or Contract', ['activate', 'expand or contract']), 1);
  assert.equal(resolveActionIndex('show-menu', ['click']), null);
  assert.equal(resolveActionIndex('press', []), null);
});

// — text insertion (EditableText over a fake bus that records the calls) —

interface Recorded {
  member: string;
  body?: unknown[];
}

function fakeBus(answers: { selections?: number; selection?: [number, number]; caret?: number; count?: number; toolkit?: string }) {
  const calls: Recorded[] = [];
  const bus = {
    async call(request: { member: string; body?: unknown[] }): Promise<unknown[]> {
      calls.push({ member: request.member, ...(request.body ? { body: request.body } : {}) });
      if (request.member === 'GetNSelections') return [answers.selections ?? 0];
      if (request.member === 'GetSelection') return answers.selection ?? [0, 0];
      return [true];
    },
    async getProperty(_busName: string, _path: string, _iface: string, property: string): Promise<unknown> {
      calls.push({ member: `get ${property}` });
      if (property === 'CaretOffset') return answers.caret ?? 0;
      if (property === 'CharacterCount') return answers.count ?? 0;
      if (property === 'ToolkitName') return answers.toolkit ?? 'GTK';
      return undefined;
    },
  };
  return { bus: bus as unknown as AtspiBus, calls };
}

function field(interfaces = [IFACE.text, IFACE.editableText]): ElementNode {
  const handle: AtspiHandle = { kind: 'atspi', busName: ':1.5', path: '/org/a11y/atspi/accessible/7', role: 61, interfaces, states: [], parentPath: null, parentInterfaces: [], indexInParent: -1 };
  return { index: 3, parentIndex: 0, depth: 2, role: 'Text', text: 'Memo', bounds: null, visible: true, enabled: true, focused: false, actionable: false, secure: false, handle };
}

const progress = () => createProgress({ timeoutMs: 5_000 });

test('should insert at the caret with the length in UTF-8 bytes, as ATK takes it', async () => {
  const { bus, calls } = fakeBus({ caret: 4 });
  await new AtspiActions(bus).insertText(field(), 'héllo ✓', progress());
  assert.deepEqual(calls.find((c) => c.member === 'InsertText')?.body, [4, 'héllo ✓', 10]);
  assert.ok(!calls.some((c) => c.member === 'DeleteText'));
});

test('should replace the selected text, as typing does', async () => {
  const { bus, calls } = fakeBus({ selections: 1, selection: [2, 6], caret: 6 });
  await new AtspiActions(bus).insertText(field(), 'xy', progress());
  assert.deepEqual(calls.filter((c) => c.member === 'DeleteText' || c.member === 'InsertText').map((c) => [c.member, c.body]), [['DeleteText', [2, 6]], ['InsertText', [2, 'xy', 2]]]);
});

test('should insert at the end of a field that never had a caret, and count UTF-16 units for Qt', async () => {
  const { bus, calls } = fakeBus({ caret: -1, count: 9, toolkit: 'Qt' });
  await new AtspiActions(bus).insertText(field(), 'héllo ✓', progress());
  assert.deepEqual(calls.find((c) => c.member === 'InsertText')?.body, [9, 'héllo ✓', 7]);
  assert.equal(insertTextLength('Qt', '👍'), 2);
  assert.equal(insertTextLength('GTK', '👍'), 4);
});

test('should answer unsupported, calling nothing, for an element without EditableText', async () => {
  const { bus, calls } = fakeBus({});
  await assert.rejects(new AtspiActions(bus).insertText(field([IFACE.text]), 'x', progress()), (error) => isTandemError(error, 'unsupported') && error.details?.reason === 'no-editable-text');
  assert.deepEqual(calls, []);
});

test('should refuse insertion and whole-text setting in Gecko before sending anything, so the text goes in as keys', async () => {
  // Firefox answers both with success and never applies them (measured: the field unchanged 3 s later).
  const { bus, calls } = fakeBus({ toolkit: 'Gecko' });
  const ignored = (error: unknown) => isTandemError(error, 'unsupported') && error.details?.reason === 'insertion-ignored';
  await assert.rejects(new AtspiActions(bus).insertText(field(), 'x', progress()), ignored);
  await assert.rejects(new AtspiActions(bus).setValue(field(), 'x', progress()), ignored);
  assert.deepEqual(calls.filter((c) => !c.member.startsWith('get ')), [], 'no edit sent');
});
