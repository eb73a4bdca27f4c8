// MCP progress notifications: a call that carries a progressToken hears of each step (labelled
// as the live feed labels it: a secure field's text is never shown) and, while a long text is
// typed, of how many characters the app has taken in.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { COUNTER, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';

describe('mcp: progress notifications', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  it('should send one notice per step and one per 500 characters typed, always growing', async () => {
    fixture = await mcpFixture();
    const notices: Progress[] = [];
    const text = 'q'.repeat(1_600);
    const result = await fixture.client.callTool(
      { name: 'click_and_traverse', arguments: { pid: COUNTER, element: 'Name', role: 'text', steps: [{ action: 'type', text }, { action: 'press', keyName: 'return' }] } },
      undefined,
      { onprogress: (notice) => notices.push(notice) },
    );
    assert.equal(result.isError, undefined, textOf(result as never));
    assert.deepEqual(
      notices.map((notice) => (notice.message ?? '').replace(/"q+…\(\+\d+ chars\)"/, '"q…"')),
      [
        'step 1 of 3: Click [text] "Name"',
        'step 2 of 3: Type "q…"',
        'step 2 of 3: 500 of 1,600 characters typed',
        'step 2 of 3: 1,000 of 1,600 characters typed',
        'step 2 of 3: 1,500 of 1,600 characters typed',
        'step 3 of 3: Press return',
      ],
    );
    for (let i = 1; i < notices.length; i++) assert.ok(notices[i].progress > notices[i - 1].progress, 'progress only grows');
    assert.ok(notices.every((notice) => notice.total === 3));
  });

  it('should never show what is typed into a secure field', async () => {
    fixture = await mcpFixture();
    const notices: Progress[] = [];
    const secret = 'Hunter2-progress';
    await fixture.client.callTool(
      { name: 'click_and_traverse', arguments: { pid: COUNTER, x: 10, y: 130, width: 200, height: 30, text: secret } },
      undefined,
      { onprogress: (notice) => notices.push(notice) },
    );
    assert.ok(notices.length >= 2, JSON.stringify(notices));
    assert.ok(!JSON.stringify(notices).includes('Hunter2'), JSON.stringify(notices));
  });

  it('should send nothing to a call without a progressToken', async () => {
    fixture = await mcpFixture();
    let notified = 0;
    fixture.client.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).ProgressNotificationSchema, () => {
      notified++;
    });
    await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Name', role: 'text', text: 'hi' });
    assert.equal(notified, 0);
  });
});
