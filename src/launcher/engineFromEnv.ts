// Builds the real engine from the environment, for `tandem mcp --direct`, `tandem call`,
// `tandem serve` and the Electron app. The desktop backend is created lazily (LazyDesktop), so a
// server starts and lists its tools even where no display or permission is available yet.
//
// Environment:
//   TANDEM_ARTIFACTS_DIR  folder for tree/diff/screenshot files (default: per-user 0700 folder)
//   TANDEM_WATCHDOG_MS    longest time the guard may hold the person's input (default 30000)
//   TANDEM_GRACE_MS       after the last step, how long a late Esc still counts (default 200)
//   DISPLAY               X display for the Linux backend

import { createDesktop } from '../backends/index.js';
import type { Desktop } from '../core/desktop.js';
import { Engine } from '../core/engine.js';
import { MAX_GRACE_MS } from '../core/guard.js';
import type { TandemEngine } from '../core/engineApi.js';
import { TandemError } from '../core/errors.js';
import { LazyDesktop } from './lazyDesktop.js';

/** Longest watchdog a setting may ask for: the guard must always come back to the person. */
const MAX_WATCHDOG_MS = 120_000;

/** Reads a positive whole number of milliseconds from the environment, or undefined when unset. */
export function millisecondsFromEnv(env: NodeJS.ProcessEnv, name: string, max: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0 || value > max) {
    throw new TandemError('bad-input', `${name}=${raw} is not valid: set it to a whole number of milliseconds from 1 to ${max}, or unset it.`);
  }
  return value;
}

/** The platform backend, created on its first use. */
export function createLazyDesktop(env: NodeJS.ProcessEnv = process.env): LazyDesktop {
  return new LazyDesktop(() => createDesktop({ display: env.DISPLAY }));
}

/**
 * The engine over any desktop (the launcher's lazy one, or a test's), configured from env. The
 * artifacts folder is opened by the engine on first use, so a bad folder is an actionable tool
 * error rather than a server that does not start.
 */
export async function createEngine(desktop: Desktop, env: NodeJS.ProcessEnv = process.env): Promise<TandemEngine> {
  const watchdogMs = millisecondsFromEnv(env, 'TANDEM_WATCHDOG_MS', MAX_WATCHDOG_MS);
  const graceMs = millisecondsFromEnv(env, 'TANDEM_GRACE_MS', MAX_GRACE_MS);
  return new Engine(desktop, { artifacts: { env }, ...(watchdogMs !== undefined ? { watchdogMs } : {}), ...(graceMs !== undefined ? { graceMs } : {}) });
}

export async function createEngineFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<TandemEngine> {
  return createEngine(createLazyDesktop(env), env);
}
