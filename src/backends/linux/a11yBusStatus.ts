// org.a11y.Status on the session bus: the desktop-wide "assistive technology is on" switch that
// at-spi-bus-launcher (at-spi2-core) publishes on /org/a11y/bus. Toolkits read it when they
// start: Chromium, Electron and Firefox only load their accessibility bridge when IsEnabled is
// true (or their own environment variable says so). A screen reader such as Orca sets IsEnabled
// when it starts. The launcher also writes the value through to the GSettings key
// org.gnome.desktop.interface toolkit-accessibility when that schema is installed, so the
// setting outlives the session there.

import { TandemError } from '../../core/errors.js';
import { A11Y_LAUNCHER, IFACE } from '../../../native/linux/atspiProtocol.js';
import { DbusClient } from '../../../native/linux/dbusClient.js';
import { DbusVariant } from '../../../native/linux/dbusWire.js';

export const A11Y_STATUS_INTERFACE = 'org.a11y.Status';

export interface A11yBusState {
  isEnabled: boolean;
  /** Older launchers (at-spi2-core ≤ 2.46, Debian 12) also publish this; undefined where absent. */
  screenReaderEnabled?: boolean;
}

/** One short-lived session-bus connection for reading or writing the switch. */
export class A11yBusStatus {
  private constructor(private readonly session: DbusClient) {}

  static async open(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<A11yBusStatus> {
    const address = env.DBUS_SESSION_BUS_ADDRESS;
    if (!address) throw new TandemError('permission', 'DBUS_SESSION_BUS_ADDRESS is not set: there is no session bus to find org.a11y.Status on.');
    return new A11yBusStatus(await DbusClient.connect(address, timeoutMs));
  }

  async read(timeoutMs: number): Promise<A11yBusState> {
    const isEnabled = await this.get('IsEnabled', timeoutMs);
    const screenReaderEnabled = await this.get('ScreenReaderEnabled', timeoutMs).catch(() => undefined);
    return { isEnabled: isEnabled === true, ...(typeof screenReaderEnabled === 'boolean' ? { screenReaderEnabled } : {}) };
  }

  async setEnabled(enabled: boolean, timeoutMs: number): Promise<void> {
    await this.session.call(
      { ...A11Y_LAUNCHER, interface: IFACE.properties, member: 'Set', signature: 'ssv', body: [A11Y_STATUS_INTERFACE, 'IsEnabled', new DbusVariant('b', enabled)] },
      { deadline: Date.now() + timeoutMs },
    );
  }

  close(): void {
    this.session.close();
  }

  private async get(property: string, timeoutMs: number): Promise<unknown> {
    const reply = await this.session.call(
      { ...A11Y_LAUNCHER, interface: IFACE.properties, member: 'Get', signature: 'ss', body: [A11Y_STATUS_INTERFACE, property] },
      { deadline: Date.now() + timeoutMs },
    );
    const [variant] = reply.body;
    return variant instanceof DbusVariant ? variant.value : undefined;
  }
}
