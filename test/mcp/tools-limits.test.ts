// Absurd numbers and lengths are refused where the input is validated, with the limit stated,
// before anything is allocated or sent: the scripted desktop records every primitive, so
// "nothing ran" is checked, not assumed.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { LIMITS } from '../../src/core/limits.js';
import { COUNTER, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';

describe('mcp tools: every number and length is bounded, and the limit is stated', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  const refused = async (tool: string, args: Record<string, unknown>, pattern: RegExp): Promise<void> => {
    const started = Date.now();
    const result = await fixture.call(tool, args);
    assert.equal(result.isError, true, `${tool} ${JSON.stringify(args).slice(0, 80)}: ${textOf(result)}`);
    assert.match(textOf(result), pattern);
    assert.ok(Date.now() - started < 1_000, 'refused at once');
  };

  it('should refuse a billion scroll lines and a coordinate of 1e12 without doing anything', async () => {
    fixture = await mcpFixture();
    await refused('scroll_and_traverse', { pid: COUNTER, x: 10, y: 10, deltaY: 1e9 }, /deltaY must be a whole number from -1000 to 1000/);
    await refused('scroll_and_traverse', { pid: COUNTER, x: 10, y: 10, deltaY: 3, deltaX: -5000 }, /deltaX must be a whole number from -1000 to 1000/);
    await refused('click_and_traverse', { pid: COUNTER, x: 1e12, y: 5 }, /x must be a number of screen points from −100,000 to 100,000/);
    await refused('click_and_traverse', { pid: COUNTER, x: 5, y: -1e308 }, /y must be a number of screen points from −100,000 to 100,000/);
    await refused('click_and_traverse', { pid: COUNTER, x: 5, y: 5, width: 1e9, height: 10 }, /width must be a positive number of points up to 100,000/);
    assert.equal(fixture.desktop.actions().length, 0, 'no primitive ran');
    assert.equal(fixture.desktop.guardEngagements, 0);
  });

  it('should refuse text, lists and names beyond their limits', async () => {
    fixture = await mcpFixture();
    await refused('type_and_traverse', { pid: COUNTER, text: 'x'.repeat(LIMITS.typedChars + 1) }, /text must be a non-empty string of at most 100,000 characters/);
    await refused('click_and_traverse', { pid: COUNTER, element: 'y'.repeat(LIMITS.queryChars + 1) }, /element must be a non-empty string of at most 1,000 characters/);
    await refused('set_value_and_traverse', { pid: COUNTER, element: 'Name', value: 'v'.repeat(LIMITS.valueChars + 1) }, /value must be a string of at most 100,000 characters/);
    await refused('press_key_and_traverse', { pid: COUNTER, keyName: 'k'.repeat(65) }, /keyName must be a non-empty string of at most 64 characters/);
    await refused('press_key_and_traverse', { pid: COUNTER, keyName: 'a', modifierFlags: Array(9).fill('shift') }, /at most 8 strings/);
    await refused('click_and_traverse', { pid: COUNTER, element: 'Count', steps: Array(51).fill({ action: 'wait', ms: 1 }) }, /at most 50 steps per call/);
    await refused('click_and_traverse', { pid: COUNTER, element: 'Count', steps: [{ action: 'wait', ms: 1e15 }] }, /ms must be a whole number from 0 to 5000/);
    await refused('refresh_traversal', { pid: 2 ** 40 }, /pid must be a whole number from 1 to 4194304/);
    await refused('click_and_traverse', { pid: COUNTER, element_index: 1e10 }, /element_index must be a whole number from 0 to 1000000/);
    await refused('open_application_and_traverse', { identifier: 'a'.repeat(LIMITS.queryChars + 1) }, /identifier must be a non-empty string of at most 1,000 characters/);
    assert.equal(fixture.desktop.actions().length, 0, 'no primitive ran');
  });

  it('should take a 40,000-character text (the limit leaves room for real work)', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('type_and_traverse', { pid: COUNTER, text: 'z'.repeat(40_000) });
    assert.equal(result.isError, undefined, textOf(result));
  });
});
