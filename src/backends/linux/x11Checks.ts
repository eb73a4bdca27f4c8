// What the X11 half needs from the session, as permission checks the wizard can show. Pure:
// the facts are gathered by X11Display.

import type { PermissionCheck } from '../../core/model.js';

export interface X11Facts {
  display: string;
  screen: { width: number; height: number };
  xtest: { major: number; minor: number } | null;
  xinput: { major: number; minor: number } | null;
  composite: { major: number; minor: number } | null;
}

/** A Wayland session lets us reach XWayland apps only, and no X client can block real input there. */
export function waylandSessionCheck(env: NodeJS.ProcessEnv): PermissionCheck {
  const wayland = env.XDG_SESSION_TYPE?.toLowerCase() === 'wayland' || Boolean(env.WAYLAND_DISPLAY);
  if (!wayland) {
    return { id: 'session', title: 'X11 session', state: 'granted', detail: `Session type: ${env.XDG_SESSION_TYPE || 'x11 (assumed: no Wayland display)'}.` };
  }
  return {
    id: 'session',
    title: 'X11 session',
    state: 'denied',
    detail:
      'This is a Wayland session: Tandem is unsupported there. Through XWayland it would see and drive X11 apps only, and it cannot block your keyboard and mouse while it acts.',
    remedy: 'Log out and pick an X11 session at the login screen (for example "GNOME on Xorg" or "Plasma (X11)").',
  };
}

export function x11Checks(facts: X11Facts): PermissionCheck[] {
  const version = (v: { major: number; minor: number }): string => `${v.major}.${v.minor}`;
  const xinputOk = facts.xinput !== null && (facts.xinput.major > 2 || (facts.xinput.major === 2 && facts.xinput.minor >= 2));
  return [
    {
      id: 'display',
      title: 'X display',
      state: 'granted',
      detail: `Connected to ${facts.display} (${facts.screen.width}x${facts.screen.height}).`,
    },
    facts.xtest
      ? { id: 'xtest', title: 'Synthetic input (XTEST)', state: 'granted', detail: `XTEST ${version(facts.xtest)}.` }
      : {
          id: 'xtest',
          title: 'Synthetic input (XTEST)',
          state: 'denied',
          detail: 'The X server has no XTEST extension: Tandem cannot click or type.',
          remedy: 'Enable the XTEST extension of the X server (it is on by default in Xorg; check for "-extension XTEST" in the server command line).',
        },
    xinputOk
      ? { id: 'xinput', title: 'Input guard (XInput 2.2)', state: 'granted', detail: `XInput ${version(facts.xinput!)}.` }
      : {
          id: 'xinput',
          title: 'Input guard (XInput 2.2)',
          state: 'denied',
          detail: `The X server offers ${facts.xinput ? `XInput ${version(facts.xinput)}` : 'no XInput extension'}: Tandem cannot block your keyboard and mouse while it acts.`,
          remedy: 'Use an X server with XInput 2.2 or later (any Xorg since 1.12).',
        },
    facts.composite
      ? { id: 'composite', title: 'Window capture (Composite)', state: 'granted', detail: `Composite ${version(facts.composite)}.` }
      : {
          id: 'composite',
          title: 'Window capture (Composite)',
          state: 'denied',
          detail: 'The X server has no Composite extension: window screenshots fall back to the screen, with covered parts missing.',
          remedy: 'Enable the Composite extension of the X server.',
        },
  ];
}

export function unreachableDisplayCheck(display: string | undefined, reason: string): PermissionCheck {
  return {
    id: 'display',
    title: 'X display',
    state: 'denied',
    detail: display ? `Cannot reach the X display ${display}: ${reason}` : 'DISPLAY is not set: Tandem does not know which X display to use.',
    remedy: display
      ? 'Run Tandem from inside your desktop session, or check DISPLAY and XAUTHORITY (the display must accept this user).'
      : 'Start Tandem from your X11 desktop session, or set DISPLAY (for example DISPLAY=:0).',
  };
}
