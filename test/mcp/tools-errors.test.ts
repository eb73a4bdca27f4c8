import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallFinishedEvent } from '../../src/core/engineApi.js';
import { callResultOutput } from '../../src/mcp/outputSchemas.js';
import { COUNTER, line, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';

/** An isError result whose text matches every pattern; then the server must still answer. */
async function assertRefused(fixture: McpFixture, result: CallToolResult, ...patterns: RegExp[]): Promise<void> {
  assert.equal(result.isError, true, textOf(result));
  for (const pattern of patterns) assert.match(textOf(result), pattern);
  const after = await fixture.call('list_applications');
  assert.equal(after.isError, undefined, 'the server still answers');
}

describe('mcp tools: bad input comes back as an actionable isError result', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  it('should say which parameter is missing and where its value comes from', async () => {
    fixture = await mcpFixture();
    await assertRefused(fixture, await fixture.call('click_and_traverse', {}), /pid is required/, /list_applications/);
    await assertRefused(fixture, await fixture.call('open_application_and_traverse', {}), /identifier is required/);
    await assertRefused(fixture, await fixture.call('scroll_and_traverse', { pid: COUNTER, x: 1, y: 2 }), /deltaY is required/);
  });

  it('should name a wrong-typed parameter and what to send instead', async () => {
    fixture = await mcpFixture();
    await assertRefused(fixture, await fixture.call('refresh_traversal', { pid: 'Counter' }), /pid must be a whole number from 1 to 4194304, not "Counter"/);
    await assertRefused(fixture, await fixture.call('refresh_traversal', { pid: 12.5 }), /pid must be a whole number/);
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER, x: '10', y: 20 }), /x must be a number of screen points/, /from a tree line/);
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Name', doubleClick: 'yes' }), /doubleClick must be true or false/);
    await assertRefused(fixture, await fixture.call('press_key_and_traverse', { pid: COUNTER, keyName: 'a', modifierFlags: 'cmd' }), /modifierFlags must be an array of at most 8 strings/);
  });

  it('should name an unknown (misspelt) parameter and list the accepted ones', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Name', presskey: 'return' });
    await assertRefused(fixture, result, /Unknown parameter "presskey"/, /pressKey/);
    assert.equal(fixture.desktop.guardEngagements, 0, 'nothing ran');
  });

  it('should list the running apps for an unknown pid', async () => {
    fixture = await mcpFixture();
    await assertRefused(fixture, await fixture.call('refresh_traversal', { pid: 999 }), /unknown-app/, /pid 999/, /200 Counter/, /100 Finder/, /list_applications/);
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: 999, element: 'Save' }), /999/, /Counter/);
  });

  it('should send a stale element_index back to refresh_traversal', async () => {
    fixture = await mcpFixture();
    await fixture.call('refresh_traversal', { pid: COUNTER });
    await assertRefused(fixture, await fixture.call('press_ax_and_traverse', { pid: COUNTER, element_index: 4000 }), /stale-element/, /element_index 4000/, /refresh_traversal/);
  });

  it('should refuse empty text before anything is typed', async () => {
    fixture = await mcpFixture();
    await assertRefused(fixture, await fixture.call('type_and_traverse', { pid: COUNTER, text: '' }), /text must be a non-empty string/);
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER, steps: [{ action: 'type', text: '' }] }), /text must be a non-empty string/);
    assert.equal(fixture.desktop.guardEngagements, 0);
  });

  it('should list the key names for an unknown key, and the modifiers for an unknown modifier', async () => {
    fixture = await mcpFixture();
    await assertRefused(fixture, await fixture.call('press_key_and_traverse', { pid: COUNTER, keyName: 'florp' }), /Unknown key "florp"/, /return, tab, escape/);
    await assertRefused(
      fixture,
      await fixture.call('press_key_and_traverse', { pid: COUNTER, keyName: 's', modifierFlags: ['hyper'] }),
      /Unknown modifier "hyper"/,
      /shift, control, alt \(option\), meta \(command\/super\)/,
    );
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Name', pressKey: 'Entr' }), /Unknown key "Entr"/);
    assert.equal(fixture.desktop.guardEngagements, 0, 'refused before the guard');
  });

  it('should name the failing step of a steps list', async () => {
    fixture = await mcpFixture();
    await assertRefused(
      fixture,
      await fixture.call('click_and_traverse', { pid: COUNTER, steps: [{ action: 'click', element: 'Name' }, { action: 'press', keyName: 'nope' }] }),
      /steps\[1\] \(press\): Unknown key "nope"/,
    );
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER, steps: [{ action: 'jump' }] }), /Each step needs "action": one of click, type, press, hotkey, scroll, drag, wait/, /Example/);
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER, steps: [{ action: 'wait', ms: 60000 }] }), /ms must be a whole number from 0 to 5000/);
  });

  it('should list the closest candidates when no element matches', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Count: 9', role: 'button' });
    await assertRefused(fixture, result, /not-found/, /Count: 0/, /refresh_traversal/);
  });

  it('should say how to target a click when the target is missing or half given', async () => {
    fixture = await mcpFixture();
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER }), /Say where to click: x and y/);
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER, x: 10 }), /Send both x and y \(y is missing\)/);
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER, x: 10, y: 10, width: 5 }), /width and height together/);
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER, x: 10, y: 10, element: 'Name' }), /not both/);
    await assertRefused(fixture, await fixture.call('set_value_and_traverse', { pid: COUNTER, value: 'x' }), /needs a target: element/);
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER, role: 'button' }), /role "button" only filters/);
  });

  it('should tell the model to ask the person after they pressed Esc', async () => {
    fixture = await mcpFixture();
    fixture.desktop.when('click', () => fixture.desktop.human.pressEscape(), { once: true });
    const result = await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Name', role: 'text', text: 'never typed' });
    assert.equal(result.isError, true);
    assert.equal(line(result, 'status'), 'cancelled');
    assert.match(line(result, 'hint') ?? '', /Esc.*ask them/);
    const structured = callResultOutput.parse(result.structuredContent);
    assert.equal(structured.status, 'cancelled');
    assert.ok(!fixture.desktop.calls.some((call) => call.startsWith('type')), 'nothing typed after Esc');
    await assertRefused(fixture, result);
  });

  it('should say that control is paused and that read-only tools still work', async () => {
    fixture = await mcpFixture();
    fixture.engine.setPaused(true);
    await assertRefused(fixture, await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Name' }), /paused/, /ask them to resume/);
    const read = await fixture.call('refresh_traversal', { pid: COUNTER });
    assert.equal(read.isError, undefined);
  });

  it('should answer an unknown tool name with an error, not a crash', async () => {
    fixture = await mcpFixture();
    await assertRefused(fixture, await fixture.call('macos-use_click_and_traverse', { pid: COUNTER }), /not found/);
  });

  it('should cancel the engine call when the client cancels the request', async () => {
    fixture = await mcpFixture();
    const { desktop, engine, client } = fixture;
    desktop.behave('typeText', { hang: true });
    const finished = new Promise<CallFinishedEvent>((resolve) => engine.on('call-finished', resolve));
    const controller = new AbortController();
    desktop.when('type', () => controller.abort(), { once: true });
    await assert.rejects(
      client.callTool({ name: 'type_and_traverse', arguments: { pid: COUNTER, text: 'hangs' } }, undefined, { signal: controller.signal }),
      /abort/i,
    );
    const event = await finished;
    assert.equal(event.result.status, 'cancelled');
    assert.equal(desktop.guardEngaged, false, 'the guard is released');
    desktop.behave('typeText', undefined);
    const after = await fixture.call('list_applications');
    assert.equal(after.isError, undefined);
  });
});
