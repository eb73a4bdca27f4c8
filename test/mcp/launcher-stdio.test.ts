import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cliNodeArgs, headlessEnv, repoRoot } from './cliProcess.js';
import { TOOL_NAMES } from './toolNames.js';

// These tests call the reference tools: the session offers every tool.
const env = headlessEnv({ TANDEM_TOOLS: 'all' });
after(() => rmSync(env.TANDEM_ARTIFACTS_DIR, { recursive: true, force: true }));

function textOf(result: CallToolResult): string {
  return result.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
}

describe('tandem mcp --direct over stdio, with no display', () => {
  it('should initialize, list tools and answer a desktop tool with an actionable error', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...cliNodeArgs(), 'mcp', '--direct'],
      env,
      cwd: repoRoot,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    const transportErrors: Error[] = [];
    client.onerror = (error) => transportErrors.push(error);
    await client.connect(transport);
    try {
      assert.equal(client.getServerVersion()?.name, 'tandem');
      assert.match(client.getInstructions() ?? '', /grep/);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), TOOL_NAMES);

      const listed = (await client.callTool({ name: 'list_applications', arguments: {} })) as CallToolResult;
      assert.equal(listed.isError, true);
      assert.match(textOf(listed), /DISPLAY is not set/);
      assert.match(textOf(listed), /tandem doctor/);

      const clicked = (await client.callTool({ name: 'click_and_traverse', arguments: { pid: 1234, element: 'OK' } })) as CallToolResult;
      assert.equal(clicked.isError, true);
      assert.match(textOf(clicked), /DISPLAY/);

      // Still alive and still speaking protocol after the failures.
      await client.ping();
      assert.deepEqual(transportErrors, [], 'every stdout line was a JSON-RPC message');
      assert.match(stderr, /MCP server on stdio/, 'the banner went to stderr');
    } finally {
      await client.close();
    }
  });

  it('should print nothing but JSON-RPC messages on stdout and exit when stdin closes', async () => {
    const child = spawn(process.execPath, [...cliNodeArgs(), 'mcp', '--direct'], { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.resume();
    const send = (message: object): void => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    };
    const lines = (): string[] => stdout.split('\n').filter((l) => l.length > 0);
    const waitForLines = async (count: number): Promise<void> => {
      while (lines().length < count) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await waitForLines(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'refresh_traversal', arguments: { pid: 'not a number' } } });
    await waitForLines(3);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.end();
    assert.equal(await exited, 0, 'the server exits cleanly when the client closes stdin');

    const messages = lines().map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result?: { isError?: boolean; content?: { text: string }[] } });
    assert.deepEqual(
      messages.map((m) => [m.jsonrpc, m.id]),
      [
        ['2.0', 1],
        ['2.0', 2],
        ['2.0', 3],
      ],
    );
    assert.equal(messages[2].result?.isError, true);
    assert.match(messages[2].result?.content?.[0].text ?? '', /pid must be a whole number/);
  });
});
