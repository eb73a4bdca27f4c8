// Run-time check for the Debian packages a virtual desktop, its test apps and the demo need.
// The list itself lives once, in scripts/provision.mjs (plain JS: it runs before the build);
// this module asks that script to check and install the desktop groups.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The groups of scripts/provision.mjs a virtual desktop needs (the browser is for UI tests only). */
const DESKTOP_GROUPS = ['desktop', 'apps', 'fonts'];

function provisionScript(): string {
  // Compiled this file sits in dist/scripts/lib, run through tsx in scripts/lib: walk up to the repo.
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'scripts', 'provision.mjs');
    if (existsSync(candidate) && existsSync(path.join(dir, 'package.json'))) return candidate;
  }
  throw new Error('scripts/provision.mjs not found above ' + fileURLToPath(import.meta.url));
}

/**
 * Makes sure the desktop packages are installed. As root it runs apt-get for the missing ones;
 * otherwise it prints the exact command on stderr and throws.
 */
export function ensureDesktopPackages(): void {
  if (process.platform !== 'linux') throw new Error('The virtual desktop needs Linux (Xvfb, AT-SPI).');
  const result = spawnSync(process.execPath, [provisionScript(), '--only', DESKTOP_GROUPS.join(',')], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error('Missing Debian packages for the virtual desktop: see the command printed above.');
}
