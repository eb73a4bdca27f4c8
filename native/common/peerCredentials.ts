// Who is at the other end of a connected Unix socket: Linux SO_PEERCRED through getsockopt(2),
// macOS getpeereid(3) and getsockopt(2) LOCAL_PEERPID (<sys/un.h>), all through koffi. The kernel fills these in at connect() time, so the
// answer cannot be forged by the peer. Returns null where it cannot tell (other platforms, no
// fd): the caller then relies on the 0700 socket folder alone.

import koffi from 'koffi';

export interface PeerCredentials {
  uid: number;
  gid: number;
  /** The peer's pid where the kernel tells it (Linux; macOS 10.8+ through LOCAL_PEERPID). */
  pid?: number;
}

type Reader = (fd: number) => PeerCredentials | null;

// <sys/socket.h> on Linux (x86, ARM, RISC-V; not MIPS/SPARC/PowerPC, which Tandem does not target).
const SOL_SOCKET = 1;
const SO_PEERCRED = 17;
const UCRED_SIZE = 12;

function linuxReader(): Reader {
  const libc = koffi.load('libc.so.6');
  // Registers the named type the signature below refers to.
  koffi.struct('tandem_ucred', { pid: 'int32', uid: 'uint32', gid: 'uint32' });
  const getsockopt = libc.func('int getsockopt(int sockfd, int level, int optname, _Out_ tandem_ucred *optval, _Inout_ uint32_t *optlen)');
  return (fd) => {
    const credentials: { pid?: number; uid?: number; gid?: number } = {};
    const length = [UCRED_SIZE];
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, credentials, length) !== 0) return null;
    if (credentials.uid === undefined || credentials.gid === undefined) return null;
    return { pid: credentials.pid, uid: credentials.uid, gid: credentials.gid };
  };
}

// <sys/un.h> on macOS: socket options of the local (Unix) domain.
const SOL_LOCAL = 0;
const LOCAL_PEERPID = 0x002;

function macReader(): Reader {
  const system = koffi.load('/usr/lib/libSystem.B.dylib');
  const getpeereid = system.func('int getpeereid(int socket, _Out_ uint32_t *euid, _Out_ uint32_t *egid)');
  const getsockopt = system.func('int getsockopt(int socket, int level, int option_name, _Out_ int32_t *option_value, _Inout_ uint32_t *option_len)');
  return (fd) => {
    const uid = [0];
    const gid = [0];
    if (getpeereid(fd, uid, gid) !== 0) return null;
    // The pid lets kill_app spare the client's process tree; without it kill_app refuses.
    const pid = [0];
    const length = [4];
    const known = getsockopt(fd, SOL_LOCAL, LOCAL_PEERPID, pid, length) === 0 && pid[0] > 0;
    return known ? { uid: uid[0], gid: gid[0], pid: pid[0] } : { uid: uid[0], gid: gid[0] };
  };
}

let reader: Reader | null | undefined;

/** The peer of the connected Unix socket `fd`, or null when this platform cannot say. */
export function peerCredentials(fd: number): PeerCredentials | null {
  if (reader === undefined) {
    try {
      reader = process.platform === 'linux' ? linuxReader() : process.platform === 'darwin' ? macReader() : null;
    } catch {
      reader = null;
    }
  }
  return reader ? reader(fd) : null;
}
