// Where the person's settings file lives: one per user, beside the other per-user folders
// Tandem picks (socket/paths.ts). TANDEM_CONFIG_DIR overrides it (tests, several setups side by
// side). Linux follows the XDG base directories: $XDG_CONFIG_HOME/tandem when that is set to an
// absolute path (the spec says to ignore a relative one), else ~/.config/tandem, home taken from
// the user database like the socket's. macOS: ~/Library/Application Support/Tandem, the app's
// own folder (where its socket lives too). The folder is 0700 and the file 0600
// (core/settings.ts writes them).

import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';

export const CONFIG_FILE_NAME = 'config.json';

export function configDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = userInfo().homedir): string {
  if (env.TANDEM_CONFIG_DIR) return env.TANDEM_CONFIG_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Tandem');
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.config'), 'tandem');
}

export function configFile(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home?: string): string {
  return join(configDirectory(env, platform, home), CONFIG_FILE_NAME);
}
