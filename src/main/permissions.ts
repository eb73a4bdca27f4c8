// Permission status for the wizard and the tray: on every platform, the engine's own checks
// (engine.checkPermissions(), the same as `tandem doctor`) — on macOS the backend's
// AXIsProcessTrusted() / CGPreflightScreenCaptureAccess(), the one macOS permission check. This
// module only decides how the wizard offers them: on macOS the two grants get a button that asks
// the system (the prompt, through node-mac-permissions when installed — optional, darwin only,
// loaded lazily — or Electron's systemPreferences) and opens the Settings pane.

import type { TandemEngine } from '../core/engineApi.js';
import type { PermissionCheck } from '../core/model.js';
import type { ElectronApi } from './electronApi.js';
import type { PermissionItem, PermissionView } from '../shared/types.js';
import { platformView } from './appStatus.js';

const SETTINGS_PANE = {
  accessibility: 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility',
  'screen-recording': 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture',
} as const;

/** The part of node-mac-permissions we use: its prompts (it ships no types for Linux builds to see). */
interface MacPermissionsModule {
  askForAccessibilityAccess(): void;
  askForScreenCaptureAccess(openPreferences?: boolean): void;
}

async function loadMacPermissions(): Promise<MacPermissionsModule | null> {
  // A variable specifier keeps TypeScript and bundlers from resolving a darwin-only addon.
  const specifier = 'node-mac-permissions';
  try {
    const loaded = (await import(specifier)) as MacPermissionsModule & { default?: MacPermissionsModule };
    return loaded.default ?? loaded;
  } catch {
    return null;
  }
}

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
  private macModule: Promise<MacPermissionsModule | null> | undefined;

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
      const mac = await this.mac();
      if (id === 'accessibility') {
        if (mac) mac.askForAccessibilityAccess();
        else this.electron.systemPreferences.isTrustedAccessibilityClient(true);
        await this.electron.shell.openExternal(SETTINGS_PANE.accessibility);
      } else if (id === 'screen-recording') {
        mac?.askForScreenCaptureAccess(false);
        await this.electron.shell.openExternal(SETTINGS_PANE['screen-recording']);
      }
    } else {
      const check = (await this.engine.checkPermissions()).find((item) => item.id === id);
      // Only URLs the engine itself produced are opened; commands are shown, never run.
      if (check?.action?.kind === 'open-url') await this.electron.shell.openExternal(check.action.value);
    }
    return this.check();
  }

  /** The command a check proposes as its remedy (Linux: `tandem doctor` remedies), or undefined. */
  async commandOf(id: string): Promise<string | undefined> {
    if (this.platform === 'darwin') return undefined;
    const check = (await this.engine.checkPermissions()).find((item) => item.id === id);
    return check?.action?.kind === 'run-command' ? check.action.value : undefined;
  }

  private mac(): Promise<MacPermissionsModule | null> {
    this.macModule ??= loadMacPermissions();
    return this.macModule;
  }
}

/**
 * A macOS check as the wizard offers it: the state and words are the engine's; the two grants
 * get a button that asks the system (request()) instead of a bare link.
 */
function macItem(check: PermissionCheck): PermissionItem {
  if (check.id !== 'accessibility' && check.id !== 'screen-recording') return fromEngineCheck(check);
  const granted = check.state === 'granted';
  return { ...fromEngineCheck(check), action: { kind: 'prompt', label: granted ? 'Open settings' : 'Allow…', value: SETTINGS_PANE[check.id] } };
}
