import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { headlessEnv, repoRoot, runCli as runCliIn } from './cliProcess.js';
import { TOOL_NAMES } from './toolNames.js';

const env = headlessEnv();
after(() => rmSync(env.TANDEM_ARTIFACTS_DIR, { recursive: true, force: true }));
const runCli = (args: string[], extra: Record<string, string> = {}) => runCliIn(args, { ...env, ...extra });


describe('tandem CLI', () => {
  it('should list every tool with a one-line description', () => {
    const run = runCli(['tools']);
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trim().split('\n');
    assert.deepEqual(
      lines.map((l) => l.split(/\s+/)[0]),
      TOOL_NAMES,
    );
    for (const l of lines) assert.ok(l.length > 50 && l.endsWith('.'), `described: ${l}`);
  });

  it('should print the version from package.json and a help listing the commands', () => {
    const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    assert.equal(runCli(['--version']).stdout.trim(), version);
    const help = runCli(['--help']);
    assert.equal(help.status, 0);
    for (const command of ['mcp', 'call', 'tools', 'doctor']) assert.match(help.stdout, new RegExp(`^  ${command} `, 'm'));
    const unknown = runCli(['frobnicate']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
  });

  it('should reject call arguments with the usage and exit code 2', () => {
    const noTool = runCli(['call']);
    assert.equal(noTool.status, 2);
    assert.match(noTool.stderr, /Name the tool to call\. Tools: open_application_and_traverse/);
    assert.match(noTool.stderr, /Usage: tandem call <tool>/);

    const unknownTool = runCli(['call', 'clik', '{}']);
    assert.equal(unknownTool.status, 2);
    assert.match(unknownTool.stderr, /Unknown tool "clik"\. Tools: .*click_and_traverse/);

    const badJson = runCli(['call', 'refresh_traversal', '{pid:1}']);
    assert.equal(badJson.status, 2);
    assert.match(badJson.stderr, /not valid JSON.*Example: tandem call refresh_traversal '\{"pid":1234\}'/);

    const notObject = runCli(['call', 'refresh_traversal', '[1]']);
    assert.equal(notObject.status, 2);
    assert.match(notObject.stderr, /must be a JSON object/);
    assert.equal(noTool.stdout + unknownTool.stdout + badJson.stdout + notObject.stdout, '', 'mistakes go to stderr');
  });

  it('should run a call through the MCP path and exit 1 on an isError result', () => {
    const invalid = runCli(['call', 'refresh_traversal', '{"pid":"abc"}']);
    assert.equal(invalid.status, 1);
    assert.match(invalid.stdout, /pid must be a whole number from 1 to 4194304, not "abc"/);

    const noDisplay = runCli(['call', 'list_applications']);
    assert.equal(noDisplay.status, 1);
    assert.match(noDisplay.stdout, /^status: error\nerror: permission: DISPLAY is not set/);
    assert.match(noDisplay.stdout, /tandem doctor/);
  });

  it('should report a missing display in doctor with remedies instead of crashing', () => {
    const run = runCli(['doctor']);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stdout, /^✓ Node\.js: /m);
    assert.match(run.stdout, /^✓ Artifacts folder: .* \(mode 0700, writable\)/m);
    assert.match(run.stdout, /^✗ Desktop access: .*DISPLAY is not set/m);
    assert.match(run.stdout, /^ {4}→ /m);
    assert.equal(run.stderr, '');
  });

  it('should report a bad TANDEM_WATCHDOG_MS in doctor', () => {
    const run = runCli(['doctor'], { TANDEM_WATCHDOG_MS: 'soon' });
    assert.equal(run.status, 1);
    assert.match(run.stdout, /^✗ Settings: TANDEM_WATCHDOG_MS=soon is not valid/m);
  });
});
