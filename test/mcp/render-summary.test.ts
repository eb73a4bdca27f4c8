import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallResult } from '../../src/core/call/result.js';
import { callResultOutput } from '../../src/mcp/outputSchemas.js';
import { renderCallResult, summaryLines } from '../../src/mcp/render.js';

function result(fields: Partial<CallResult> = {}): CallResult {
  return {
    status: 'ok',
    tool: 'click_and_traverse',
    pid: 42,
    app: 'Editor',
    file: '/tmp/x/1_click_and_traverse.txt',
    fileBytes: 1234,
    elementCount: 80,
    visibleElements: 30,
    summary: '1 text change',
    textChanges: [],
    stepsDone: [{ kind: 'click', button: 'left', count: 1, at: { point: { x: 10, y: 10 }, element: '[PushButton] "OK"' }, modifiers: [] }],
    stepsTotal: 1,
    humanInputBlocked: 0,
    watchdogFired: false,
    restore: { cursor: true, frontmost: 'not-needed' },
    durationMs: 812.4,
    ...fields,
  };
}

describe('render: CallResult as summary lines and structuredContent', () => {
  it('should write compact key: value lines and leave empty keys out', () => {
    const lines = summaryLines(result());
    assert.deepEqual(lines, [
      'status: ok',
      'pid: 42',
      'app: Editor',
      'file: /tmp/x/1_click_and_traverse.txt',
      'file_size: 1234 bytes, 80 elements',
      'hint: Read the diff file for what changed; call refresh_traversal for the full tree with coordinates; look at the screenshot.',
      'summary: 1 text change',
      'visible_elements: 30',
      'steps: 1/1 done: clicked [PushButton] "OK" at 10,10',
      'restore: cursor put back',
      'duration_ms: 812',
    ]);
  });

  it('should keep each text change on one line, escaped and cut, and point to the file for the rest', () => {
    const textChanges = Array.from({ length: 14 }, (_, i) => ({ role: 'Text', before: `line ${i}\nnext`, after: `it's ${'x'.repeat(100)}` }));
    const text = summaryLines(result({ textChanges })).join('\n');
    assert.match(text, /^changes:$/m);
    assert.match(text, /^ {2}Text text: 'line 0\\nnext' -> 'it\\'s x{75}…\(\+25 chars\)'$/m);
    assert.match(text, /^ {2}… 2 more in the file$/m);
    assert.equal(text.split('\n').filter((l) => l.startsWith('  Text text:')).length, 12);
  });

  it('should report blocked human input, the watchdog and truncation when they happened', () => {
    const text = summaryLines(result({ humanInputBlocked: 3, watchdogFired: true, status: 'watchdog', truncated: { pid: 42, reason: 'count', detail: 'stopped at 10000 elements' }, error: { code: 'watchdog', message: 'Gave control back after 30 s.' } })).join('\n');
    assert.match(text, /^status: watchdog\nerror: watchdog: Gave control back after 30 s\./);
    assert.match(text, /^human_input_blocked: 3 key\/pointer events/m);
    assert.match(text, /^watchdog: fired/m);
    assert.match(text, /^truncated: the tree of pid 42 was cut short \(count: stopped at 10000 elements\); act on what is listed or refresh later$/m);
  });

  it('should mark a failed call isError with the guidance for its error class', () => {
    const rendered = renderCallResult(
      result({ status: 'error', error: { code: 'permission', message: 'Accessibility is off.' } }),
    );
    assert.equal(rendered.isError, true);
    const text = rendered.content[0].type === 'text' ? rendered.content[0].text : '';
    assert.match(text, /^hint: .*tandem doctor/m);
    assert.equal(callResultOutput.parse(rendered.structuredContent).error?.code, 'permission');
  });

  it('should tell the model a lost guard stopped the call and nothing more was sent', () => {
    const rendered = renderCallResult(
      result({ status: 'error', error: { code: 'guard-lost', message: "Tandem lost its hold on the person's keyboard and mouse (the guard thread exited), so it stopped at once." } }),
    );
    assert.equal(rendered.isError, true);
    const text = rendered.content[0].type === 'text' ? rendered.content[0].text : '';
    assert.match(text, /^status: error$/m);
    assert.match(text, /^hint: Tandem could no longer hold the person's keyboard and mouse, so it stopped: nothing more was sent/m);
    assert.equal(callResultOutput.parse(rendered.structuredContent).error?.code, 'guard-lost');
  });

  it('should tell the model to get the person out of a password field when secure input stopped the call', () => {
    const rendered = renderCallResult(
      result({ status: 'error', error: { code: 'guard-lost', reason: 'secure-input', message: "Tandem lost its hold on the person's keyboard and mouse (secure keyboard entry is on), so it stopped at once." } }),
    );
    const text = rendered.content[0].type === 'text' ? rendered.content[0].text : '';
    assert.match(text, /^hint: .*secure keyboard entry came on during the call.*leave the password field/m);
  });

  it('should tell the model nothing was sent when secure input kept the guard from engaging', () => {
    const rendered = renderCallResult(
      result({ status: 'error', stepsDone: [], error: { code: 'guard-unavailable', reason: 'secure-input', message: 'Tandem did not act: secure keyboard entry is on.' } }),
    );
    const text = rendered.content[0].type === 'text' ? rendered.content[0].text : '';
    assert.match(text, /^hint: Nothing was sent: secure keyboard entry is on .*do not type passwords through Tandem/m);
    assert.equal(callResultOutput.parse(rendered.structuredContent).error?.code, 'guard-unavailable');
  });

  it('should say how often the guard let the person’s input through, in the text and in structuredContent', () => {
    const rendered = renderCallResult(result({ inputLeaked: 2 }));
    const text = rendered.content[0].type === 'text' ? rendered.content[0].text : '';
    assert.match(text, /^input_leaked: the guard let go for a moment 2 times: .*reached the apps/m);
    assert.equal(callResultOutput.parse(rendered.structuredContent).input_leaked, 2);
    assert.doesNotMatch(summaryLines(result()).join('\n'), /input_leaked/, 'left out when nothing leaked');
  });

  it('should give the same facts as structuredContent, valid against the output schema', () => {
    const rendered = renderCallResult(
      result({
        textChanges: [{ role: 'Label', before: 'a', after: 'b' }],
        appSwitch: { pid: 7, app: 'Save As', file: '/tmp/x/2_handoff.txt' },
        handoffTree: '# app: Save As\n[Dialog] "Save As" visible\n',
        restore: { cursor: true, frontmost: 'skipped-handoff' },
      }),
    );
    const structured = callResultOutput.parse(rendered.structuredContent);
    assert.equal(structured.file_bytes, 1234);
    assert.deepEqual(structured.app_switch, { pid: 7, app: 'Save As', file: '/tmp/x/2_handoff.txt' });
    assert.deepEqual(structured.text_changes, [{ role: 'Label', before: 'a', after: 'b' }]);
    assert.equal(structured.duration_ms, 812);
    assert.deepEqual(rendered.content.map((item) => item.type), ['text', 'text', 'resource_link', 'resource_link'], 'summary, handoff tree, then the two files as links');
    assert.match(rendered.content[1].type === 'text' ? rendered.content[1].text : '', /^app_switch tree: pid 7 app "Save As"\n# app: Save As/);
    assert.deepEqual(
      rendered.content.flatMap((item) => (item.type === 'resource_link' ? [[item.uri, item.mimeType]] : [])),
      [
        ['tandem://artifacts/1_click_and_traverse.txt', 'text/plain'],
        ['tandem://artifacts/2_handoff.txt', 'text/plain'],
      ],
    );
  });

  it('should name a started process that has no window yet, and say how to look at it later', () => {
    const rendered = renderCallResult(result({ launched: [{ pid: 4242, app: 'zenity' }] }));
    const text = rendered.content[0].type === 'text' ? rendered.content[0].text : '';
    assert.match(text, /^launched: pid 4242 app "zenity" started but has no window yet: call refresh_traversal \{"pid": 4242\} in a moment$/m);
    assert.deepEqual(callResultOutput.parse(rendered.structuredContent).launched, [{ pid: 4242, app: 'zenity' }]);
  });

  it('should explain which of two elements with one label a step used, why, and how to get the other', () => {
    const rendered = renderCallResult(
      result({
        stepsDone: [{ kind: 'click', button: 'left', count: 1, at: { point: { x: 305, y: 232 }, element: '[Text] "Memo"' }, modifiers: [] }, { kind: 'type', text: '"hi"' }],
        stepsTotal: 2,
        choices: [{ step: 0, chosen: { index: 9, role: 'Text', name: 'Memo' }, over: { index: 8, role: 'Label', name: 'Memo' }, reason: 'editable', matched: 2 }],
      }),
    );
    const text = rendered.content[0].type === 'text' ? rendered.content[0].text : '';
    assert.match(
      text,
      /^chosen: step 1 used #9 \[Text\] "Memo", not #8 \[Label\] "Memo": text is typed next and it takes typing, the other does not \(two elements matched; send role "Label" to use the other\)$/m,
    );
    const structured = callResultOutput.parse(rendered.structuredContent);
    assert.deepEqual(structured.choices, [
      { step: 1, element_index: 9, role: 'Text', name: 'Memo', over: { element_index: 8, role: 'Label', name: 'Memo' }, reason: 'editable', why: 'text is typed next and it takes typing, the other does not', matched: 2 },
    ]);
    const alike = summaryLines(result({ choices: [{ step: 1, chosen: { index: 3, role: 'PushButton', name: 'Save' }, over: { index: 7, role: 'PushButton', name: 'Save' }, reason: 'first', matched: 3 }] })).join('\n');
    assert.match(alike, /^chosen: step 2 used #3 \[PushButton\] "Save", not #7 \[PushButton\] "Save": the two are alike, and it comes first in the tree \(3 elements matched; to use another, send its element_index\)$/m);
    assert.ok(!summaryLines(result()).some((line) => line.startsWith('chosen:')), 'no line when nothing was ambiguous');
    const gone = summaryLines(result({ choices: [{ step: 0, chosen: { role: 'PushButton', name: 'OK' }, over: { index: 4, role: 'PushButton', name: 'OK' }, reason: 'first', matched: 2 }] })).join('\n');
    assert.match(gone, /^chosen: step 1 used \(gone\) \[PushButton\] "OK", not #4 \[PushButton\] "OK"/m, 'no index for an element the call made go away');
  });

  it('should say when typed text left other text in the field, and when it replaced all of it', () => {
    const kept = summaryLines(result({ textEntries: [{ step: 0, method: 'insertion', element: { index: 5, role: 'Text', name: 'Name' }, keptOtherText: true }] })).join('\n');
    assert.match(kept, /^typed_by: step 1 inserted through accessibility into #5 \[Text\] "Name" \(one edit at the caret, replacing any selection\); the field kept other text it had, so it holds more than the text sent \(replace: true replaces all of it\)$/m);
    const replaced = renderCallResult(result({ textEntries: [{ step: 0, method: 'insertion', element: { index: 5, role: 'Text', name: 'Name' }, replaced: true }] }));
    assert.match(replaced.content[0].type === 'text' ? replaced.content[0].text : '', /\(one edit replacing all the field held\)$/m);
    assert.equal(callResultOutput.parse(replaced.structuredContent).typed_by?.[0].replaced, true);
  });

  it('should say when the field does not show the text sent, so the answer never reads as if it had arrived', () => {
    const missing = renderCallResult(result({ textEntries: [{ step: 0, method: 'keys', reason: 'mode', element: { index: 5, role: 'Text', name: 'Name' }, textMissing: true }] }));
    assert.match(missing.content[0].type === 'text' ? missing.content[0].text : '', /^typed_by: step 1 typed as keys at #5 \[Text\] "Name" .*; but the field does not show the text sent/m);
    assert.equal(callResultOutput.parse(missing.structuredContent).typed_by?.[0].text_missing, true);
  });

  it('should say when the call gave elements another element_index, so older trees\' numbers are not used', () => {
    assert.match(summaryLines(result({ renumbered: 12 })).join('\n'), /^renumbered: 12 elements have another element_index now: use the #N in this answer, or refresh/m);
    assert.ok(!summaryLines(result()).some((line) => line.startsWith('renumbered:')));
  });

  it('should show where a long value changed rather than its unchanged start', () => {
    const page = 'Lorem ipsum dolor sit amet. '.repeat(100);
    const rendered = renderCallResult(result({ textChanges: [{ role: 'Text', field: 'value', name: 'Body', before: page, after: `${page}The end.` }] }));
    const text = rendered.content[0].type === 'text' ? rendered.content[0].text : '';
    assert.match(text, /^ {2}Text "Body" value: '\(\+2780 chars\)…sum dolor sit amet\. ' -> '\(\+2780 chars\)…sum dolor sit amet\. The end\.'$/m);
    const [change] = callResultOutput.parse(rendered.structuredContent).text_changes as Array<{ after: string }>;
    assert.ok(change.after.endsWith('The end.') && change.after.length < 2100, change.after.slice(-100));
  });

  it('should word the next move from the facts: a handoff, Esc by the person, a caller cancel, a read', () => {
    const hint = (fields: Partial<CallResult>): string => /^hint: (.*)$/m.exec(summaryLines(result(fields)).join('\n'))?.[1] ?? '';
    assert.equal(hint({ appSwitch: { pid: 300, app: 'Save Panel' } }), 'A new window from pid 300 (Save Panel) took the front: its tree is below; act on that pid next.');
    assert.match(hint({ status: 'cancelled', cancelledBy: 'person', error: { code: 'cancelled', message: 'Cancelled.' } }), /^The person pressed Esc: stop, and ask them/);
    assert.match(hint({ status: 'cancelled', cancelledBy: 'caller', error: { code: 'cancelled', message: 'Cancelled.' } }), /^The call was cancelled before it finished; call refresh_traversal/);
    assert.match(hint({ stepsTotal: 0, stepsDone: [] }), /^Grep the tree file .* act on pid 42 by text or element_index\.$/);
    assert.match(hint({ appExited: true }), /^Editor exited; call list_applications/);
  });
});
