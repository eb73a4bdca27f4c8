// What `tandem mcp` does when nothing answers on the socket: start the app that hosts it.
//
// Decision:
// - TANDEM_APP_COMMAND set: run it through /bin/sh (tests, custom installs).
// - Inside the packaged app (the launcher runs on the app's own binary with
//   ELECTRON_RUN_AS_NODE=1): macOS asks LaunchServices (`open -g -b <bundle id>`) so the app, not
//   the MCP client that spawned us, is the process macOS holds responsible for Accessibility and
//   Screen Recording; Linux starts the app binary itself, detached, without ELECTRON_RUN_AS_NODE.
// - From a source checkout or an npm install (no app around us): on macOS try the installed app
//   through LaunchServices first; otherwise (and on Linux always) start the headless host
//   `tandem serve` detached. Its stderr goes to host.log in the private socket folder.

import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';

export const BUNDLE_ID = 'dev.tandem.app';

export interface AppStartAttempt {
  description: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** 'exit': wait for the command to exit 0 (open); 'detach': start it and let it run. */
  mode: 'exit' | 'detach';
}

export interface AppStartInput {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** process.execPath: node, or the app's Electron binary in run-as-node mode. */
  execPath: string;
  /** Absolute path of the launcher's cli.js (for `tandem serve`). */
  cliPath: string;
  /** process.versions.electron, set when running on the app's binary. */
  electronVersion?: string;
}

function withoutRunAsNode(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.ELECTRON_RUN_AS_NODE;
  return copy;
}

export function planAppStart(input: AppStartInput): AppStartAttempt[] {
  const { env, platform } = input;
  if (env.TANDEM_APP_COMMAND) {
    return [{ description: 'TANDEM_APP_COMMAND', command: '/bin/sh', args: ['-c', env.TANDEM_APP_COMMAND], env, mode: 'detach' }];
  }
  const launchServices: AppStartAttempt = {
    description: `the Tandem app (open -g -b ${BUNDLE_ID})`,
    command: 'open',
    args: ['-g', '-b', BUNDLE_ID],
    env: withoutRunAsNode(env),
    mode: 'exit',
  };
  const packaged = Boolean(input.electronVersion && env.ELECTRON_RUN_AS_NODE);
  if (packaged && platform === 'darwin') return [launchServices];
  if (packaged) {
    return [{ description: 'the Tandem app', command: input.execPath, args: [], env: withoutRunAsNode(env), mode: 'detach' }];
  }
  const serve: AppStartAttempt = {
    description: 'the headless host (tandem serve)',
    command: input.execPath,
    args: [input.cliPath, 'serve'],
    env,
    mode: 'detach',
  };
  return platform === 'darwin' ? [launchServices, serve] : [serve];
}

/** Runs one attempt; resolves true when the app is on its way. */
export function runAppStart(attempt: AppStartAttempt, logDirectory: string): Promise<boolean> {
  return new Promise((resolve) => {
    let logFd: number | undefined;
    try {
      logFd = attempt.mode === 'detach' ? openSync(join(logDirectory, 'host.log'), 'a', 0o600) : undefined;
    } catch {
      logFd = undefined;
    }
    const output = logFd ?? 'ignore';
    const child = spawn(attempt.command, attempt.args, {
      env: attempt.env,
      detached: attempt.mode === 'detach',
      stdio: ['ignore', output, output],
    });
    if (logFd !== undefined) closeSync(logFd);
    child.once('error', () => resolve(false));
    if (attempt.mode === 'exit') {
      child.once('exit', (code) => resolve(code === 0));
    } else {
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    }
  });
}
