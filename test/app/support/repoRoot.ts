// The checkout's root, whether a test runs from test/ (tsx) or from dist/test/ (compiled).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's own package.json, not dist/package.json (a nameless {"type":"module"}, scripts/markDistModule.mjs). */
function isProjectManifest(file: string): boolean {
  return existsSync(file) && typeof (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'string';
}

export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!isProjectManifest(join(dir, 'package.json'))) {
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
