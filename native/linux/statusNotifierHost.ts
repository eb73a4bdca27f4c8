// Whether a tray icon can be seen on this Linux desktop. Electron's Tray on Linux is a
// StatusNotifierItem: it shows only where something hosts those items — KDE, XFCE, Cinnamon,
// Ubuntu's GNOME (its AppIndicator extension)… but not the stock GNOME of Debian and Fedora,
// which hosts none. The StatusNotifierWatcher on the session bus knows whether a host has
// registered. (A legacy XEmbed-only tray would be missed: the app then shows its window too,
// which errs on the visible side.)

import { DbusClient } from './dbusClient.js';
import { DbusVariant } from './dbusWire.js';

const WATCHER = { destination: 'org.kde.StatusNotifierWatcher', path: '/StatusNotifierWatcher', interface: 'org.kde.StatusNotifierWatcher' } as const;
const DBUS = { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus' } as const;

export type TrayHostState = 'hosted' | 'no-watcher' | 'no-host' | 'no-session-bus';

/** Asks the session bus; any failure to reach it answers 'no-session-bus' (never throws). */
export async function statusNotifierHostState(env: NodeJS.ProcessEnv, timeoutMs = 1_000): Promise<TrayHostState> {
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) return 'no-session-bus';
  let bus: DbusClient;
  try {
    bus = await DbusClient.connect(address, timeoutMs);
  } catch {
    return 'no-session-bus';
  }
  try {
    const deadline = Date.now() + timeoutMs;
    const owned = await bus.call({ ...DBUS, member: 'NameHasOwner', signature: 's', body: [WATCHER.destination] }, { deadline });
    if (owned.body[0] !== true) return 'no-watcher';
    const reply = await bus.call(
      { destination: WATCHER.destination, path: WATCHER.path, interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: [WATCHER.interface, 'IsStatusNotifierHostRegistered'] },
      { deadline },
    );
    const [variant] = reply.body;
    return variant instanceof DbusVariant && variant.value === true ? 'hosted' : 'no-host';
  } catch {
    // A watcher that does not answer cannot show our icon either.
    return 'no-host';
  } finally {
    bus.close();
  }
}
