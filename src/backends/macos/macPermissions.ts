// Accessibility and Screen Recording status for the wizard and `tandem doctor`. node-mac-permissions
// answers when installed (it is an optional dependency); its checks equal AXIsProcessTrusted() and
// CGPreflightScreenCaptureAccess(), which the FFI layer answers otherwise.

import type { PermissionCheck, PermissionState } from '../../core/model.js';
import type { MacNative } from '../../../native/macos/macNative.js';
import { withCFScope } from '../../../native/macos/cfScope.js';

export const SETTINGS_LINKS = {
  accessibility: 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility',
  screenRecording: 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture',
} as const;

interface MacPermissionsModule {
  getAuthStatus(type: string): string;
}

async function loadNodeMacPermissions(): Promise<MacPermissionsModule | null> {
  try {
    const name = 'node-mac-permissions'; // a variable: optional, absent on most machines
    const loaded = (await import(name)) as { default?: MacPermissionsModule } & Partial<MacPermissionsModule>;
    const module = loaded.default ?? (loaded as MacPermissionsModule);
    return typeof module.getAuthStatus === 'function' ? module : null;
  } catch {
    return null;
  }
}

/** node-mac-permissions status string → PermissionState. */
export function stateFromAuthStatus(status: string | undefined): PermissionState | null {
  switch (status) {
    case 'authorized':
      return 'granted';
    case 'denied':
    case 'restricted':
    case 'not determined':
      return 'denied';
    default:
      return null;
  }
}

export function accessibilityCheck(state: PermissionState, source: string): PermissionCheck {
  return {
    id: 'accessibility',
    title: 'Accessibility',
    state,
    detail: state === 'granted' ? `Tandem may read app UIs and send input (${source}).` : `Tandem is not trusted for Accessibility (${source}): it cannot read apps or guard input.`,
    remedy: state === 'granted' ? undefined : 'Open System Settings › Privacy & Security › Accessibility and turn Tandem on (add it with + if it is not listed), then restart Tandem.',
    action: state === 'granted' ? undefined : { kind: 'open-url', value: SETTINGS_LINKS.accessibility },
  };
}

export function screenRecordingCheck(state: PermissionState, source: string): PermissionCheck {
  return {
    id: 'screen-recording',
    title: 'Screen Recording',
    state,
    detail: state === 'granted' ? `Screenshots and window titles are available (${source}).` : `Screenshots may show only the wallpaper and window titles are hidden (${source}).`,
    remedy: state === 'granted' ? undefined : 'Open System Settings › Privacy & Security › Screen Recording and turn Tandem on, then restart Tandem.',
    action: state === 'granted' ? undefined : { kind: 'open-url', value: SETTINGS_LINKS.screenRecording },
  };
}

export async function checkMacPermissions(native: MacNative): Promise<PermissionCheck[]> {
  const addon = await loadNodeMacPermissions();
  const fromAddon = (type: string): PermissionState | null => {
    try {
      return addon ? stateFromAuthStatus(addon.getAuthStatus(type)) : null;
    } catch {
      return null;
    }
  };
  const ax = fromAddon('accessibility');
  const screen = fromAddon('screen');
  return [
    ax ? accessibilityCheck(ax, 'node-mac-permissions') : accessibilityCheck(native.ax.AXIsProcessTrusted() ? 'granted' : 'denied', 'AXIsProcessTrusted'),
    screen ? screenRecordingCheck(screen, 'node-mac-permissions') : screenRecordingCheck(native.cg.CGPreflightScreenCaptureAccess() ? 'granted' : 'denied', 'CGPreflightScreenCaptureAccess'),
  ];
}

/** Shows the system's Accessibility prompt (asynchronous; returns the current trust). */
export function promptAccessibility(native: MacNative): boolean {
  return withCFScope(native.cf, (scope) => {
    const options = scope.adoptNonNull(native.cf.CFDictionaryCreate([native.ax.kAXTrustedCheckOptionPrompt], [native.cf.kCFBooleanTrue]), 'CFDictionaryCreate');
    return native.ax.AXIsProcessTrustedWithOptions(options);
  });
}

/** Shows the Screen Recording prompt once per app; returns whether it is granted now. */
export function promptScreenRecording(native: MacNative): boolean {
  return native.cg.CGRequestScreenCaptureAccess();
}
