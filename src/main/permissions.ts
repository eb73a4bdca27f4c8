// Permission status for the wizard and the tray: on every platform, the engine's own checks
// (engine.checkPermissions(), the same as `tandem doctor`) — on macOS the backend's
// AXIsProcessTrusted() / CGPreflightScreenCaptureAccess(), the one macOS permission check. This
// module only decides how the wizard offers them: on macOS the two grants get a button that
// shows the system's own prompt — which also puts Tandem into the Settings list, so the person
// only flips its switch instead of adding the app with "+". The prompt has its own "Open System
// Settings" button, so the pane is opened only when the prompt was shown before and the grant is
// still missing (asked and refused earlier: macOS may not prompt again), or when it is granted.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TandemEngine } from '../core/engineApi.js';
import type { PermissionCheck } from '../core/model.js';
import type { ElectronApi } from './electronApi.js';
import type { PermissionItem, PermissionView } from '../shared/types.js';
import { platformView } from './appStatus.js';

const SETTINGS_PANE = {
  accessibility: 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility',
  'screen-recording': 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture',
} as const;

/**
 * The grants whose system prompt Tandem has shown (userData): macOS's checks have no "not
 * determined" answer, so "asked and refused earlier" is what Tandem remembers having asked.
 */
const PROMPTED_FILE = 'permission-prompts-shown.json';

export function fromEngineCheck(check: PermissionCheck): PermissionItem {
  const action: PermissionItem['action'] =
    check.action?.kind === 'open-url'
      ? { kind: 'open-url', label: 'Open settings', value: check.action.value }
      : check.action?.kind === 'run-command'
        ? { kind: 'run-command', label: 'Copy command', value: check.action.value }
        : undefined;
  return { id: check.id, title: check.title, state: check.state, detail: check.detail, remedy: check.remedy, action };
}

export class Permissions {
  constructor(
    private readonly electron: ElectronApi,
    private readonly engine: TandemEngine,
    private readonly platform: NodeJS.Platform,
  ) {}

  async check(): Promise<PermissionView> {
    const checks = await this.engine.checkPermissions();
    const items = checks.map((check) => (this.platform === 'darwin' ? macItem(check) : fromEngineCheck(check)));
    return { platform: platformView(this.platform), items, checkedAt: Date.now() };
  }

  /** Asks (macOS prompt) or opens the settings pane / remedy link; then checks again. */
  async request(id: string): Promise<PermissionView> {
    if (this.platform === 'darwin') {
      if (id === 'accessibility' || id === 'screen-recording') {
        const granted = (await this.engine.checkPermissions()).find((check) => check.id === id)?.state === 'granted';
        // One window at a time: the prompt (it has its own "Open System Settings") the first
        // time; the pane once it was asked and still refused, or to review a grant.
        if (granted || this.prompted().includes(id)) {
          await this.electron.shell.openExternal(SETTINGS_PANE[id]);
        } else {
          if (id === 'accessibility') {
            // Electron's call is AXIsProcessTrustedWithOptions with the prompt option: the system
            // prompt, and Tandem listed in Settings (node-mac-permissions' ask only opened the pane).
            this.electron.systemPreferences.isTrustedAccessibilityClient(true);
          } else {
            // Electron has no call for it: the engine's CGRequestScreenCaptureAccess() (prompts once, lists Tandem).
            await this.engine.requestPermission?.('screen-recording');
          }
          this.rememberPrompted(id);
        }
      }
    } else {
      const check = (await this.engine.checkPermissions()).find((item) => item.id === id);
      // Only URLs the engine itself produced are opened; commands are shown, never run.
      if (check?.action?.kind === 'open-url') await this.electron.shell.openExternal(check.action.value);
    }
    return this.check();
  }

  private prompted(): string[] {
    const file = join(this.electron.app.getPath('userData'), PROMPTED_FILE);
    try {
      const ids = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : [];
      return Array.isArray(ids) ? ids.filter((value): value is string => typeof value === 'string') : [];
    } catch {
      // Unreadable: as if never asked — the worst case is the prompt once more.
      return [];
    }
  }

  private rememberPrompted(id: string): void {
    const file = join(this.electron.app.getPath('userData'), PROMPTED_FILE);
    // The prompt was shown already: a memory that cannot be written (a full disk, an unwritable
    // folder) costs only the pane next time, never this request.
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, `${JSON.stringify([...new Set([...this.prompted(), id])])}\n`, { mode: 0o600 });
    } catch {
      // not remembered: the next "Allow…" prompts again
    }
  }

  /** The command a check proposes as its remedy (Linux: `tandem doctor` remedies), or undefined. */
  async commandOf(id: string): Promise<string | undefined> {
    if (this.platform === 'darwin') return undefined;
    const check = (await this.engine.checkPermissions()).find((item) => item.id === id);
    return check?.action?.kind === 'run-command' ? check.action.value : undefined;
  }
}

/**
 * A macOS check as the wizard offers it: the state and words are the engine's; the two grants
 * get a button that asks the system (request()) instead of a bare link.
 */
function macItem(check: PermissionCheck): PermissionItem {
  if (check.id !== 'accessibility' && check.id !== 'screen-recording') return fromEngineCheck(check);
  const granted = check.state === 'granted';
  // macOS applies a Screen Recording grant only to a new process: the wizard offers the relaunch.
  const relaunchToApply = check.id === 'screen-recording' && !granted ? { relaunchToApply: true } : {};
  return { ...fromEngineCheck(check), action: { kind: 'prompt', label: granted ? 'Open settings' : 'Allow…', value: SETTINGS_PANE[check.id] }, ...relaunchToApply };
}
