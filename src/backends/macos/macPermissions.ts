// Accessibility and Screen Recording status: the one macOS permission check, used by
// `tandem doctor`, the engine and the app's wizard alike (the wizard reads it through
// engine.checkPermissions()). Two C calls answer it: AXIsProcessTrusted() and
// CGPreflightScreenCaptureAccess(). Neither has a "not determined" answer — false means "not
// granted", whether the person was never asked or said no — so there is no third state to
// disagree about. (node-mac-permissions' getAuthStatus makes the same two calls on macOS 11 and
// later, so it is not consulted for checks.)

import { TandemError } from '../../core/errors.js';
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
    detail: state === 'granted' ? `Screenshots and window titles are available (${source}).` : `Tandem takes no screenshots and window titles are hidden (${source}: not granted yet, turned off, or granted since Tandem started).`,
    remedy: state === 'granted' ? undefined : 'Open System Settings › Privacy & Security › Screen Recording and turn Tandem on, then quit and reopen Tandem: macOS applies this grant only from the next start.',
    action: state === 'granted' ? undefined : { kind: 'open-url', value: SETTINGS_LINKS.screenRecording },
  };
}

/**
 * Asks macOS to show its own Accessibility prompt: AXIsProcessTrustedWithOptions with
 * kAXTrustedCheckOptionPrompt → kCFBooleanTrue puts Tandem into the Settings list (turned off),
 * so the person only flips its switch — plain AXIsProcessTrusted(), and node-mac-permissions'
 * ask, leave them to find the app with "+". The prompt is asynchronous: the answer is the trust
 * at the time of the call, not the person's choice.
 */
export function promptForAccessibility(native: Pick<MacNative, 'ax' | 'cf'>): boolean {
  const options = native.cf.CFDictionaryCreate([native.ax.kAXTrustedCheckOptionPrompt], [native.cf.kCFBooleanTrue]);
  // Without the dictionary the call would only check, silently: say so rather than pretend.
  if (options === null) throw new TandemError('internal', 'CFDictionaryCreate failed: the Accessibility prompt could not be asked for.');
  try {
    return native.ax.AXIsProcessTrustedWithOptions(options);
  } finally {
    native.cf.CFRelease(options);
  }
}

/**
 * Asks macOS for Screen Recording: CGRequestScreenCaptureAccess() prompts once per app and adds
 * it to the Settings list. A grant given then applies only from Tandem's next start
 * (CGPreflightScreenCaptureAccess keeps answering false until the restart).
 */
export function requestScreenRecording(native: Pick<MacNative, 'cg'>): boolean {
  return native.cg.CGRequestScreenCaptureAccess();
}

export async function checkMacPermissions(native: Pick<MacNative, 'ax' | 'cg'>): Promise<PermissionCheck[]> {
  return [
    accessibilityCheck(native.ax.AXIsProcessTrusted() ? 'granted' : 'denied', 'AXIsProcessTrusted'),
    screenRecordingCheck(native.cg.CGPreflightScreenCaptureAccess() ? 'granted' : 'denied', 'CGPreflightScreenCaptureAccess'),
  ];
}
