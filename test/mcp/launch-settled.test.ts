// A launch answer says settled: no when the new window was still changing at the bound (its
// screenshot may show it half drawn), and nothing about it when it settled.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { counterDesktop, counterTree } from '../support/engineFixtures.js';
import { line, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';

const viewerDesktop = () => counterDesktop({ installable: [{ pid: 600, name: 'Viewer', tree: counterTree() }] });

describe('mcp: launch_app says whether the new window settled', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  it('should say settled: no, in a line and in structuredContent, when the app was still changing at the bound', async () => {
    const desktop = viewerDesktop();
    desktop.settleOutcome = 'cap';
    fixture = await mcpFixture(desktop);
    const launched = await fixture.call('launch_app', { name: 'Viewer' });
    assert.equal(launched.isError, undefined, textOf(launched));
    assert.match(line(launched, 'settled') ?? '', /^no: Viewer was still drawing its window/);
    assert.equal((launched.structuredContent as { settled?: boolean }).settled, false);
  });

  it('should say nothing about settling when the app settled', async () => {
    fixture = await mcpFixture(viewerDesktop());
    const launched = await fixture.call('launch_app', { name: 'Viewer' });
    assert.equal(line(launched, 'settled'), undefined, textOf(launched));
    assert.equal((launched.structuredContent as { settled?: boolean }).settled, undefined);
  });
});
