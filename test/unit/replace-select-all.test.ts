// replace: true and set_value on a field accessibility cannot set (Chromium's inputs): the field
// focused, all of it selected with the platform's select-all key, the text typed over it — the
// key never pressed with the focus elsewhere, and text left over said, never hidden. Over the
// scripted desktop: its select-all empties the focused field, as a real selection typed over would.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { Step } from '../../src/core/call/steps.js';
import { selectAllKey } from '../../src/core/call/stepRunners/selectAll.js';
import type { ScriptedNodeSpec } from '../support/scriptedDesktop.js';
import { ScriptedDesktop } from '../support/scriptedDesktop.js';
import { FINDER, START_CURSOR, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { rect } from '../support/treeFactory.js';
import { stepsText } from '../support/modelText.js';

const BROWSER = 300;

/** Control+A in a field selects all it holds (`keeps`: what a select-all that falls short leaves). */
function webField(text: string, value: string, more: Partial<ScriptedNodeSpec> = {}, keeps = ''): ScriptedNodeSpec {
  return {
    role: 'Entry',
    text,
    value,
    singleLine: true,
    settable: false,
    insertable: false,
    onKey: ({ node, key, modifiers }) => {
      if (key === 'a' && modifiers.length === 1 && modifiers[0] === 'control') node.value = keeps;
    },
    ...more,
  };
}

function browser(): ScriptedDesktop {
  return new ScriptedDesktop({
    apps: [
      { pid: FINDER, name: 'Finder', tree: { role: 'Application', text: 'Finder', children: [{ role: 'Window', text: 'Desktop', bounds: rect(0, 0, 1280, 800) }] } },
      {
        pid: BROWSER,
        name: 'Chromium',
        tree: {
          role: 'Application',
          text: 'Chromium',
          children: [
            {
              role: 'Frame',
              text: 'Form',
              bounds: rect(0, 0, 800, 600),
              children: [
                webField('Full name', 'Jane Placeholder', { bounds: rect(10, 10, 200, 24) }),
                webField('Unfocusable', 'stays', { bounds: rect(10, 50, 200, 24), focusable: false }),
                webField('Partial', 'old text', { bounds: rect(10, 90, 200, 24) }, 'old '),
              ],
            },
          ],
        },
      },
    ],
    frontmostPid: FINDER,
    cursor: START_CURSOR,
  });
}

const replaceIn = (name: string, text: string, mode: 'auto' | 'keys' = 'auto'): Step => ({ kind: 'type-text', text, mode, query: { text: name }, replace: true });
const inputs = (desktop: ScriptedDesktop): string[] => desktop.actions().filter((action) => /^(insert|type|click|key)/.test(action));

describe('replace by select-all where accessibility cannot empty the field', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should choose Control-A on Linux and Command-A on macOS', () => {
    assert.deepEqual(selectAllKey('linux'), { key: 'a', modifiers: ['control'] });
    assert.deepEqual(selectAllKey('darwin'), { key: 'a', modifiers: ['meta'] });
  });

  for (const mode of ['auto', 'keys'] as const) {
    it(`should click the field, select all of it and type over it (mode ${mode}), and say so`, async () => {
      fixture = await engineFixture(browser());
      const result = await fixture.engine.act({ tool: 'type_text', pid: BROWSER, steps: [replaceIn('Full name', 'Ada Lovelace', mode)] });
      assert.equal(result.status, 'ok', result.error?.message);
      assert.equal(fixture.desktop.find(BROWSER, 'Full name').value, 'Ada Lovelace');
      assert.deepEqual(inputs(fixture.desktop), ['click 110,22', 'key control+a', 'type Ada Lovelace']);
      const entry = result.textEntries?.[0];
      assert.deepEqual([entry?.method, entry?.replaced, entry?.selectedAll, entry?.keptOtherText, entry?.textMissing], ['keys', true, 'control+a', undefined, undefined]);
      assert.match(stepsText(result)[0], /pressed control\+a to select all it held, then typed "Ada Lovelace"/);
    });
  }

  it('should press no select-all and type nothing when the click does not put the focus in the field', async () => {
    fixture = await engineFixture(browser());
    const result = await fixture.engine.act({ tool: 'type_text', pid: BROWSER, steps: [replaceIn('Unfocusable', 'new')] });
    assert.equal(result.status, 'error');
    assert.deepEqual([result.error?.code, result.error?.reason], ['unsupported', 'focus-not-in-field'], result.error?.message);
    assert.deepEqual(inputs(fixture.desktop), ['click 110,62'], 'the click only: no key, no text');
    assert.equal(fixture.desktop.find(BROWSER, 'Unfocusable').value, 'stays');
  });

  it('should say when the field still holds other text after the replacement by keys', async () => {
    fixture = await engineFixture(browser());
    const result = await fixture.engine.act({ tool: 'type_text', pid: BROWSER, steps: [replaceIn('Partial', 'new')] });
    assert.equal(fixture.desktop.find(BROWSER, 'Partial').value, 'old new');
    assert.equal(result.textEntries?.[0].keptOtherText, true);
  });

  it('should replace the text with keys on set_value where the field takes no value through accessibility', async () => {
    fixture = await engineFixture(browser());
    const result = await fixture.engine.act({ tool: 'set_value', pid: BROWSER, steps: [{ kind: 'set-value', query: { text: 'Full name' }, value: 'Alan Turing' }] });
    assert.equal(result.status, 'ok', result.error?.message);
    assert.equal(fixture.desktop.find(BROWSER, 'Full name').value, 'Alan Turing');
    assert.equal(result.textEntries?.[0].selectedAll, 'control+a');
  });

  it('should refuse set_value in the background there, sending no key', async () => {
    fixture = await engineFixture(browser());
    const result = await fixture.engine.act({ tool: 'set_value', pid: BROWSER, background: true, steps: [{ kind: 'set-value', query: { text: 'Full name' }, value: 'Alan Turing' }] });
    assert.equal(result.status, 'error');
    assert.deepEqual([result.error?.code, result.error?.reason], ['unsupported', 'value-refused'], result.error?.message);
    assert.deepEqual(inputs(fixture.desktop), []);
    assert.equal(fixture.desktop.find(BROWSER, 'Full name').value, 'Jane Placeholder');
  });
});
