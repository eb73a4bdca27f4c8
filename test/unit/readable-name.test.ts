import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readableName, type NameFacts } from '../../src/core/tree/readableName.js';

const button = (facts: Partial<NameFacts>): string => readableName({ name: '', description: '', childLabels: [], pressable: true, ...facts });

test('should drop the doubled part of a name when the single part is what the element shows', () => {
  assert.equal(button({ name: '1 1', childLabels: ['1'] }), '1');
  assert.equal(button({ name: '+ +', description: '+' }), '+');
  assert.equal(button({ name: 'Bora Bora' }), 'Bora Bora', 'a repeated word nothing shows alone is a real name');
});

test('should show the visible label, not the tooltip standing in as the name', () => {
  assert.equal(button({ name: 'Pi [Ctrl+P]', description: 'Pi [Ctrl+P]', childLabels: ['π'] }), 'π');
  assert.equal(button({ description: 'Square [Ctrl+2]', childLabels: ['x2'] }), 'x2', 'no name: the label child names it');
  assert.equal(button({ name: 'Pi [Ctrl+P]', description: 'Pi [Ctrl+P]' }), 'Pi', 'no label child: the tooltip without its shortcut');
  assert.equal(button({ description: 'Undo (Ctrl+Z)' }), 'Undo');
});

test('should leave names a person reads as they are', () => {
  assert.equal(button({ name: 'Save', description: 'Save the file [Ctrl+S]', childLabels: ['Save'] }), 'Save');
  assert.equal(button({ name: 'Help [F1]', description: 'Help [F1]' }), 'Help [F1]', 'a bracket with no modifier may be part of the label');
  assert.equal(readableName({ name: '', description: '', childLabels: ['Status'], pressable: false }), '', 'a panel is not named after the label inside it');
});
