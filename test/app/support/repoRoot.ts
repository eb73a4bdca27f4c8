// The checkout's root, whether a test runs from test/ (tsx) or from dist/test/ (compiled).

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the test');
    dir = parent;
  }
  return dir;
}

/** True when running from TypeScript sources (node --import tsx), false from dist/. */
export function runningFromSource(): boolean {
  return import.meta.url.endsWith('.ts');
}
