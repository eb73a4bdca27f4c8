// An SDK Client connected over the in-memory transport to the real MCP server, over the real
// Engine, over the scripted desktop of the engine's tests (counter app, secure field, long list,
// a button that opens a save panel).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EngineOptions } from '../../src/core/engine.js';
import { createMcpServer, type McpServerOptions } from '../../src/mcp/server.js';
import { counterDesktop, engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import type { ScriptedDesktop } from '../support/scriptedDesktop.js';

export { COUNTER, FINDER, SAVE_PANEL, START_CURSOR } from '../support/engineFixtures.js';

export interface McpFixture extends EngineFixture {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** `options.engine` / `options.server`: what a test changes of the engine (settings) or the server (profile: default all, so a test may call any tool). */
export async function mcpFixture(desktop: ScriptedDesktop = counterDesktop(), options: { engine?: Partial<EngineOptions>; server?: McpServerOptions } = {}): Promise<McpFixture> {
  const fixture = await engineFixture(desktop, options.engine);
  const server = createMcpServer(fixture.engine, { version: '9.9.9-test', profile: 'all', ...options.server });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'mcp-test-client', version: '1.0.0' });
  await client.connect(clientTransport);
  // Listing once makes the SDK client check every later result's structuredContent against the
  // output schema the server advertised (it throws on a mismatch).
  await client.listTools();
  return {
    ...fixture,
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      await server.close();
      await fixture.cleanup();
    },
  };
}

/** All text content of a result, items separated by a blank line. */
export function textOf(result: CallToolResult): string {
  return result.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n\n');
}

/** The value of one `key: value` line of the summary, or undefined when the key is absent. */
export function line(result: CallToolResult, key: string): string | undefined {
  const first = result.content[0];
  if (!first || first.type !== 'text') return undefined;
  const found = first.text.split('\n').find((l) => l.startsWith(`${key}: `) || l === `${key}:`);
  return found === undefined ? undefined : found.slice(key.length + 1).trim();
}
