// The MCP client configurations the tray and the wizard copy: each in the format its client reads.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mcpClientConfigs, shellQuote } from '../../src/shared/mcpClientConfig.js';
import { launcherInvocation } from '../../src/main/launcherInvocation.js';

describe('MCP client configs', () => {
  const packaged = launcherInvocation({ packaged: true, resourcesPath: '/Applications/Tandem.app/Contents/Resources', cliPath: '/ignored' });

  it('should point every client at the launcher bundled in the app', () => {
    assert.deepEqual(packaged, { command: '/Applications/Tandem.app/Contents/Resources/bin/tandem', args: ['mcp'] });
    const byClient = Object.fromEntries(mcpClientConfigs(packaged, 'darwin').map((config) => [config.client, config]));
    assert.deepEqual(JSON.parse(byClient['claude-desktop'].text), { mcpServers: { tandem: { command: packaged.command, args: ['mcp'] } } });
    assert.match(byClient['claude-desktop'].where, /Library\/Application Support\/Claude\/claude_desktop_config\.json/);
    assert.deepEqual(JSON.parse(byClient.cursor.text), { mcpServers: { tandem: { command: packaged.command, args: ['mcp'] } } });
    assert.deepEqual(JSON.parse(byClient.vscode.text), { servers: { tandem: { type: 'stdio', command: packaged.command, args: ['mcp'] } } });
    assert.equal(byClient['claude-code'].kind, 'command');
    assert.equal(byClient['claude-code'].text, 'claude mcp add --scope user tandem -- /Applications/Tandem.app/Contents/Resources/bin/tandem mcp');
  });

  it('should quote paths with spaces so the Claude Code command pastes into a shell as is', () => {
    const configs = mcpClientConfigs({ command: '/home/ann/My Apps/tandem', args: ['mcp'] }, 'linux');
    const command = configs.find((config) => config.client === 'claude-code')!.text;
    assert.equal(command, "claude mcp add --scope user tandem -- '/home/ann/My Apps/tandem' mcp");
    assert.equal(shellQuote("it's"), `'it'\\''s'`);
    assert.match(configs.find((config) => config.client === 'claude-desktop')!.where, /~\/\.config\/Claude/);
  });

  it('should run the launcher through node from a source checkout', () => {
    const dev = launcherInvocation({ packaged: false, resourcesPath: '/ignored', cliPath: '/src/tandem/dist/src/launcher/cli.js', nodePath: '/usr/bin/node' });
    assert.deepEqual(dev, { command: '/usr/bin/node', args: ['/src/tandem/dist/src/launcher/cli.js', 'mcp'] });
  });

  it('should name node by its absolute path from a checkout, or run the app binary as node without one', () => {
    const found = launcherInvocation({ packaged: false, resourcesPath: '/ignored', cliPath: '/cli.js', env: { PATH: `relative:${process.execPath.replace(/\/node$/, '')}` } });
    assert.equal(found.command, process.execPath, 'a GUI-launched client has no shell PATH: the config must not say plain "node"');
    const none = launcherInvocation({ packaged: false, resourcesPath: '/ignored', cliPath: '/cli.js', env: { PATH: '/nowhere' }, appBinary: '/opt/Tandem/tandem-app' });
    assert.deepEqual(none, { command: '/opt/Tandem/tandem-app', args: ['/cli.js', 'mcp'], env: { ELECTRON_RUN_AS_NODE: '1' } });
  });

  it('should carry the display and session bus on Linux, which MCP clients strip from the environment', () => {
    const env = { DISPLAY: ':0', XAUTHORITY: '/home/ann/.Xauthority', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus', SECRET: 'no' };
    const linux = launcherInvocation({ packaged: true, resourcesPath: '/opt/Tandem/resources', cliPath: '/ignored', platform: 'linux', env });
    assert.deepEqual(linux.env, { DISPLAY: ':0', XAUTHORITY: '/home/ann/.Xauthority', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' });
    const byClient = Object.fromEntries(mcpClientConfigs(linux, 'linux').map((config) => [config.client, config]));
    assert.deepEqual(JSON.parse(byClient['claude-desktop'].text).mcpServers.tandem.env, linux.env);
    assert.deepEqual(JSON.parse(byClient.vscode.text).servers.tandem.env, linux.env);
    assert.equal(byClient['claude-code'].text, "claude mcp add --scope user -e DISPLAY=:0 -e XAUTHORITY=/home/ann/.Xauthority -e DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus tandem -- /opt/Tandem/resources/bin/tandem mcp");
    assert.equal(launcherInvocation({ packaged: true, resourcesPath: '/R', cliPath: '/x', platform: 'darwin', env }).env, undefined, 'macOS needs none');
  });
});
