// The checks `tandem doctor` runs besides the backend's own permission checks, as the same
// PermissionCheck records the app's wizard shows, and their plain-text rendering.

import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { ArtifactStore } from '../core/artifacts/artifacts.js';
import { toTandemError } from '../core/errors.js';
import type { PermissionCheck } from '../core/model.js';
import type { TrayHostState } from '../../native/linux/statusNotifierHost.js';

const MIN_NODE: readonly [number, number] = [20, 19];

export function nodeVersionCheck(version: string = process.versions.node): PermissionCheck {
  const [major, minor] = version.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    id: 'node',
    title: 'Node.js',
    state: ok ? 'granted' : 'denied',
    detail: `Node.js ${version} (Tandem needs ${MIN_NODE.join('.')} or newer).`,
    remedy: ok ? undefined : `Install Node.js ${MIN_NODE.join('.')} or newer (https://nodejs.org), or use the launcher bundled with the Tandem app.`,
  };
}

export function platformCheck(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): PermissionCheck {
  if (platform === 'darwin') return { id: 'platform', title: 'Platform', state: 'granted', detail: 'macOS (Accessibility + Screen Recording backend).' };
  if (platform === 'linux') {
    const wayland = env.XDG_SESSION_TYPE?.toLowerCase() === 'wayland' || Boolean(env.WAYLAND_DISPLAY);
    return wayland
      ? {
          id: 'platform',
          title: 'Platform',
          state: 'denied',
          detail: 'Linux with a Wayland session: Tandem drives X11 desktops only and cannot hold back your input under Wayland.',
          remedy: 'Log in to an X11 session (e.g. "GNOME on Xorg").',
        }
      : { id: 'platform', title: 'Platform', state: 'granted', detail: 'Linux (X11 + AT-SPI backend).' };
  }
  return {
    id: 'platform',
    title: 'Platform',
    state: 'denied',
    detail: `${platform} is not supported.`,
    remedy: 'Tandem runs on macOS and on Linux with X11.',
  };
}

/**
 * Linux: whether the app's tray icon can be seen. Never a failure — without a tray the app shows
 * its live feed window instead — but the person should know where Tandem went.
 */
export function trayCheck(state: TrayHostState): PermissionCheck {
  const title = 'Tray icon';
  if (state === 'hosted') return { id: 'tray', title, state: 'granted', detail: 'The desktop shows tray icons (a StatusNotifier host is registered).' };
  return {
    id: 'tray',
    title,
    state: 'unknown',
    detail:
      state === 'no-session-bus'
        ? 'No session bus to ask whether the desktop shows tray icons: the Tandem app shows its live feed window instead of a tray icon.'
        : 'This desktop shows no tray icons (stock GNOME on Debian and Fedora hosts none): the Tandem app shows its live feed window instead, and closing it quits the app.',
    remedy: 'For a tray icon on GNOME, install and enable the AppIndicator extension (Debian: gnome-shell-extension-appindicator; Fedora: gnome-shell-extension-appindicator), then log in again.',
  };
}

/** Opens (creating if needed) the artifacts folder and checks it is private and writable. */
export async function artifactsCheck(env: NodeJS.ProcessEnv = process.env): Promise<PermissionCheck> {
  const title = 'Artifacts folder';
  try {
    const store = await ArtifactStore.open({ env });
    const mode = (await stat(store.dir)).mode & 0o777;
    await access(store.dir, constants.W_OK);
    if (mode & 0o077) {
      return {
        id: 'artifacts',
        title,
        state: 'denied',
        detail: `${store.dir} has mode 0${mode.toString(8)}: others could read your trees and screenshots.`,
        remedy: `Run: chmod 700 ${store.dir}`,
      };
    }
    return { id: 'artifacts', title, state: 'granted', detail: `${store.dir} (mode 0${mode.toString(8)}, writable).` };
  } catch (error) {
    return {
      id: 'artifacts',
      title,
      state: 'denied',
      detail: toTandemError(error).message,
      remedy: 'Set TANDEM_ARTIFACTS_DIR to a folder you own (it is created with mode 0700).',
    };
  }
}

/** The backend's own checks; a backend that cannot start is itself one failed check. */
export async function desktopChecks(check: () => Promise<PermissionCheck[]>): Promise<PermissionCheck[]> {
  try {
    return await check();
  } catch (error) {
    const tandemError = toTandemError(error);
    return [
      {
        id: 'backend',
        title: 'Desktop access',
        state: 'denied',
        detail: `The desktop backend could not start: ${tandemError.message}`,
        remedy:
          tandemError.code === 'unsupported'
            ? 'Run Tandem on macOS or on Linux with X11.'
            : 'Fix the cause above (run doctor from inside your desktop session), then run tandem doctor again.',
      },
    ];
  }
}

const MARKS: Record<PermissionCheck['state'], string> = { granted: '✓', denied: '✗', unknown: '?', 'not-applicable': '–' };

export function formatCheck(check: PermissionCheck): string {
  const lines = [`${MARKS[check.state]} ${check.title}: ${check.detail}`];
  if (check.state !== 'granted' && check.state !== 'not-applicable' && check.remedy) lines.push(`    → ${check.remedy}`);
  if (check.state !== 'granted' && check.action) lines.push(`    ${check.action.kind === 'run-command' ? 'run' : 'open'}: ${check.action.value}`);
  return lines.join('\n');
}

/** Something required is missing: a denied check. Unknown states are reported but do not fail. */
export function doctorPassed(checks: readonly PermissionCheck[]): boolean {
  return checks.every((check) => check.state !== 'denied');
}
