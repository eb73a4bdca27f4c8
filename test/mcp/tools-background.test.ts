// background and if_revision at the MCP boundary, over the real engine and the scripted desktop:
// the answer says a call ran in the background (a text line and structuredContent), a step that
// needs real input is refused with words saying what to send instead, tools whose only step needs
// real input do not take `background`, and both parameters reach core's ActRequest.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, it } from 'node:test';
import type { ActRequest } from '../../src/core/engineApi.js';
import { callResultOutput } from '../../src/mcp/outputSchemas.js';
import { indexOnLine } from '../support/treeIndex.js';
import { COUNTER, line, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';

describe('mcp: background calls', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  async function counterIndex(): Promise<number> {
    const tree = await fixture.call('get_window_state', { pid: COUNTER });
    return indexOnLine(await readFile(line(tree, 'file')!, 'utf8'), '[PushButton] "Count: 0"');
  }

  it('should press an element in the background and say so, in text and structured', async () => {
    fixture = await mcpFixture(undefined, { server: { profile: 'driver' } });
    const result = await fixture.call('click', { pid: COUNTER, element_index: await counterIndex(), background: true });
    assert.equal(line(result, 'status'), 'ok', textOf(result));
    assert.match(line(result, 'background') ?? '', /^yes: through accessibility alone/);
    assert.equal(callResultOutput.parse(result.structuredContent).background, true);
    assert.doesNotMatch(line(result, 'restore') ?? '', /cursor put back/, 'nothing was moved, so nothing is said to be put back');
    assert.equal(fixture.desktop.guardEngagements, 0);
    assert.ok(fixture.desktop.actions().includes('action press "Count: 0"'));
  });

  it('should not say background for a foreground call', async () => {
    fixture = await mcpFixture(undefined, { server: { profile: 'driver' } });
    const result = await fixture.call('click', { pid: COUNTER, element_index: await counterIndex() });
    assert.equal(line(result, 'background'), undefined);
    assert.equal(callResultOutput.parse(result.structuredContent).background, undefined);
  });

  it('should refuse a click at a point in the background, naming the step and what to send instead', async () => {
    fixture = await mcpFixture(undefined, { server: { profile: 'driver' } });
    const result = await fixture.call('click', { pid: COUNTER, x: 60, y: 25, background: true });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /Step 1 \(click\) cannot run in the background: a click at a point needs the pointer/);
    assert.match(textOf(result), /Send that step without background/);
    assert.deepEqual(fixture.desktop.actions(), [], 'nothing was done');
  });

  it('should not offer background on tools whose one step needs real input', async () => {
    fixture = await mcpFixture(undefined, { server: { profile: 'driver' } });
    for (const [tool, args] of [
      ['press_key', { pid: COUNTER, key: 'a' }],
      ['scroll', { pid: COUNTER, x: 60, y: 25, direction: 'down' }],
      ['drag', { pid: COUNTER, from: { x: 60, y: 25 }, to: { x: 90, y: 25 } }],
    ] as const) {
      const result = await fixture.call(tool, { ...args, background: true });
      assert.equal(result.isError, true, tool);
      assert.match(textOf(result), /Unknown parameter "background"/, tool);
    }
  });

  it('should carry background and if_revision to core for every acting tool that takes them', async () => {
    fixture = await mcpFixture(undefined, { server: { profile: 'driver' } });
    const seen: ActRequest[] = [];
    const act = fixture.engine.act.bind(fixture.engine);
    fixture.engine.act = (request, context) => {
      seen.push(request);
      return act(request, context);
    };
    await fixture.call('set_value', { pid: COUNTER, element: 'Name', role: 'text', value: 'Ada', background: true, if_revision: 7 });
    await fixture.call('press_key', { pid: COUNTER, key: 'a', if_revision: 8 });
    await fixture.call('run_steps', { pid: COUNTER, steps: [{ action: 'wait', ms: 0 }], background: false });
    assert.deepEqual(seen.map(({ background, ifRevision }) => ({ background, ifRevision })), [
      { background: true, ifRevision: 7 },
      { background: undefined, ifRevision: 8 },
      { background: false, ifRevision: undefined },
    ]);
  });
});
