// Accessibility and Screen Recording status: the one macOS permission check, used by
// `tandem doctor`, the engine and the app's wizard alike (the wizard reads it through
// engine.checkPermissions()). Two C calls answer it: AXIsProcessTrusted() and
// CGPreflightScreenCaptureAccess(). Neither has a "not determined" answer — false means "not
// granted", whether the person was never asked or said no — so there is no third state to
// disagree about. (node-mac-permissions' getAuthStatus makes the same two calls on macOS 11 and
// later, so it is not consulted for checks.)

import type { PermissionCheck, PermissionState } from '../../core/model.js';
import type { MacNative } from '../../../native/macos/macNative.js';

export const SETTINGS_LINKS = {
  accessibility: 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility',
  screenRecording: 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture',
} as const;

export function accessibilityCheck(state: PermissionState, source: string): PermissionCheck {
  return {
    id: 'accessibility',
    title: 'Accessibility',
    state,
    detail: state === 'granted' ? `Tandem may read app UIs and send input (${source}).` : `Tandem is not trusted for Accessibility (${source}: not granted yet, or turned off): it cannot read apps or guard input.`,
    remedy: state === 'granted' ? undefined : 'Open System Settings › Privacy & Security › Accessibility and turn Tandem on (add it with + if it is not listed), then restart Tandem.',
    action: state === 'granted' ? undefined : { kind: 'open-url', value: SETTINGS_LINKS.accessibility },
  };
}

export function screenRecordingCheck(state: PermissionState, source: string): PermissionCheck {
  return {
    id: 'screen-recording',
    title: 'Screen Recording',
    state,
    detail: state === 'granted' ? `Screenshots and window titles are available (${source}).` : `Screenshots may show only the wallpaper and window titles are hidden (${source}: not granted yet, or turned off).`,
    remedy: state === 'granted' ? undefined : 'Open System Settings › Privacy & Security › Screen Recording and turn Tandem on, then restart Tandem.',
    action: state === 'granted' ? undefined : { kind: 'open-url', value: SETTINGS_LINKS.screenRecording },
  };
}

export async function checkMacPermissions(native: Pick<MacNative, 'ax' | 'cg'>): Promise<PermissionCheck[]> {
  return [
    accessibilityCheck(native.ax.AXIsProcessTrusted() ? 'granted' : 'denied', 'AXIsProcessTrusted'),
    screenRecordingCheck(native.cg.CGPreflightScreenCaptureAccess() ? 'granted' : 'denied', 'CGPreflightScreenCaptureAccess'),
  ];
}
