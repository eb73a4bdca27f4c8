import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ElementNode, TreeSnapshot } from '../../src/core/model.js';
import { describeStep, predictDestinations, redactStep, secureTextLabel } from '../../src/core/tree/redact.js';
import type { Step } from '../../src/core/call/steps.js';

function element(index: number, role: string, text: string, extra: Partial<ElementNode> = {}): ElementNode {
  return { index, parentIndex: null, depth: 0, role, text, bounds: null, visible: true, enabled: true, focused: false, actionable: false, secure: false, handle: null, ...extra };
}

const password = element(0, 'PasswordText', '', { secure: true });
const name = element(1, 'Text', 'Name');
const tree = (focused?: number): TreeSnapshot => ({
  pid: 1,
  app: 'Login',
  elapsedMs: 0,
  elements: [password, name].map((el) => ({ ...el, focused: el.index === focused })),
});
const click = (text: string): Step => ({ kind: 'click', target: { query: { text } }, button: 'left', count: 1, modifiers: [] });
const target = (step: Step): ElementNode | null => (step.kind === 'click' && 'query' in step.target ? (step.target.query.text === 'pw' ? password : name) : null);

describe('redaction: where typed text goes', () => {
  it('should count characters, not UTF-16 units, in the label', () => {
    assert.equal(secureTextLabel('pässwörd🔑'), '[secure text]');
  });

  it('should follow the nearest click, then the focused element, and call anything after a key press unknown', () => {
    const steps: Step[] = [
      { kind: 'type', text: 'a' }, // focused element: the password field
      click('Name'),
      { kind: 'type', text: 'b' }, // the Name field
      click('pw'),
      { kind: 'wait', ms: 1 },
      { kind: 'type', text: 'c' }, // the password field (a wait does not move focus)
      { kind: 'press', key: 'tab', modifiers: [] },
      { kind: 'type', text: 'd' }, // unknown until it runs
    ];
    const destinations = predictDestinations(steps, tree(0), target);
    assert.deepEqual([...destinations.entries()], [[0, 'secure'], [2, 'plain'], [5, 'secure'], [7, 'unknown']]);
  });

  it('should redact the text in step labels and event args only when secure', () => {
    const step: Step = { kind: 'type', text: 'swordfish' };
    assert.equal(describeStep(step, true), 'Type [secure text]');
    assert.equal(describeStep(step, false), 'Type "swordfish"');
    assert.deepEqual(redactStep(step, true), { kind: 'type', text: '[secure text]' });
    const setValue: Step = { kind: 'set-value', query: { role: 'PasswordText' }, value: 'swordfish' };
    assert.equal(describeStep(setValue, true), 'Set [PasswordText] to [secure text]');
    assert.deepEqual(redactStep(setValue, true), { kind: 'set-value', query: { role: 'PasswordText' }, value: '[secure text]' });
  });

  it('should label a drag by both of its ends for the feed and the overlay, and count it as moving the focus', () => {
    const drag: Step = { kind: 'drag', from: { query: { index: 12 } }, to: { point: { x: 300, y: 40 } }, button: 'left', modifiers: ['shift'], durationMs: 300 };
    assert.equal(describeStep(drag, false), 'Drag from #12 to 300,40 with shift');
    const destinations = predictDestinations([click('pw'), drag, { kind: 'type', text: 'x' }], tree(), target);
    assert.equal(destinations.get(2), 'unknown', 'after a drag the focus is checked when the typing runs');
  });
});
