import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { mcpFixture, type McpFixture } from './mcpFixture.js';
import { TOOL_NAMES } from './toolNames.js';

interface JsonSchemaObject {
  type?: string;
  properties?: Record<string, { description?: string }>;
  required?: string[];
}

describe('mcp server: initialize and tools/list', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  it('should send instructions that teach the workflow', async () => {
    fixture = await mcpFixture();
    const instructions = fixture.client.getInstructions() ?? '';
    assert.match(instructions, /grep/i, 'grep the tree/diff file');
    assert.match(instructions, /screenshot/i);
    assert.match(instructions, /ONE call/);
    assert.match(instructions, /never from screenshot pixels/);
    assert.match(instructions, /app_switch/);
    assert.match(instructions, /Esc/);
    assert.deepEqual(fixture.client.getServerVersion(), { name: 'tandem', title: 'Tandem', version: '9.9.9-test' });
  });

  it('should list every tool: those of the reference server, list_applications, the inspection and the driver tools', async () => {
    fixture = await mcpFixture();
    const { tools } = await fixture.client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      TOOL_NAMES,
    );
  });

  it('should declare input and output schemas, a description and all four hints on every tool', async () => {
    fixture = await mcpFixture();
    const { tools } = await fixture.client.listTools();
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 40, `${tool.name} has a real description`);
      assert.ok(tool.title, `${tool.name} has a title`);
      const input = tool.inputSchema as JsonSchemaObject;
      assert.equal(input.type, 'object');
      for (const [name, property] of Object.entries(input.properties ?? {})) {
        assert.ok((property.description ?? '').length > 5, `${tool.name}.${name} is described`);
      }
      const output = tool.outputSchema as JsonSchemaObject | undefined;
      assert.equal(output?.type, 'object', `${tool.name} declares an output schema`);
      assert.ok(Object.keys(output?.properties ?? {}).length > 0);
      const hints = tool.annotations ?? {};
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        assert.equal(typeof hints[hint], 'boolean', `${tool.name} sets ${hint}`);
      }
    }
  });

  it('should mark only the reads (refresh, lists, cursor, permissions) as read-only, and acting tools as destructive', async () => {
    fixture = await mcpFixture();
    const { tools } = await fixture.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool.annotations ?? {}]));
    const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name);
    assert.deepEqual(readOnly.sort(), ['check_permissions', 'get_config', 'get_cursor_position', 'get_screen_size', 'get_window_state', 'list_applications', 'list_windows', 'refresh_traversal', 'zoom']);
    assert.equal(byName.get('click_and_traverse')?.destructiveHint, true);
    assert.equal(byName.get('click_and_traverse')?.idempotentHint, false);
    assert.equal(byName.get('open_application_and_traverse')?.destructiveHint, false);
    assert.equal(byName.get('refresh_traversal')?.destructiveHint, false);
  });

  it('should require the reference parameters and offer steps on click, type and press', async () => {
    fixture = await mcpFixture();
    const { tools } = await fixture.client.listTools();
    const schema = (name: string): JsonSchemaObject => tools.find((tool) => tool.name === name)!.inputSchema as JsonSchemaObject;
    assert.deepEqual(schema('open_application_and_traverse').required, ['identifier']);
    assert.deepEqual(schema('click_and_traverse').required, ['pid']);
    assert.deepEqual(schema('type_and_traverse').required?.sort(), ['pid', 'text']);
    assert.deepEqual(schema('press_key_and_traverse').required?.sort(), ['keyName', 'pid']);
    assert.deepEqual(schema('scroll_and_traverse').required?.sort(), ['deltaY', 'pid', 'x', 'y']);
    assert.deepEqual(schema('set_value_and_traverse').required?.sort(), ['pid', 'value']);
    for (const name of ['click_and_traverse', 'type_and_traverse', 'press_key_and_traverse']) {
      assert.ok(schema(name).properties?.steps, `${name} accepts steps`);
    }
    for (const name of ['width', 'height', 'element', 'role', 'doubleClick', 'rightClick', 'text', 'pressKey', 'pressKeyModifiers']) {
      assert.ok(schema('click_and_traverse').properties?.[name], `click_and_traverse accepts ${name}`);
    }
  });
});
