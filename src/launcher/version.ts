// Tandem's version, read from the package.json above this file: the same code runs from src/
// (tsx), from dist/src/ (npm) and from inside the app bundle, at different depths.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function tandemVersion(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'tandem' && manifest.version) return (cached = manifest.version);
    } catch {
      // No (readable) package.json at this level: keep walking up.
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return (cached = '0.0.0');
}
