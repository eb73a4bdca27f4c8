// The `gsettings` command (GLib), for one boolean key: org.gnome.desktop.interface
// toolkit-accessibility, the persistent form of the desktop's accessibility switch (GNOME's
// Settings → Accessibility writes it; at-spi-bus-launcher reads it at login). The command and not
// a D-Bus call because the value lives in whatever GSettings backend the session uses (dconf
// normally, memory in tests) and only GLib knows which one; it is spawned twice per run at most.

import { execFile } from 'node:child_process';

export const TOOLKIT_A11Y_SCHEMA = 'org.gnome.desktop.interface';
export const TOOLKIT_A11Y_KEY = 'toolkit-accessibility';

const GSETTINGS_TIMEOUT_MS = 3_000;

function gsettings(args: string[], env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('gsettings', args, { env, timeout: GSETTINGS_TIMEOUT_MS }, (error, stdout) => resolve(error ? null : stdout.trim()));
  });
}

/** The key's value; null when gsettings or the schema is missing (no GNOME settings here). */
export async function readToolkitAccessibility(env: NodeJS.ProcessEnv): Promise<boolean | null> {
  const value = await gsettings(['get', TOOLKIT_A11Y_SCHEMA, TOOLKIT_A11Y_KEY], env);
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}

/** Writes the key; false when it could not be written (no gsettings, no schema, key locked). */
export async function writeToolkitAccessibility(value: boolean, env: NodeJS.ProcessEnv): Promise<boolean> {
  return (await gsettings(['set', TOOLKIT_A11Y_SCHEMA, TOOLKIT_A11Y_KEY, String(value)], env)) !== null;
}
