// Builds the real engine from the environment, for `tandem mcp --direct`, `tandem call`,
// `tandem serve` and the Electron app. The desktop backend is created lazily (LazyDesktop), so a
// server starts and lists its tools even where no display or permission is available yet.
//
// Environment:
//   TANDEM_ARTIFACTS_DIR  folder for tree/diff/screenshot files (default: per-user 0700 folder)
//   TANDEM_CONFIG_DIR     folder of the settings file (default: configPaths.ts)
//   TANDEM_WATCHDOG_MS, TANDEM_GRACE_MS, TANDEM_ARTIFACT_MAX_CALLS, TANDEM_ARTIFACT_MAX_BYTES,
//   TANDEM_INLINE, TANDEM_INLINE_MAX_SIDE, TANDEM_TOOLS
//                         override the settings file for this process (core/settings.ts)
//   TANDEM_OVERLAY_PULSE  off: the server-drawn overlay's frame does not pulse (default: as the
//                         desktop's reduced-motion setting says); the label always shows
//   TANDEM_A11Y_SWITCH    off: leave the desktop's accessibility switch alone (default on: turned
//                         on while Tandem runs, put back as found when it exits)
//   DISPLAY               X display for the Linux backend

import { createDesktop } from '../backends/index.js';
import type { Desktop } from '../core/desktop.js';
import { Engine } from '../core/engine.js';
import type { TandemEngine } from '../core/engineApi.js';
import { TandemError } from '../core/errors.js';
import { LazyDesktop } from './lazyDesktop.js';
import { attachServerOverlay } from '../core/overlay/overlayVisibility.js';
import { SettingsStore } from '../core/settings.js';
import { configFile } from './configPaths.js';
import { describeStepsDone } from '../mcp/renderSteps.js';

/** TANDEM_OVERLAY_PULSE: on/off, or undefined to follow the desktop's reduced-motion setting. */
export function overlayPulseFromEnv(env: NodeJS.ProcessEnv): boolean | undefined {
  const raw = env.TANDEM_OVERLAY_PULSE?.trim().toLowerCase();
  if (!raw) return undefined;
  if (['off', '0', 'false', 'no'].includes(raw)) return false;
  if (['on', '1', 'true', 'yes'].includes(raw)) return true;
  throw new TandemError('bad-input', `TANDEM_OVERLAY_PULSE=${env.TANDEM_OVERLAY_PULSE} is not valid: set it to on or off, or unset it.`);
}

/** TANDEM_A11Y_SWITCH: off keeps Tandem from turning the desktop's accessibility switch on (default on). */
export function a11ySwitchFromEnv(env: NodeJS.ProcessEnv): boolean {
  const raw = env.TANDEM_A11Y_SWITCH?.trim().toLowerCase();
  if (!raw || ['on', '1', 'true', 'yes'].includes(raw)) return true;
  if (['off', '0', 'false', 'no'].includes(raw)) return false;
  throw new TandemError('bad-input', `TANDEM_A11Y_SWITCH=${env.TANDEM_A11Y_SWITCH} is not valid: set it to on or off, or unset it.`);
}

/**
 * The platform backend, created on its first use. `switchAccessibilityOn`: hosts that serve an
 * agent turn the desktop's accessibility switch on for their lifetime; doctor only looks.
 */
export function createLazyDesktop(env: NodeJS.ProcessEnv = process.env, options: { switchAccessibilityOn?: boolean } = {}): LazyDesktop {
  const overlayPulse = overlayPulseFromEnv(env);
  const switchAccessibilityOn = options.switchAccessibilityOn === true && a11ySwitchFromEnv(env);
  return new LazyDesktop(() => createDesktop({ display: env.DISPLAY, switchAccessibilityOn, ...(overlayPulse !== undefined ? { overlayPulse } : {}) }));
}

/**
 * The engine over any desktop (the launcher's lazy one, or a test's), configured from env. The
 * artifacts folder is opened by the engine on first use, so a bad folder is an actionable tool
 * error rather than a server that does not start.
 */
export async function createEngine(desktop: Desktop, env: NodeJS.ProcessEnv = process.env): Promise<TandemEngine> {
  return new Engine(desktop, { artifacts: { env }, settings: settingsStoreFromEnv(env), describeSteps: describeStepsDone });
}

/**
 * The person's settings: the per-user file, overridden by this process's environment. A bad
 * environment variable throws (the launching command's typo); a bad file never does: it is
 * said once on stderr and in get_config, and the defaults stand in for what it got wrong.
 */
export function settingsStoreFromEnv(env: NodeJS.ProcessEnv = process.env): SettingsStore {
  const store = new SettingsStore({ file: configFile(env), env });
  const { fileError } = store.report();
  if (fileError) console.error(`tandem: ${fileError}`);
  return store;
}

export interface EngineHostOptions {
  /**
   * Draw the overlay from the server itself while the guard holds input (default true). The
   * Electron app passes false: its renderer draws the overlay, and there must be only one.
   */
  serverOverlay?: boolean;
}

export async function createEngineFromEnv(env: NodeJS.ProcessEnv = process.env, options: EngineHostOptions = {}): Promise<TandemEngine> {
  const desktop = createLazyDesktop(env, { switchAccessibilityOn: true });
  const engine = await createEngine(desktop, env);
  // Connect now rather than at the first tool call: the accessibility switch goes on at start, so
  // apps the person opens before asking anything are readable. A failure (no display yet) is
  // not remembered: the first call that needs the desktop tries again and reports it.
  desktop.warmUp();
  if (options.serverOverlay !== false) {
    attachServerOverlay(engine, { show: (text) => desktop.showOverlay(text), hide: () => desktop.hideOverlay() });
  }
  return engine;
}
