// Whether the desktop wants animations, as GTK apps decide it: the running settings daemon's
// XSETTINGS (Gtk/EnableAnimations: GNOME's, Xfce's and MATE's daemons publish the person's
// "reduce motion" choice there) and, where no daemon runs, GTK's own settings.ini
// (gtk-enable-animations). The overlay's pulse follows it; the frame and the label always show.

import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { X11Connection } from '../../../native/linux/x11Connection.js';
import { parseXSettings } from './xsettings.js';

/** gtk-enable-animations from settings.ini text: true/false, or undefined when it is not set. */
export function enableAnimationsFromIni(text: string): boolean | undefined {
  let inSettings = false;
  let value: boolean | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inSettings = line === '[Settings]';
      continue;
    }
    const match = /^gtk-enable-animations\s*=\s*(\S+)/.exec(line);
    if (!inSettings || !match) continue;
    const word = match[1].toLowerCase();
    if (['false', '0', 'no'].includes(word)) value = false;
    else if (['true', '1', 'yes'].includes(word)) value = true;
  }
  return value;
}

/**
 * GTK's settings.ini files, most important first: the person's own (GTK 3, then GTK 4), then the
 * system's. The first that sets gtk-enable-animations decides.
 */
export function settingsIniFiles(env: NodeJS.ProcessEnv): string[] {
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  const systemDirs = (env.XDG_CONFIG_DIRS || '/etc/xdg').split(':').filter(Boolean);
  return [
    join(config, 'gtk-3.0', 'settings.ini'),
    join(config, 'gtk-4.0', 'settings.ini'),
    ...systemDirs.flatMap((dir) => [join(dir, 'gtk-3.0', 'settings.ini'), join(dir, 'gtk-4.0', 'settings.ini')]),
    '/etc/gtk-3.0/settings.ini',
    '/etc/gtk-4.0/settings.ini',
  ];
}

/** Gtk/EnableAnimations from the XSETTINGS manager of screen 0, or undefined without one. */
async function xsettingsAnimations(connection: X11Connection): Promise<boolean | undefined> {
  const selection = await connection.atom('_XSETTINGS_S0');
  const owner = await connection.request<number>((callback) => connection.client.GetSelectionOwner(selection, callback));
  if (!owner) return undefined;
  const property = await connection.property(owner, '_XSETTINGS_SETTINGS', 1 << 20);
  if (!property) return undefined;
  const value = parseXSettings(property.data).get('Gtk/EnableAnimations');
  return typeof value === 'number' ? value !== 0 : undefined;
}

async function iniAnimations(env: NodeJS.ProcessEnv): Promise<boolean | undefined> {
  for (const file of settingsIniFiles(env)) {
    const text = await readFile(file, 'utf8').catch(() => null);
    const value = text === null ? undefined : enableAnimationsFromIni(text);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** False when the desktop asks for no animations; true when it does not say (GTK's default). */
export async function animationsEnabled(connection: X11Connection, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const fromDaemon = await xsettingsAnimations(connection).catch(() => undefined);
  if (fromDaemon !== undefined) return fromDaemon;
  return (await iniAnimations(env)) ?? true;
}
