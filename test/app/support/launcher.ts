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
