// The socket host's peer-uid check: only processes of the user who runs the host may talk to it.
// This sits on top of the 0700 socket folder (which already keeps other users from connecting);
// it guards against a folder whose mode was loosened by hand. The native reader loads lazily so
// the rest of the launcher never pulls koffi in.

import type { Socket } from 'node:net';
import type { PeerCheck } from './host.js';

export interface PeerIdentity {
  uid: number;
  pid?: number;
}

/** Pure verdict, unit-tested: same uid → allowed; unknown → null (rely on the folder). */
export function peerVerdict(peer: PeerIdentity | null, ownUid: number | undefined): ReturnType<PeerCheck> {
  if (!peer || ownUid === undefined) return null;
  if (peer.uid === ownUid) return { allowed: true, detail: `uid ${peer.uid}${peer.pid ? `, pid ${peer.pid}` : ''}`, ...(peer.pid ? { pid: peer.pid } : {}) };
  return { allowed: false, detail: `peer uid ${peer.uid}${peer.pid ? ` (pid ${peer.pid})` : ''} is not uid ${ownUid}` };
}

/** The file descriptor under a connected net.Socket (libuv's pipe handle; not public API). */
export function socketFd(socket: Socket): number | undefined {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

/** A PeerCheck over the native reader, or undefined when it cannot load on this machine. */
export async function nativePeerCheck(log: (message: string) => void = (m) => console.error(`[tandem host] ${m}`)): Promise<PeerCheck | undefined> {
  try {
    const { peerCredentials } = await import('../../../native/common/peerCredentials.js');
    const ownUid = process.getuid?.();
    return (socket) => {
      const fd = socketFd(socket);
      return peerVerdict(fd === undefined ? null : peerCredentials(fd), ownUid);
    };
  } catch (error) {
    log(`peer uid check unavailable (${(error as Error).message}): relying on the 0700 socket folder`);
    return undefined;
  }
}
