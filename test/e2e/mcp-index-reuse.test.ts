// An element_index the agent was given for an element that is gone never silently means another
// (issue 19 §3), through a real MCP client (default tool profile) on the virtual desktop. The
// reload fixture rebuilds its "Early link" button below the others, as a page does on F5: the
// wrapper label after it takes its place in the tree, and its element_index. The app's own events
// are the oracle for what was pressed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, REPO_ROOT, delay } from '../support/e2eHarness.js';

const RELOAD_FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'tandem_reload_fixture.py');

describe('MCP: an element_index whose element is gone after a reload', { timeout: 180_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let app: FixtureApp;

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop, { args: [] });
    app = await FixtureApp.start(desktop, [], RELOAD_FIXTURE);
  });

  after(async () => {
    await app?.stop();
    await server?.close();
    await desktop?.stop();
  });

  /** The index get_window_state tags the first line containing `text` with, as a model greps it. */
  async function indexOf(text: string): Promise<number> {
    const read = await server.callOk('get_window_state', { pid: app.pid, query: text });
    const line = read.texts.join('\n').split('\n').find((candidate) => /^#\d+ /.test(candidate) && candidate.includes(text));
    assert.ok(line, `"${text}" is tagged:\n${read.texts.join('\n')}`);
    return Number(/^#(\d+) /.exec(line)![1]);
  }

  test('should refuse the old index of the rebuilt link, press nothing, name the index to send instead, and keep a moved element\'s index naming it', async () => {
    const linkIndex = await indexOf('Early link');
    const wrapperIndex = await indexOf('Wrapper paragraph');
    const reloaded = await server.callOk('run_steps', { pid: app.pid, steps: [{ action: 'click', element: 'Reload', role: 'button' }] });
    await app.waitForEvent((event) => event.event === 'reloaded');
    const refused = await server.call('click', { pid: app.pid, element_index: linkIndex });
    assert.ok(refused.isError, `refused, not "clicked" on what holds the index now:\n${refused.text}\n(the reload answered:\n${reloaded.text})`);
    assert.match(refused.text, /stale-element/);
    assert.match(refused.text, new RegExp(`element_index ${linkIndex} named \\[PushButton\\] "Early link" when it was last shown; that element is gone and ${linkIndex} now names \\[Label\\] "Wrapper paragraph"`));
    const instead = Number(/The one that looks like it now is element_index (\d+)\./.exec(refused.text)?.[1]);
    assert.ok(Number.isInteger(instead) && instead !== linkIndex, refused.text);
    await delay(300);
    assert.deepEqual(app.eventsNamed('link'), [], 'the app saw no press');
    // The wrapper moved up one place in the tree when the link went below it; Reload holds its old index now.
    const wrapper = await server.callOk('click', { pid: app.pid, element_index: wrapperIndex });
    assert.match(wrapper.text, /clicked \[Label\] "Wrapper paragraph"/, wrapper.text);
    await delay(300);
    assert.equal(app.eventsNamed('reloaded').length, 1, 'Reload was not pressed');
    await server.callOk('click', { pid: app.pid, element_index: instead });
    const pressed = await app.waitForEvent((event) => event.event === 'link');
    assert.equal(pressed.generation, 2, 'the index the refusal named is the rebuilt link');
  });
});
