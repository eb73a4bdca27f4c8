// The Debian packages a virtual desktop, its test apps and the demo need — checked with dpkg and
// installed only when missing. scripts/provision.mjs does the same before the build (it cannot
// import TypeScript); this copy lets the demo, the bench and the e2e harness check at run time.
import { spawnSync } from 'node:child_process';

/** Why each package is here, so nobody has to guess. */
export const DESKTOP_PACKAGES: Record<string, string[]> = {
  // Xvfb, a window manager, the session bus, the accessibility bus, xprop/xdpyinfo, xinput.
  desktop: ['xvfb', 'openbox', 'at-spi2-core', 'dbus-x11', 'x11-utils', 'xinput'],
  // Real GTK apps (mousepad, zenity, gtk3-widget-factory) and the Python GTK fixture app.
  apps: ['gtk-3-examples', 'zenity', 'mousepad', 'gir1.2-gtk-3.0', 'python3-gi'],
  // Text in screenshots rather than boxes.
  fonts: ['fonts-dejavu-core'],
};

export function missingDebianPackages(packages: string[] = Object.values(DESKTOP_PACKAGES).flat()): string[] {
  return packages.filter((name) => {
    const query = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return query.status !== 0 || !query.stdout.includes('install ok installed');
  });
}

function run(command: string, args: string[]): void {
  console.error(`[provision] ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/**
 * Makes sure every package of DESKTOP_PACKAGES is installed. As root it runs `apt-get update`
 * and `apt-get install -y --no-install-recommends <missing…>`; otherwise it prints the exact
 * command on stderr and throws.
 */
export function ensureDesktopPackages(): void {
  if (process.platform !== 'linux') throw new Error('The virtual desktop needs Linux (Xvfb, AT-SPI).');
  if (spawnSync('dpkg-query', ['--version']).status !== 0) {
    throw new Error('Not a Debian/Ubuntu system: install Xvfb, openbox, at-spi2-core, dbus, x11-utils, xinput, GTK 3 examples, zenity, mousepad and python3-gi with your package manager.');
  }
  const missing = missingDebianPackages();
  if (!missing.length) return;
  if (process.getuid?.() !== 0) {
    const command = `sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}'`;
    console.error(`[provision] missing Debian packages: ${missing.join(' ')}\n[provision] install them with:\n  ${command}`);
    throw new Error(`Missing Debian packages: ${missing.join(' ')}`);
  }
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing]);
}
