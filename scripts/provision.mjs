#!/usr/bin/env node
// Installs the Debian packages that the tests and the demo need, and only those that are
// missing. Plain JS (not TypeScript) because it runs before the build, on a fresh machine.
//   node scripts/provision.mjs [--check] [--only group,group]
//   (--check: report only, never install; --only: just those groups of DEBIAN_PACKAGES)
// As root it runs apt-get itself; otherwise it prints the exact command and exits 1.
import { spawnSync } from 'node:child_process';

/** What each group is for, so nobody has to guess why a package is here. */
export const DEBIAN_PACKAGES = {
  // A virtual X desktop with the accessibility bus (see shared notes: linux-desktop.md).
  desktop: ['xvfb', 'openbox', 'at-spi2-core', 'dbus-x11', 'x11-utils', 'xinput'],
  // Real GTK apps the end-to-end suite drives, and the Python GTK fixture app.
  apps: ['gtk-3-examples', 'zenity', 'mousepad', 'gir1.2-gtk-3.0', 'python3-gi'],
  // GTK 4 for the test that proves GTK4's window-relative geometry is corrected, and a real
  // GTK 4 app (libadwaita) whose answers' screenshots are checked against their diffs.
  gtk4: ['gir1.2-gtk-4.0', 'gnome-calculator'],
  // Debian's Chromium for the renderer tests (Playwright cannot download a browser here), and
  // as the first app of the compatibility matrix.
  browser: ['chromium'],
  // The rest of the compatibility matrix beyond GTK (test/e2e/apps-*.test.ts): Gecko, LibreOffice
  // (its GTK 3 front end is what puts it on the accessibility bus; apt would not pull it in
  // without recommends), a Qt 5 editor, and yelp: a GTK app whose page WebKitGTK draws in another process (an embed).
  matrix: ['firefox-esr', 'libreoffice-writer', 'libreoffice-gtk3', 'featherpad', 'yelp'],
  // Fonts so that screenshots show text rather than boxes.
  fonts: ['fonts-dejavu-core'],
  // The baseline `npm run bench` compares refresh_traversal with: a pyatspi walk (libatspi
  // through GObject introspection, with python3-gi above).
  bench: ['gir1.2-atspi-2.0'],
};

export function allPackages(groups = Object.keys(DEBIAN_PACKAGES)) {
  return groups.flatMap((group) => {
    if (!DEBIAN_PACKAGES[group]) throw new Error(`unknown package group "${group}": ${Object.keys(DEBIAN_PACKAGES).join(', ')}`);
    return DEBIAN_PACKAGES[group];
  });
}

export function missingPackages(packages = allPackages()) {
  return packages.filter((name) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return r.status !== 0 || !r.stdout.includes('install ok installed');
  });
}

function run(cmd, args) {
  console.error(`[provision] ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.status !== 0) throw new Error(`${cmd} exited with ${r.status}`);
}

export function provision({ checkOnly = false, groups = undefined } = {}) {
  if (process.platform !== 'linux') return true;
  if (spawnSync('which', ['dpkg-query']).status !== 0) {
    console.error('[provision] not a Debian/Ubuntu system: install Xvfb, openbox, at-spi2-core, GTK3 examples, zenity, mousepad, python3-gi and chromium with your package manager.');
    return false;
  }
  const missing = missingPackages(allPackages(groups));
  if (!missing.length) return true;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (checkOnly || process.getuid?.() !== 0) {
    console.error(`[provision] missing Debian packages: ${missing.join(' ')}\n[provision] install them with:\n  sudo sh -c '${command}'`);
    return false;
  }
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing]);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.indexOf('--only');
  const groups = only >= 0 ? process.argv[only + 1].split(',') : undefined;
  const ok = provision({ checkOnly: process.argv.includes('--check'), groups });
  process.exit(ok ? 0 : 1);
}
