// A stand-in for Electron's unpacked distribution, for running electron-builder for real without
// downloading Electron (the download host is out of reach here). electron-builder copies it as
// the app's binary, flips its fuses and packs the app around it, exactly as it does with the real
// one. The binary is a shell script that does the one thing the packaged launcher asks of it:
// run a script as Node (ELECTRON_RUN_AS_NODE=1). It cannot read inside app.asar as Electron
// does, so it runs the script from a folder the test extracted the archive into.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** @electron/fuses finds the fuse wire after this marker in the binary (as in every Electron ≥ 12). */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron's own defaults for the eight v1 fuses ('1' on, '0' off), in FuseV1Options order. */
const DEFAULT_FUSES = '10110001';

/** Where the stand-in looks for the extracted archive, beside app.asar. */
export const EXTRACTED_APP = 'app.extracted';

export function writeStandInElectron(dir: string, version: string): void {
  mkdirSync(dir, { recursive: true });
  const script = [
    '#!/bin/sh',
    '# Stand-in for the Electron binary (see test/app/support/standInElectron.ts).',
    'if [ "$ELECTRON_RUN_AS_NODE" = 1 ]; then',
    '  script=$1',
    '  shift',
    `  exec "$TANDEM_TEST_NODE" "$(printf '%s' "$script" | sed 's#/app\\.asar/#/${EXTRACTED_APP}/#')" "$@"`,
    'fi',
    'echo "stand-in Electron: only ELECTRON_RUN_AS_NODE=1 is supported" >&2',
    'exit 64',
    '',
  ].join('\n');
  const fuses = Buffer.concat([Buffer.from(`# ${FUSE_SENTINEL}`), Buffer.from([1, DEFAULT_FUSES.length]), Buffer.from(`${DEFAULT_FUSES}\n`)]);
  writeFileSync(join(dir, 'electron'), Buffer.concat([Buffer.from(script), fuses]));
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), version);
}
