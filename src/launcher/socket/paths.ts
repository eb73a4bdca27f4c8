// Where the app's MCP socket lives: one per-user folder with mode 0700 holding `tandem.sock`
// (0600). The folder is what keeps other users out: on Linux and macOS connecting to a Unix
// socket needs search permission on its directory, so a 0700 folder owned by us is sufficient
// even before the host's peer-uid check.

import { statSync } from 'node:fs';
import { chmod, lstat, mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';

export const SOCKET_FILE_NAME = 'tandem.sock';

/** Who we are, and where the user database says our home is (neither read from the environment). */
export interface SocketUser {
  uid: number;
  home: string;
}

function currentUser(): SocketUser {
  const info = userInfo();
  return { uid: info.uid, home: info.homedir };
}

function ownedDirectory(dir: string, uid: number): boolean {
  try {
    const stats = statSync(dir);
    return stats.isDirectory() && stats.uid === uid;
  } catch {
    return false;
  }
}

/**
 * The per-user socket folder. TANDEM_SOCKET_DIR overrides it (tests, several hosts side by
 * side). Otherwise it is derived from the uid and the user database, never from TMPDIR or
 * XDG_RUNTIME_DIR: MCP clients spawn the launcher with a stripped environment (the SDK keeps
 * HOME, LOGNAME, PATH, SHELL, TERM, USER), and it must find the socket the app made with the
 * full one. Linux: /run/user/<uid>/tandem where logind made that folder (private to the user,
 * cleared at logout), else /tmp/tandem-<uid>. macOS: ~/Library/Application Support/Tandem
 * (short enough for the 104-byte socket path limit).
 */
export function socketDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, user: SocketUser = currentUser()): string {
  if (env.TANDEM_SOCKET_DIR) return env.TANDEM_SOCKET_DIR;
  if (platform === 'darwin') return join(user.home, 'Library', 'Application Support', 'Tandem');
  const runtime = `/run/user/${user.uid}`;
  if (ownedDirectory(runtime, user.uid)) return join(runtime, 'tandem');
  return `/tmp/tandem-${user.uid}`;
}

export function socketPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, user?: SocketUser): string {
  return join(socketDirectory(env, platform, user), SOCKET_FILE_NAME);
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
