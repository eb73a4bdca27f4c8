// An MCP client spawns the launcher with the SDK's default environment (HOME, LOGNAME, PATH,
// SHELL, TERM, USER — no TMPDIR, no XDG_RUNTIME_DIR): it must still find the host the app (here
// `tandem serve`) started with the person's full environment, and never start a second one.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { socketPath } from '../../src/launcher/socket/paths.js';
import { launcherArgs } from './support/launcher.js';

/** pids of running `tandem serve` processes (their command line names cli and serve). */
function servePids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
        return argv.some((arg) => /launcher[/\\]cli\.(js|ts)$/.test(arg)) && argv.includes('serve') ? [Number(name)] : [];
      } catch {
        return [];
      }
    });
}

describe("launcher under an MCP client's stripped environment", { skip: process.platform !== 'linux' && 'Linux /proc check', timeout: 60_000 }, () => {
  let host: ChildProcess | undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-default-env-'));

  after(() => {
    host?.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  });

  it('should find the host started with the full environment, and start no second one', async () => {
    const defaultSocket = socketPath({});
    assert.equal(existsSync(defaultSocket), false, `no host is running at ${defaultSocket} already`);
    // The person's session: its own TMPDIR and XDG_RUNTIME_DIR, which MCP clients do not pass on.
    const full: NodeJS.ProcessEnv = { ...process.env, TMPDIR: join(scratch, 'tmp'), XDG_RUNTIME_DIR: join(scratch, 'runtime'), TANDEM_ARTIFACTS_DIR: join(scratch, 'artifacts') };
    delete full.TANDEM_SOCKET_DIR;
    host = spawn(process.execPath, launcherArgs('serve'), { env: full, stdio: ['ignore', 'ignore', 'pipe'] });
    let hostLog = '';
    host.stderr?.on('data', (chunk: Buffer) => (hostLog += chunk.toString()));
    const deadline = Date.now() + 20_000;
    while (!existsSync(defaultSocket) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(existsSync(defaultSocket), `the host serves at ${defaultSocket}:\n${hostLog}`);
    // The socket exists a moment before the host prints where it serves: wait for the line too.
    const announced = new RegExp(`MCP host on ${defaultSocket.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
    while (!announced.test(hostLog) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.match(hostLog, announced);

    const stripped = getDefaultEnvironment();
    assert.equal(stripped.XDG_RUNTIME_DIR, undefined, 'the SDK strips it');
    const transport = new StdioClientTransport({ command: process.execPath, args: launcherArgs('mcp'), env: stripped, stderr: 'pipe' });
    const client = new Client({ name: 'stripped-env-client', version: '1' });
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(tools.includes('run_steps'), tools.join(', '));
    assert.deepEqual(servePids(), [host.pid], 'the launcher relayed to the running host and started no other');
    await client.close();
  });
});
