// Where the app's MCP socket lives: one per-user folder with mode 0700 holding `tandem.sock`
// (0600). The folder is what keeps other users out: on Linux and macOS connecting to a Unix
// socket needs search permission on its directory, so a 0700 folder owned by us is sufficient
// even before the host's peer-uid check.

import { chmod, lstat, mkdir } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export const SOCKET_FILE_NAME = 'tandem.sock';

/**
 * The per-user socket folder. TANDEM_SOCKET_DIR overrides it (tests, several hosts side by side).
 * Linux: $XDG_RUNTIME_DIR/tandem (already private to the user and cleared at logout), else
 * /tmp/tandem-<uid>. macOS: $TMPDIR/tandem — $TMPDIR is the per-user /var/folders/…/T/, short
 * enough for the 104-byte sun_path limit.
 */
export function socketDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TANDEM_SOCKET_DIR) return env.TANDEM_SOCKET_DIR;
  if (platform === 'linux' && env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'tandem');
  if (platform === 'darwin') return join(env.TMPDIR ?? tmpdir(), 'tandem');
  return join(tmpdir(), `tandem-${userInfo().uid}`);
}

export function socketPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  return join(socketDirectory(env, platform), SOCKET_FILE_NAME);
}

/**
 * Creates the folder 0700, or checks an existing one: it must be a real directory (not a
 * symlink someone planted) owned by us; a looser mode of our own folder is tightened.
 */
export async function ensurePrivateDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stats = await lstat(dir);
  if (!stats.isDirectory()) throw new Error(`${dir} is not a directory: remove it or set TANDEM_SOCKET_DIR.`);
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw new Error(`${dir} belongs to uid ${stats.uid}, not to you (uid ${uid}): refusing to put the socket there.`);
  }
  if ((stats.mode & 0o777) !== 0o700) await chmod(dir, 0o700);
}
