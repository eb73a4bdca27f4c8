// Parts of an app that another process draws: WebKitGTK's web process, an out-of-process plugin.
// AT-SPI joins them with a socket in the app (an element whose child lives on another bus
// connection) and a plug in the other process (that child, the root of the embedded tree). The
// socket's child is only answered to GetChildAtIndex (WebKitGTK 2.4x answers GetChildren with
// none) or listed by GetChildren with the other bus name (ATK sockets): both are looked for.

import type { Progress } from '../../core/progress.js';
import { NULL_PATH, type ObjectRef } from '../../../native/linux/atspiProtocol.js';
import type { AtspiBus } from './atspiBus.js';
import { isShowing, type RawNode, type RawTree } from './atspiTreeModel.js';

/** Embeds inside embeds (a web process inside a plugin inside an app) followed this deep, no deeper. */
export const MAX_EMBED_DEPTH = 3;
/** Embedded trees read in one snapshot (a page with many out-of-process frames is cut here). */
export const MAX_EMBEDS = 8;
/** Sockets asked for their child in one tree: elements that claim children and were given none. */
export const MAX_SOCKET_PROBES = 16;
/** An embedded process that does not answer costs at most this much of a snapshot (its app's part stays whole). */
export const EMBED_READ_MS = 1000;

export interface EmbedRef {
  /** The socket: the element of this tree the embedded tree hangs under. */
  socket: RawNode;
  /** The plug: the embedded tree's root, on another bus connection. */
  plug: ObjectRef;
}

/**
 * Elements that look like occupied sockets: claiming children and holding none after the live
 * look at the cache's gaps (an own child would have been found by then), and on screen. WebKitGTK's
 * socket (GTK 3 yelp) reports no state at all, not even showing: one without any state counts
 * when its parent is on screen. Few in an app that embeds nothing.
 */
export function socketSuspects(tree: RawTree, alreadyFound: ReadonlySet<RawNode>): RawNode[] {
  const suspects: RawNode[] = [];
  for (const node of tree.byPath.values()) {
    if (suspects.length >= MAX_SOCKET_PROBES) break;
    if (node === tree.root || alreadyFound.has(node) || node.childCount < 1 || node.children.length > 0) continue;
    const parent = node.parentPath === null ? undefined : tree.byPath.get(node.parentPath);
    if (isShowing(node) || (hasNoState(node) && parent !== undefined && isShowing(parent))) suspects.push(node);
  }
  return suspects;
}

function hasNoState(node: RawNode): boolean {
  return node.states.every((word) => word === 0);
}

/** A reference to an object of another bus connection than `ownBus` (not the null object). */
export function isForeignRef(ref: ObjectRef | null | undefined, ownBus: string): ref is ObjectRef {
  return !!ref && ref[0] !== '' && ref[0] !== ownBus && !!ref[1] && ref[1] !== NULL_PATH;
}

/**
 * The unique connection name (":1.42") behind a bus name: a plug may be named by a well-known
 * name (WebKitGTK's "org.gnome.Yelp.Sandboxed.WebProcess-…") while its objects and hit tests
 * answer with the unique one, which is what element identities are made of. null when no one owns it.
 */
export async function uniqueBusName(bus: AtspiBus, name: string, progress: Progress): Promise<string | null> {
  if (name.startsWith(':')) return name;
  try {
    const [owner] = await bus.call(
      { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'GetNameOwner', signature: 's', body: [name] },
      progress,
      'find an embedded process',
    );
    return typeof owner === 'string' && owner.startsWith(':') ? owner : null;
  } catch (error) {
    if (progress.signal.aborted) throw error;
    return null;
  }
}
