// Proof that a faster tree read reads the same tree: the tree file text and every element's
// fields (all but the backend's handle), read by this build and by an earlier build of Tandem
// (its dist folder) from the same apps on one virtual display, side by side. A change to how
// the tree is read (issue 19 §5: fewer requests per refresh) must leave both identical.
// Usage: `npm run build && node dist/scripts/compareTreeReads.js <earlier dist folder>`;
// exits 1 when a tree differs, printing the first lines that differ.

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Desktop } from '../src/core/desktop.js';
import type { TreeSnapshot } from '../src/core/model.js';
import { DEFAULT_SNAPSHOT_LIMITS } from '../src/core/engine.js';
import { createProgress } from '../src/core/progress.js';
import { readWithContent } from '../src/core/apps/readability.js';
import { formatTree } from '../src/core/tree/treeFormat.js';
import { windowAwareDesktop } from '../src/core/tree/windowAwareDesktop.js';
import { AtspiAccessibility } from '../src/backends/linux/atspiAccessibility.js';
import { LinuxDesktop } from '../src/backends/linux/linuxDesktop.js';
import { X11Display } from '../src/backends/linux/x11Display.js';
import { startVirtualDesktop } from './lib/virtualDesktop.js';

const APPS = ['gtk3-widget-factory', 'mousepad'];
/** Reads per build and app: an app that animates (a spinner) may change between two reads. */
const ROUNDS = 3;
const SETTLE_MS = 5_000;

type TreeText = (snapshot: TreeSnapshot) => string;
interface Reader {
  desktop: Desktop;
  treeText: TreeText;
  close(): Promise<void>;
}

/** The tree as an agent gets it: the tree file, then each element's fields as JSON (the handle left out). */
function fingerprint(snapshot: TreeSnapshot, treeText: TreeText): string {
  const fields = snapshot.elements.map(({ handle: _handle, ...rest }) => JSON.stringify(rest));
  return `${treeText(snapshot)}\n${fields.join('\n')}`;
}

async function reader(distRoot: string, display: string, env: NodeJS.ProcessEnv): Promise<Reader> {
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(distRoot, path)).href)) as T;
  const x11Module = await load<{ X11Display: typeof X11Display }>('src/backends/linux/x11Display.js');
  const atspiModule = await load<{ AtspiAccessibility: typeof AtspiAccessibility }>('src/backends/linux/atspiAccessibility.js');
  const linuxModule = await load<{ LinuxDesktop: typeof LinuxDesktop }>('src/backends/linux/linuxDesktop.js');
  const awareModule = await load<{ windowAwareDesktop: typeof windowAwareDesktop }>('src/core/tree/windowAwareDesktop.js');
  const formatModule = await load<{ formatTree: typeof formatTree }>('src/core/tree/treeFormat.js');
  const x11 = await x11Module.X11Display.open({ display });
  const atspi = await atspiModule.AtspiAccessibility.connect({ env, windowOrigin: (pid, title) => x11.windowOrigin(pid, title) });
  const linux = new linuxModule.LinuxDesktop(x11, atspi);
  return { desktop: awareModule.windowAwareDesktop(linux), treeText: formatModule.formatTree, close: () => linux.close() };
}

function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const at = left.findIndex((line, index) => line !== right[index]);
  return `line ${at + 1}:\n  before: ${left[at]}\n  now:    ${right[at] ?? '(none)'}`;
}

async function main(): Promise<number> {
  const earlierDist = process.argv[2];
  if (!earlierDist) throw new Error('usage: compareTreeReads <earlier dist folder>');
  const virtual = await startVirtualDesktop();
  const before = await reader(earlierDist, virtual.display, virtual.env);
  const now: Reader = await reader(resolve(import.meta.dirname, '..'), virtual.display, virtual.env);
  let failures = 0;
  try {
    for (const app of APPS) {
      const pid = virtual.spawnApp(app, []).pid!;
      await new Promise((done) => setTimeout(done, SETTLE_MS));
      const read = async (side: Reader): Promise<string> =>
        fingerprint(await readWithContent(side.desktop, pid, DEFAULT_SNAPSHOT_LIMITS, createProgress({ timeoutMs: 30_000 })), side.treeText);
      let same = 0;
      let last = { before: '', now: '' };
      for (let round = 0; round < ROUNDS; round++) {
        last = { before: await read(before), now: await read(now) };
        if (last.before === last.now) same++;
      }
      const elements = last.now.split('\n').filter((line) => line.startsWith('{')).length;
      console.log(`${app}: ${same} of ${ROUNDS} reads identical (${elements} elements)`);
      if (same === 0) {
        failures++;
        console.log(firstDifference(last.before, last.now));
      }
    }
  } finally {
    await before.close().catch(() => {});
    await now.close().catch(() => {});
    await virtual.stop();
  }
  return failures === 0 ? 0 : 1;
}

process.exit(await main());
