// What an ElementNode's opaque `handle` holds on Linux: enough to reach the object again.

import type { ElementNode } from '../../core/model.js';
import { TandemError } from '../../core/errors.js';

export interface AtspiHandle {
  kind: 'atspi';
  busName: string;
  path: string;
  role: number;
  interfaces: string[];
  states: number[];
  /** Parent object path (same bus), null for the application root. */
  parentPath: string | null;
  parentInterfaces: string[];
  /** Position among the parent's children, -1 when unknown. */
  indexInParent: number;
  /** Drawn by another process embedded in the app (atspiEmbeds): busName is that process's. */
  embedded?: true;
  /** Action names, when the snapshot read them (showing nodes). */
  actionNames?: string[];
}

/** An element's identity in a snapshot: its app's bus name and its object path (the hit test names elements the same way). */
export function atspiIdentity(busName: string, path: string): string {
  return `${busName}${path}`;
}

export function atspiHandleOf(element: ElementNode): AtspiHandle {
  const handle = element.handle as Partial<AtspiHandle> | null | undefined;
  if (!handle || handle.kind !== 'atspi' || typeof handle.busName !== 'string' || typeof handle.path !== 'string') {
    throw new TandemError('stale-element', 'This element does not come from a Linux accessibility snapshot.');
  }
  return handle as AtspiHandle;
}
