// libproc's struct proc_bsdinfo (<sys/proc_info.h>), read from the bytes proc_pidinfo fills
// for the PROC_PIDTBSDINFO flavour. Pure, so the layout is unit-tested off macOS:
//
//   uint32 flags, status, xstatus, pid, ppid, uid, gid, ruid, rgid, svuid, svgid, rfu_1  (0…47)
//   char comm[16] (48), char name[32] (64)
//   uint32 nfiles, pgid, pjobc, e_tdev, e_tpgid; int32 nice                              (96…119)
//   uint64 start_tvsec (120), uint64 start_tvusec (128)                                    = 136 bytes

export const PROC_PIDTBSDINFO = 3;
export const PROC_BSDINFO_SIZE = 136;
/** PROC_PIDPATHINFO_MAXSIZE = 4 * MAXPATHLEN. */
export const PROC_PIDPATHINFO_MAXSIZE = 4096;

export interface ProcBsdInfo {
  pid: number;
  ppid: number;
  uid: number;
  /** The executable's name, at most 16 bytes (pbi_comm). */
  comm: string;
  /** The longer name when one is registered (pbi_name), else ''. */
  name: string;
  /** Wall-clock start, epoch milliseconds (pbi_start_tvsec + tvusec). */
  startMs: number;
}

function cString(buffer: Buffer, offset: number, length: number): string {
  const bytes = buffer.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end < 0 ? length : end).toString('utf8');
}

export function decodeProcBsdInfo(buffer: Buffer): ProcBsdInfo {
  if (buffer.length < PROC_BSDINFO_SIZE) throw new Error(`proc_bsdinfo needs ${PROC_BSDINFO_SIZE} bytes, got ${buffer.length}`);
  return {
    pid: buffer.readUInt32LE(12),
    ppid: buffer.readUInt32LE(16),
    uid: buffer.readUInt32LE(20),
    comm: cString(buffer, 48, 16),
    name: cString(buffer, 64, 32),
    startMs: Number(buffer.readBigUInt64LE(120)) * 1000 + Number(buffer.readBigUInt64LE(128)) / 1000,
  };
}

/** The inverse, for tests and fakes. */
export function encodeProcBsdInfo(info: ProcBsdInfo): Buffer {
  const buffer = Buffer.alloc(PROC_BSDINFO_SIZE);
  buffer.writeUInt32LE(info.pid, 12);
  buffer.writeUInt32LE(info.ppid, 16);
  buffer.writeUInt32LE(info.uid, 20);
  buffer.write(info.comm.slice(0, 15), 48, 'utf8');
  buffer.write(info.name.slice(0, 31), 64, 'utf8');
  const seconds = Math.floor(info.startMs / 1000);
  buffer.writeBigUInt64LE(BigInt(seconds), 120);
  buffer.writeBigUInt64LE(BigInt(Math.round((info.startMs - seconds * 1000) * 1000)), 128);
  return buffer;
}
