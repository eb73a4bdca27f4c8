// The bytes a client's model carries for Tandem's tools: tools/list as served through a real MCP
// client (the SDK's JSON, output schemas included) and the part a model reads every turn (name,
// description, input schema). Shared by scripts/toolSizes.ts and the size test.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TandemEngine } from '../../src/core/engineApi.js';
import type { ToolProfile } from '../../src/core/settings.js';
import { createMcpServer } from '../../src/mcp/server.js';

export interface ToolListSize {
  profile: ToolProfile;
  tools: number;
  /** The whole tools/list result, as JSON. */
  listBytes: number;
  /** name + description + inputSchema of every tool, as JSON. */
  modelBytes: number;
  /** The largest tools by name + description + inputSchema. */
  largest: Array<{ name: string; bytes: number }>;
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The tools/list a client of `profile` receives (listing touches no engine). */
export async function listedTools(profile: ToolProfile): Promise<Tool[]> {
  const server = createMcpServer({} as TandemEngine, { profile });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'tool-size', version: '0.0.0' });
  await client.connect(clientTransport);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await server.close();
  }
}

export async function toolListSize(profile: ToolProfile): Promise<ToolListSize> {
  const tools = await listedTools(profile);
  const model = tools.map((tool) => ({ name: tool.name, bytes: bytes({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }) }));
  return {
    profile,
    tools: tools.length,
    listBytes: bytes({ tools }),
    modelBytes: bytes(tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }))),
    largest: model.sort((a, b) => b.bytes - a.bytes).slice(0, 5),
  };
}
