// Cold starts for the e2e suite: with the kernel's page cache dropped, the next program start
// reads its files from disk, the slow start a person sees after a reboot.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/** Drops the page cache; false where this process may not (not root, or a read-only /proc/sys). */
export function dropPageCache(): boolean {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}
