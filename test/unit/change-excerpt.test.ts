import assert from 'node:assert/strict';
import { test } from 'node:test';
import { excerptChange } from '../../src/core/tree/changeExcerpt.js';

test('should keep short values whole', () => {
  assert.deepEqual(excerptChange('', 'hello world', 80), { before: '', after: 'hello world' });
});

test('should show where a long value changed, with the unchanged parts around it counted', () => {
  const page = 'x'.repeat(5000);
  const { before, after } = excerptChange(`${page}.`, `${page}, the end.`, 80);
  assert.equal(before, `(+4980 chars)…${'x'.repeat(20)}.`);
  assert.equal(after, `(+4980 chars)…${'x'.repeat(20)}, the end.`);
  const middle = excerptChange(`${page}A${page}`, `${page}B${page}`, 80);
  assert.equal(middle.before, `(+4980 chars)…${'x'.repeat(20)}A${'x'.repeat(20)}…(+4980 chars)`);
  assert.equal(middle.after, `(+4980 chars)…${'x'.repeat(20)}B${'x'.repeat(20)}…(+4980 chars)`);
});

test('should cut a long changed part like any text, and count astral characters once', () => {
  const { after } = excerptChange('a', `a${'😀'.repeat(300)}`, 80);
  assert.match(after, /^a😀{79}…\(\+221 chars\)$/u);
  const head = excerptChange(`${'é😀'.repeat(100)}!`, `${'é😀'.repeat(100)}?`, 40);
  assert.equal(head.before, `(+193 chars)…😀${'é😀'.repeat(3)}!`, 'never splits a surrogate pair, and counts what it left out in characters');
  assert.doesNotMatch(head.after, /[\ud800-\udfff]/u, 'no lone surrogate');
});
