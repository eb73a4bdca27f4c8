// The MCP client configurations the tray's "Copy MCP config ▸" and the wizard's last step offer.
// One pure function so every client's snippet comes from the same launcher invocation and the
// formats are unit-tested (test/app/mcpClientConfig-formats.test.ts).

import type { McpClientConfig, McpClientId } from './types.js';

/** How an MCP client starts the bundled launcher (`tandem mcp`). */
export interface LauncherInvocation {
  command: string;
  args: string[];
  /**
   * Environment the launcher needs that MCP clients do not pass on (they keep HOME, PATH, USER…):
   * on Linux the display and the session bus, to start the app when it is not running.
   */
  env?: Record<string, string>;
}

export const MCP_SERVER_NAME = 'tandem';

/** POSIX shell quoting, only where needed, so the Claude Code command pastes as is. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export function mcpClientConfigs(launcher: LauncherInvocation, platform: 'darwin' | 'linux' | 'other'): McpClientConfig[] {
  const env = launcher.env && Object.keys(launcher.env).length ? launcher.env : undefined;
  const stdioServer = { command: launcher.command, args: launcher.args, ...(env ? { env } : {}) };
  const envFlags = Object.entries(env ?? {}).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
  const claudeDesktopFile =
    platform === 'darwin'
      ? '~/Library/Application Support/Claude/claude_desktop_config.json'
      : '~/.config/Claude/claude_desktop_config.json';
  const configs: Record<McpClientId, McpClientConfig> = {
    'claude-desktop': {
      client: 'claude-desktop',
      title: 'Claude Desktop',
      kind: 'json',
      text: json({ mcpServers: { [MCP_SERVER_NAME]: stdioServer } }),
      where: `Merge into ${claudeDesktopFile}, then restart Claude Desktop.`,
    },
    'claude-code': {
      client: 'claude-code',
      title: 'Claude Code',
      kind: 'command',
      text: ['claude', 'mcp', 'add', '--scope', 'user', ...envFlags, MCP_SERVER_NAME, '--', launcher.command, ...launcher.args]
        .map(shellQuote)
        .join(' '),
      where: 'Run in a terminal.',
    },
    cursor: {
      client: 'cursor',
      title: 'Cursor',
      kind: 'json',
      text: json({ mcpServers: { [MCP_SERVER_NAME]: stdioServer } }),
      where: 'Merge into ~/.cursor/mcp.json (or .cursor/mcp.json in a project).',
    },
    vscode: {
      client: 'vscode',
      title: 'VS Code',
      kind: 'json',
      text: json({ servers: { [MCP_SERVER_NAME]: { type: 'stdio', ...stdioServer } } }),
      where: 'Merge into .vscode/mcp.json, or run "MCP: Open User Configuration".',
    },
  };
  return Object.values(configs);
}
