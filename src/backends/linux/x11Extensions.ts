// An X extension's major opcode, when the server has it at least at a given version: the one
// check the overlay (SHAPE ≥ 1.1 for input shapes) and the monitor reading (RandR ≥ 1.5) share.

import type { X11Connection } from '../../../native/linux/x11Connection.js';

interface Version {
  major: number;
  minor: number;
}

/** null when the extension is missing, older than `minimum`, or cannot be asked. */
export async function extensionOpcode(
  connection: X11Connection,
  name: string,
  minimum: Version,
  versionRequest: (majorOpcode: number) => Buffer,
  parseVersion: (body: Buffer) => Version,
): Promise<number | null> {
  try {
    const ext = await connection.request<{ present: number; majorOpcode: number }>((callback) => connection.client.QueryExtension(name, callback));
    if (!ext.present) return null;
    const version = await connection.requestRaw(versionRequest(ext.majorOpcode), parseVersion);
    return version.major > minimum.major || (version.major === minimum.major && version.minor >= minimum.minor) ? ext.majorOpcode : null;
  } catch {
    return null;
  }
}
