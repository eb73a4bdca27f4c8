// An SDK Client connected in-process to our own server, so a shell command (`tandem call`) runs
// a tool through exactly the code path an MCP client uses: schemas, validation, rendering and
// error mapping. Kept in src/mcp so the SDK stays imported from one layer only.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TandemEngine } from '../core/engineApi.js';
import { createMcpServer, type McpServerOptions } from './server.js';

export interface InProcessCall {
  /** Text content items, in order. */
  texts: string[];
  isError: boolean;
  structuredContent?: Record<string, unknown>;
}

export async function callToolInProcess(
  engine: TandemEngine,
  name: string,
  args: Record<string, unknown>,
  options: McpServerOptions & { clientId: string },
): Promise<InProcessCall> {
  const server = createMcpServer(engine, options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: options.clientId, version: options.version ?? '0.0.0' });
  await client.connect(clientTransport);
  try {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const texts = result.content.flatMap((item) => (item.type === 'text' ? [item.text] : []));
    return { texts, isError: result.isError === true, structuredContent: result.structuredContent };
  } finally {
    await client.close();
    await server.close();
  }
}
