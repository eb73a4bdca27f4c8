// Permission status for the wizard and the tray. macOS: Accessibility and Screen Recording,
// through node-mac-permissions when it is installed (optional dependency, darwin only, loaded
// lazily) and Electron's systemPreferences otherwise. Linux: the same checks as `tandem doctor`
// (the engine's checkPermissions()), with their remedies.

import type { TandemEngine } from '../core/engineApi.js';
import type { PermissionCheck } from '../core/model.js';
import type { ElectronApi } from './electronApi.js';
import type { PermissionItem, PermissionView } from '../shared/types.js';
import { platformView } from './appStatus.js';

const SETTINGS_PANE = {
  accessibility: 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility',
  'screen-recording': 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture',
} as const;

/** The part of node-mac-permissions we use (it ships no types for Linux builds to see). */
interface MacPermissionsModule {
  getAuthStatus(type: 'accessibility' | 'screen'): 'authorized' | 'denied' | 'restricted' | 'not determined';
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

function macState(status: string): PermissionItem['state'] {
  if (status === 'authorized' || status === 'granted') return 'granted';
  if (status === 'denied' || status === 'restricted') return 'denied';
  return 'unknown';
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
    const items = this.platform === 'darwin' ? await this.macItems() : (await this.engine.checkPermissions()).map(fromEngineCheck);
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

  private async macItems(): Promise<PermissionItem[]> {
    const mac = await this.mac();
    const accessibility = mac
      ? macState(mac.getAuthStatus('accessibility'))
      : this.electron.systemPreferences.isTrustedAccessibilityClient(false)
        ? 'granted'
        : 'denied';
    const screen = macState(mac ? mac.getAuthStatus('screen') : this.electron.systemPreferences.getMediaAccessStatus('screen'));
    return [
      {
        id: 'accessibility',
        title: 'Accessibility',
        state: accessibility,
        detail: 'Lets Tandem read app windows and click, type and scroll for the agent.',
        remedy: 'Turn Tandem on in System Settings → Privacy & Security → Accessibility.',
        action: { kind: 'prompt', label: accessibility === 'granted' ? 'Open settings' : 'Allow…', value: SETTINGS_PANE.accessibility },
      },
      {
        id: 'screen-recording',
        title: 'Screen Recording',
        state: screen,
        detail: 'Lets Tandem take the screenshot saved with each action.',
        remedy: 'Turn Tandem on in System Settings → Privacy & Security → Screen Recording, then reopen Tandem.',
        action: { kind: 'prompt', label: screen === 'granted' ? 'Open settings' : 'Allow…', value: SETTINGS_PANE['screen-recording'] },
      },
    ];
  }
}
