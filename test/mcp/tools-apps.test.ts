// launch_app and kill_app through the SDK client over the in-memory transport: their annotations,
// the refusals the model reads (which fields, which limits), and the answers' lines and
// structuredContent (the client checks it against the declared output schema).
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { counterDesktop, counterTree } from '../support/engineFixtures.js';
import { line, mcpFixture, textOf, type McpFixture } from './mcpFixture.js';

const EDITOR = 500;
const editorDesktop = () =>
  counterDesktop({
    apps: [
      {
        pid: EDITOR,
        name: 'Editor',
        tree: { role: 'Application', text: 'Editor', children: [{ role: 'Window', text: 'notes - Editor', bounds: { x: 10, y: 10, width: 400, height: 300 } }] },
        onQuit: 'ask',
      },
    ],
    installable: [{ pid: 600, name: 'Viewer', tree: counterTree() }],
  });

describe('mcp: launch_app and kill_app', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  it('should declare kill_app destructive and not idempotent, launch_app not destructive', async () => {
    fixture = await mcpFixture(editorDesktop());
    const { tools } = await fixture.client.listTools();
    const kill = tools.find((tool) => tool.name === 'kill_app');
    const launch = tools.find((tool) => tool.name === 'launch_app');
    assert.deepEqual([kill?.annotations?.destructiveHint, kill?.annotations?.idempotentHint, kill?.annotations?.readOnlyHint], [true, false, false]);
    assert.deepEqual([launch?.annotations?.destructiveHint, launch?.annotations?.readOnlyHint], [false, false]);
  });

  it('should refuse two targets, a relative path, too many arguments and a url that reads as an option, saying what to send', async () => {
    fixture = await mcpFixture(editorDesktop());
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'Viewer', path: '/usr/bin/viewer' }, /exactly one of name, id or path/],
      [{}, /exactly one of name, id or path/],
      [{ path: 'bin/viewer' }, /path must be absolute/],
      [{ name: 'Viewer', args: Array(33).fill('-v') }, /args takes at most 32 strings/],
      [{ name: 'Viewer', args: ['x'.repeat(1001)] }, /each of args must be a string of at most 1,000 characters/],
      [{ name: 'Viewer', urls: ['--load-extension=evil'] }, /absolute path or a URL with a scheme/],
    ];
    for (const [args, message] of cases) {
      const result = await fixture.call('launch_app', args);
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match(textOf(result), message);
    }
    assert.equal(fixture.desktop.launchRequests.length, 0, 'nothing was started');
  });

  it("should answer a launch with the pid and windows, and a kill with the app's question, its element_index lines and the hint to decide", async () => {
    fixture = await mcpFixture(editorDesktop());
    const launched = await fixture.call('launch_app', { name: 'Viewer', args: ['--page', '2'] });
    assert.equal(launched.isError, undefined, textOf(launched));
    assert.equal(line(launched, 'pid'), '600');
    assert.equal(line(launched, 'started'), 'new');
    assert.match(textOf(launched), /^window: \d+ title /m);

    const asked = await fixture.call('kill_app', { pid: EDITOR });
    assert.equal(line(asked, 'status'), 'asking', textOf(asked));
    assert.match(textOf(asked), /  #\d+ \[PushButton\] "Save"/);
    assert.match(line(asked, 'hint') ?? '', /nothing was pressed/);
    const structured = asked.structuredContent as { dialog: { title: string }; unsaved_work_may_be_lost: boolean };
    assert.deepEqual([structured.dialog.title, structured.unsaved_work_may_be_lost], ['Save changes?', false]);
    assert.ok(asked.content.some((item) => item.type === 'resource_link'), 'the tree and screenshot are linked');

    const forced = await fixture.call('kill_app', { pid: EDITOR, force: true });
    assert.equal(line(forced, 'status'), 'exited');
    assert.equal(line(forced, 'unsaved_work'), 'may be lost');
  });
});
