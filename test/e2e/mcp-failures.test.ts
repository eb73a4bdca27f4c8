// When things go wrong: the target app dies or freezes mid-call, a secret is typed, the model
// sends nonsense. Each call must answer (never hang), say clearly what happened, leak nothing,
// and leave the server serving.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, parseTreeLines, type ToolResult, startDesktopSession, stopDesktopSession } from '../support/e2eHarness.js';

describe('MCP failure handling on real apps', { timeout: 180_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;

  before(async () => ({ desktop, server, fixture } = await startDesktopSession()));
  after(() => stopDesktopSession({ desktop, server }));

  /** The server still answers a read-only call about a live app. */
  async function assertServing(): Promise<void> {
    const apps = await server.callOk('list_applications', {});
    assert.ok((apps.structured.apps as Array<{ pid: number }>).some((app) => app.pid === fixture.pid), 'the fixture is listed');
  }

  test('should answer about a frozen app within the traversal budget, marked partial', async () => {
    const frozen = await FixtureApp.start(desktop);
    try {
      await server.callOk('refresh_traversal', { pid: frozen.pid });
      process.kill(frozen.pid, 'SIGSTOP');
      const result = await server.call('refresh_traversal', { pid: frozen.pid }, 30_000);
      const code = (result.structured.error as { code: string } | undefined)?.code;
      assert.ok(result.structured.truncated !== undefined || code === 'timeout', `marked partial or timed out:\n${result.text}`);
      assert.match(result.text, /truncated|timeout|not answer|respond/i);
      await assertServing();
    } finally {
      await frozen.stop();
    }
  });

  test('should never write a typed password into artifacts, responses or logs', async () => {
    const secret = 'Hunter2-Tandem-s3cret';
    // A secure field keeps its name (its label is not secret); here it is found by its role.
    const tree = (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;
    const field = parseTreeLines(readFileSync(tree, 'utf8')).find((line) => line.role === 'PasswordText');
    assert.ok(field && Number.isFinite(field.x), 'the password field is in the tree');
    const target = { x: field.x, y: field.y, width: field.width, height: field.height };
    const typed = await server.callOk('click_and_traverse', { pid: fixture.pid, ...target, text: secret, pressKey: 'return' });
    const submitted = await fixture.waitForEvent((event) => event.event === 'password-submitted');
    assert.equal(submitted.length, secret.length, 'the app received the whole secret');
    const refreshed = await server.callOk('refresh_traversal', { pid: fixture.pid });
    assert.match(readFileSync(refreshed.structured.file as string, 'utf8'), /^#\d+ \[PasswordText\] "Password" x:.*secure$/m, 'the field is in the tree by its name, without a value');
    const index = parseTreeLines(readFileSync(tree, 'utf8')).indexOf(field);
    await server.call('set_value_and_traverse', { pid: fixture.pid, element_index: index, value: `${secret}-set` });

    const artifacts = dirname(typed.structured.file as string);
    const files = readdirSync(artifacts, { recursive: true }).map((name) => join(artifacts, String(name)));
    assert.ok(files.length >= 2);
    for (const file of files) {
      let content: Buffer;
      try {
        content = readFileSync(file);
      } catch {
        continue; // a directory
      }
      assert.equal(content.includes(secret), false, `the secret is in ${file}`);
    }
    assert.equal(JSON.stringify(server.responses).includes(secret), false, 'the secret is in a response');
    assert.equal(server.stderr.includes(secret), false, "the secret is in the server's log");
  });

  test('should answer every kind of bad input with an error that says what to send, and keep serving', async () => {
    const pid = fixture.pid;
    const cases: Array<[string, Record<string, unknown>]> = [
      ['refresh_traversal', {}],
      ['refresh_traversal', { pid: 'abc' }],
      ['refresh_traversal', { pid: -1 }],
      ['refresh_traversal', { pid: 1.5 }],
      ['refresh_traversal', { pid: 999_999 }],
      ['refresh_traversal', { pid, extra: true }],
      ['open_application_and_traverse', { identifier: '' }],
      ['open_application_and_traverse', { identifier: 'no-such-app-tandem-e2e' }],
      ['click_and_traverse', { pid }],
      ['click_and_traverse', { pid, x: 10 }],
      ['click_and_traverse', { pid, x: 10, y: 10, element: 'Count' }],
      ['click_and_traverse', { pid, element: 'No such element anywhere' }],
      ['click_and_traverse', { pid, element_index: 100_000 }],
      ['click_and_traverse', { pid, element: 'Count', doubleClick: true, rightClick: true }],
      ['click_and_traverse', { pid, steps: [] }],
      ['click_and_traverse', { pid, steps: [{ action: 'dance' }] }],
      ['click_and_traverse', { pid, steps: [{ action: 'wait', ms: 600_000 }] }],
      ['type_and_traverse', { pid, text: '' }],
      ['type_and_traverse', { pid, text: 'x', pressKey: 'not-a-key' }],
      ['press_key_and_traverse', { pid, keyName: 'hyperspace' }],
      ['press_key_and_traverse', { pid, keyName: 'a', modifierFlags: ['telepathy'] }],
      ['scroll_and_traverse', { pid, x: 100, y: 100, deltaY: 0 }],
      ['scroll_and_traverse', { pid, x: 'left', y: 100, deltaY: 3 }],
      ['set_value_and_traverse', { pid, value: 'x' }],
      ['press_ax_and_traverse', { pid, element: 'No such element anywhere' }],
      ['set_selected_and_traverse', { pid }],
      ['no_such_tool', { pid }],
    ];
    const countsBefore = fixture.eventsNamed('count').length;
    const failures: string[] = [];
    for (const [tool, args] of cases) {
      const result: ToolResult = await server.call(tool, args, 20_000);
      if (!result.isError) failures.push(`${tool} ${JSON.stringify(args)} was not an error:\n${result.text}`);
      else if (result.text.trim().length < 10) failures.push(`${tool} ${JSON.stringify(args)}: no explanation (${result.text})`);
    }
    assert.deepEqual(failures, []);
    assert.equal(fixture.eventsNamed('count').length, countsBefore, 'no bad call clicked anything');
    await assertServing();
  });

  test('should answer with a clear error when the target app is killed mid-call', async () => {
    const victim = await FixtureApp.start(desktop);
    const call = server.call('click_and_traverse', {
      pid: victim.pid,
      element: 'Name entry',
      role: 'text',
      text: 'v',
      steps: [{ action: 'wait', ms: 3000 }, { action: 'type', text: 'w' }],
    });
    await victim.waitForEvent((event) => event.event === 'name' && event.text === 'v');
    const seenBefore = fixture.events.length;
    process.kill(victim.pid, 'SIGKILL');
    const result = await call;
    assert.equal(result.isError, true, result.text);
    // The later steps were meant for the dead app: none of them may land in another app.
    const stray = fixture.events.slice(seenBefore).filter((event) => event.event === 'key' || event.event === 'name');
    assert.deepEqual(stray, [], 'keys meant for the dead app reached another app');
    assert.equal((result.structured.error as { code: string } | undefined)?.code, 'app-gone', result.text);
    assert.match(result.text, new RegExp(`${victim.pid}|exited|gone|no longer`, 'i'));
    await assertServing();
  });
});
