// `npm run bench`: runs each bench module in turn. A module is listed once below; optional ones
// are imported only when their file exists and their requirement (e.g. an X display) is met,
// otherwise skipped with the reason printed. `npm run bench -- core` runs only the modules whose
// name starts with one of the given words.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface BenchModule {
  name: string;
  /** Module path relative to this file, without extension (.js when built, .ts under tsx). */
  file: string;
  exportName: string;
  /** A reason to skip, or null to run. */
  skipReason?: () => string | null;
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && existsSync(path.join(dir, command)));
}

/** The Linux bench starts its own virtual display (Xvfb) or uses the one in DISPLAY. */
const needsXDisplay = (): string | null => {
  if (process.platform !== 'linux') return `not on Linux (${process.platform})`;
  if (process.env.DISPLAY || onPath('Xvfb')) return null;
  return 'no X display: DISPLAY is not set and Xvfb is not installed';
};

const BENCHES: BenchModule[] = [
  { name: 'core', file: './coreBench', exportName: 'runCoreBench' },
  { name: 'linux desktop', file: './linuxBench', exportName: 'runLinuxBench', skipReason: needsXDisplay },
  { name: 'refresh', file: './refreshBench', exportName: 'runRefreshBench', skipReason: needsXDisplay },
  { name: 'typing', file: './typingBench', exportName: 'runTypingBench', skipReason: needsXDisplay },
  { name: 'cancel', file: './cancelBench', exportName: 'runCancelBench', skipReason: needsXDisplay },
];

function locate(file: string): string | null {
  for (const extension of ['.js', '.ts']) {
    const url = new URL(file + extension, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url.href;
  }
  return null;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  let failed = false;
  for (const bench of BENCHES) {
    if (only.length && !only.some((name) => bench.name.startsWith(name))) continue;
    const url = locate(bench.file);
    if (!url) {
      console.log(`\n[bench] ${bench.name}: skipped (${bench.file} is not there yet)`);
      continue;
    }
    const reason = bench.skipReason?.();
    if (reason) {
      console.log(`\n[bench] ${bench.name}: skipped (${reason})`);
      continue;
    }
    console.log(`\n[bench] ${bench.name}`);
    try {
      const module = (await import(url)) as Record<string, unknown>;
      const run = module[bench.exportName];
      if (typeof run !== 'function') throw new Error(`${bench.file} does not export ${bench.exportName}()`);
      await (run as () => Promise<void>)();
    } catch (error) {
      failed = true;
      console.error(`[bench] ${bench.name} failed:`, error);
    }
  }
  if (failed) process.exitCode = 1;
}

await main();
