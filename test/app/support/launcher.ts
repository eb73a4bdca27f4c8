// How tests start the real `tandem` launcher: the TypeScript sources through tsx when the tests
// run from source, the compiled dist/src/launcher/cli.js when they run from dist/.

import { join } from 'node:path';
import { repoRoot, runningFromSource } from './repoRoot.js';

export function launcherArgs(...args: string[]): string[] {
  const root = repoRoot();
  return runningFromSource()
    ? ['--import', 'tsx', join(root, 'src', 'launcher', 'cli.ts'), ...args]
    : [join(root, 'dist', 'src', 'launcher', 'cli.js'), ...args];
}

/**
 * The environment of a launcher relaying to this process's socket host in `socketDir`: it never
 * starts the app by accident (the host is the test), and gives up connecting after 3 s.
 */
export function relayEnv(socketDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    TANDEM_SOCKET_DIR: socketDir,
    TANDEM_APP_COMMAND: 'true',
    TANDEM_CONNECT_TIMEOUT_MS: '3000',
    ...extra,
  };
}
