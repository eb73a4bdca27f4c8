// Which toolkit an app is built with (Application.ToolkitName and Version), read once per app
// and shared: the tree reader and the hit test both decide by it (GTK 4.8 answers screen
// coordinates relative to the window; Qt 5.15 dies on Properties.GetAll).

import { IFACE } from '../../../native/linux/atspiProtocol.js';
import type { Progress } from '../../core/progress.js';
import type { AtspiBus } from './atspiBus.js';

export interface Toolkit {
  name: string;
  version: string;
}

export class AtspiToolkits {
  private readonly known = new Map<string, Promise<Toolkit>>();

  constructor(private readonly bus: AtspiBus) {}

  /** The toolkit of the app at `busName` (its root at `rootPath`); '' for what it does not say. */
  of(busName: string, rootPath: string, progress: Progress): Promise<Toolkit> {
    let known = this.known.get(busName);
    if (!known) {
      const read = (property: string): Promise<string> =>
        this.bus
          .getProperty(busName, rootPath, IFACE.application, property, progress, 'read the toolkit')
          .then((value) => String(value ?? ''))
          .catch(() => '');
      known = Promise.all([read('ToolkitName'), read('Version')]).then(([name, version]) => ({ name, version }));
      this.known.set(busName, known);
    }
    return known;
  }
}

/** Toolkits whose apps crash on Properties.GetAll of the Accessible interface (Qt 5.15.8). */
export function isGetAllUnsafeToolkit(toolkit: Toolkit): boolean {
  return /^qt$/i.test(toolkit.name);
}

export function isWindowRelativeToolkit(toolkit: Toolkit): boolean {
  return /^gtk$/i.test(toolkit.name) && /^4\./.test(toolkit.version);
}

/**
 * Toolkits that answer EditableText's InsertText and SetTextContents with success but never
 * apply them: Gecko (Firefox ESR 153, page fields and the address bar alike; the field read
 * again 0.2, 1 and 3 s later still holds what it held, and the page shows nothing). Text goes
 * into their fields as keys instead.
 */
export function ignoresTextInsertion(toolkitName: string): boolean {
  return /^gecko$/i.test(toolkitName.trim());
}
