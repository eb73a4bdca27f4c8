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
});
