// `tandem mcp` with nothing listening: it starts the host (here `tandem serve`, what a source
// checkout uses), waits for the socket, and relays — the MCP client never notices.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { shellQuote } from '../../src/shared/mcpClientConfig.js';
import { launcherArgs } from './support/launcher.js';

describe('launcher: starting the host on demand', () => {
  let base: string | undefined;
  let servePid: number | undefined;
  after(async () => {
    if (servePid) {
      try {
        process.kill(servePid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('should start `tandem serve` when no host answers, then relay to it', async () => {
    base = await mkdtemp(join(tmpdir(), 'tandem-autostart-'));
    const socketDir = join(base, 'run');
    const pidFile = join(base, 'serve.pid');
    const serve = [process.execPath, ...launcherArgs('serve')].map(shellQuote).join(' ');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: launcherArgs('mcp'),
      env: {
        ...(process.env as Record<string, string>),
        TANDEM_SOCKET_DIR: socketDir,
        TANDEM_ARTIFACTS_DIR: join(base, 'artifacts'),
        TANDEM_APP_COMMAND: `${serve} & echo $! > ${shellQuote(pidFile)}`,
        TANDEM_CONNECT_TIMEOUT_MS: '30000',
      },
      stderr: 'inherit',
    });
    const client = new Client({ name: 'autostart-test', version: '1' });
    await client.connect(transport);
    servePid = Number((await readFile(pidFile, 'utf8')).trim());
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(tools.includes('run_steps'), tools.join(', '));
    assert.equal((await stat(socketDir)).mode & 0o777, 0o700);
    assert.ok(existsSync(join(socketDir, 'host.log')), 'the started host logs to the private folder');
    await client.close();

    // The started host outlives the client (other clients use it) and stops cleanly on SIGTERM.
    process.kill(servePid, 'SIGTERM');
    for (let i = 0; i < 100 && existsSync(join(socketDir, 'tandem.sock')); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(existsSync(join(socketDir, 'tandem.sock')), false, 'serve removed its socket on exit');
    servePid = undefined;
  });
});
