// The app's own answer to "what is at this point" (AT-SPI Component.GetAccessibleAtPoint),
// asked level by level from a window down to the deepest element there. An app can report an
// element's extents wrong (LibreOffice puts its toolbar buttons ~28 px above where it paints
// them) while its hit test follows what it paints: core compares the two before a click.

import type { ElementNode, Point } from '../../core/model.js';
import type { Progress } from '../../core/progress.js';
import { COORD_TYPE_SCREEN, IFACE, NULL_PATH, ROOT_PATH, type ObjectRef } from '../../../native/linux/atspiProtocol.js';
import type { AtspiBus } from './atspiBus.js';
import { atspiHandleOf, atspiIdentity } from './atspiHandle.js';
import { isWindowRelativeToolkit, type AtspiToolkits } from './atspiToolkit.js';
import { uniqueBusName } from './atspiEmbeds.js';

/** Deeper than any real widget nesting: a toolkit that keeps answering a new child stops here. */
const MAX_LEVELS = 40;

export class AtspiHitTest {
  constructor(
    private readonly bus: AtspiBus,
    private readonly toolkits: AtspiToolkits,
  ) {}

  /**
   * The identities of the elements at `point` inside `window`, outermost (the window) first.
   * null where the window offers no Component or the toolkit answers in window coordinates.
   */
  async accessibleAtPoint(window: ElementNode, point: Point, progress: Progress): Promise<string[] | null> {
    const handle = atspiHandleOf(window);
    if (!handle.interfaces.includes(IFACE.component)) return null;
    // GTK4 (4.8) answers a screen point as if it were relative to the window: its hit test would be wrong.
    if (isWindowRelativeToolkit(await this.toolkits.of(handle.busName, ROOT_PATH, progress))) return null;
    const chain = [atspiIdentity(handle.busName, handle.path)];
    let path = handle.path;
    let busName = handle.busName;
    for (let level = 0; level < MAX_LEVELS; level++) {
      const [ref] = await this.bus.call(
        {
          destination: busName,
          path,
          interface: IFACE.component,
          member: 'GetAccessibleAtPoint',
          signature: 'iiu',
          body: [Math.round(point.x), Math.round(point.y), COORD_TYPE_SCREEN],
        },
        progress,
        'find the element at a point',
      );
      const [childBus, childPath] = ref as ObjectRef;
      if (!childPath || childPath === NULL_PATH || (childPath === path && (childBus === busName || childBus === ''))) break;
      // A child in another process (WebKitGTK's web process under its socket) is followed there:
      // the snapshot reads that process as part of the app, under its unique bus name.
      const nextBus = childBus === '' || childBus === busName ? busName : await uniqueBusName(this.bus, childBus, progress);
      if (!nextBus) break;
      chain.push(atspiIdentity(nextBus, childPath));
      path = childPath;
      busName = nextBus;
    }
    return chain;
  }
}
