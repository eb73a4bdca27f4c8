// Action names of an element drawn by an embedded process. WebKitGTK's own AT-SPI (2.4x, yelp's
// web process) never answers GetActions for an element whose one action has no name (headings,
// sections: measured, no reply in 5 s), while NActions and GetName answer at once: there the
// names are read one by one. Apps' own elements keep the one GetActions round trip. Shared by
// the tree reader and the actions.

import { IFACE } from '../../../native/linux/atspiProtocol.js';
import type { Progress } from '../../core/progress.js';
import type { AtspiBus } from './atspiBus.js';

/** More actions than any element offers: a count past it is not believed. */
const MAX_ACTIONS = 16;

export async function actionNamesOneByOne(bus: AtspiBus, busName: string, path: string, progress: Progress, what: string): Promise<string[]> {
  const count = Number(await bus.getProperty(busName, path, IFACE.action, 'NActions', progress, what));
  const indexes = Array.from({ length: Number.isFinite(count) ? Math.max(0, Math.min(count, MAX_ACTIONS)) : 0 }, (_, index) => index);
  return Promise.all(
    indexes.map(async (index) => {
      const [name] = await bus.call({ destination: busName, path, interface: IFACE.action, member: 'GetName', signature: 'i', body: [index] }, progress, what);
      return String(name ?? '');
    }),
  );
}

/** An element's action names: one GetActions call, or one by one where it is drawn by an embedded process. */
export async function readActionNames(bus: AtspiBus, busName: string, path: string, embedded: boolean, progress: Progress, what: string): Promise<string[]> {
  if (embedded) return actionNamesOneByOne(bus, busName, path, progress, what);
  const [actions] = await bus.call({ destination: busName, path, interface: IFACE.action, member: 'GetActions' }, progress, what);
  return (actions as Array<[string, string, string]>).map(([name]) => name);
}
