// Which on-screen windows could be a system alert sitting over the apps the macOS suite drives.
// On macOS 15 the screen-capture alert may stay up after the workflow's warm-up capture and take
// the focus; the probe lists on-screen windows above the normal layer (layer > 0) whose owner is
// none of the ever-present ones, and the Summary step names them. Pure: unit-tested on Linux.

/** One entry of CGWindowListCopyWindowInfo, as the probe reads it. */
export interface OnScreenWindow {
  owner: string;
  name: string;
  layer: number;
}

/** Owners whose windows above layer 0 are always there: the Dock, the window server, the menu bar and its extras, the suite's own TextEdit. */
const EVER_PRESENT_OWNERS = new Set(['Dock', 'Window Server', 'WindowServer', 'SystemUIServer', 'Control Center', 'Menubar', 'TextEdit']);

/** The windows that may be an alert over the apps: layer > 0 and not owned by the ever-present ones. */
/** The menu bar's own layers (kCGMainMenuWindowLevel 24, kCGStatusWindowLevel 25): menu-bar extras (Spotlight, input menus…) live there on every Mac. */
const MENU_BAR_LAYERS = new Set([24, 25]);

export function windowsOverApps(windows: readonly OnScreenWindow[]): OnScreenWindow[] {
  return windows.filter((window) => window.layer > 0 && !MENU_BAR_LAYERS.has(window.layer) && !EVER_PRESENT_OWNERS.has(window.owner) && window.name !== 'Menubar');
}
