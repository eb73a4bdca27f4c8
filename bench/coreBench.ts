// Core bench: the work every tool call does on the tree — diff two snapshots, format a tree file,
// write the call's artifacts — on realistic app trees (see test/support/treeFactory.ts) with a
// few real changes.
// Goal (DESIGN): diffing two 10 000-element trees takes under 20 ms.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ElementNode } from '../src/core/model.js';
import { ArtifactStore, DEFAULT_MAX_CALLS } from '../src/core/artifacts/artifacts.js';
import { diffTrees, formatDiff, summarizeDiff } from '../src/core/tree/diff.js';
import { formatTree } from '../src/core/tree/treeFormat.js';
import { buildAppTree, rect, withChanged, withInserted, withoutSubtree } from '../test/support/treeFactory.js';
import { formatMs, measure, type Measurement } from './lib/measure.js';
import { printTable } from './lib/table.js';

const RUNS = 21;
const WARMUP = 5;
/** Small trees finish 5 warm-up runs before the JIT has optimised the diff: warm up by time too. */
const WARMUP_MS = 300;
const DIFF_GOAL_MS = 20;

/**
 * What a typical action does to a tree: three cells renamed, one row removed, two labels added,
 * a toggle switched, and a quarter of the elements shifted down (a banner appeared).
 */
export function editedCopy(before: readonly ElementNode[]): ElementNode[] {
  const n = before.length;
  const pick = (from: number, role: string): number => {
    const at = before.findIndex((el, i) => i >= from && el.role === role && el.text !== '');
    return at >= 0 ? at : before.findIndex((el) => el.role === role);
  };
  let after = before.slice();
  for (const fraction of [0.2, 0.5, 0.8]) {
    const cell = pick(Math.floor(n * fraction), 'TableCell');
    if (cell >= 0) after = withChanged(after, cell, { text: `${before[cell].text} (edited)` });
  }
  const toggle = pick(0, 'ToggleButton');
  if (toggle >= 0) after = withChanged(after, toggle, { selected: true });
  after = after.map((el, i) => (i > n * 0.75 && el.bounds ? { ...el, bounds: { ...el.bounds, y: el.bounds.y + 30 } } : el));
  const row = pick(Math.floor(n * 0.6), 'TableRow');
  if (row >= 0) after = withoutSubtree(after, row);
  for (const fraction of [0.3, 0.9]) {
    const at = Math.floor(after.length * fraction);
    const parent = after[at].parentIndex ?? 0;
    after = withInserted(after, at, parent, { ...after[at], role: 'Label', text: `New label ${fraction}`, bounds: rect(10, 10 + at, 80, 16), identity: undefined });
  }
  return after;
}

interface Row {
  measurement: Measurement;
  elements: number;
  note: string;
}

/** One call's files written into a folder already holding DEFAULT_MAX_CALLS calls (so every write also prunes). */
async function measureArtifactWrite(): Promise<Row> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-artifacts-'));
  try {
    let ms = Date.now();
    const store = await ArtifactStore.open({ dir: path.join(scratch, 'artifacts'), now: () => ms++ });
    const text = formatTree({ pid: 1, app: 'Bench', elements: buildAppTree(300, { seed: 2 }), elapsedMs: 0 });
    for (let i = 0; i < DEFAULT_MAX_CALLS; i++) await store.writeCall('click', { text });
    const measurement = await measure('artifact writeCall', () => store.writeCall('click', { text }), { runs: 101, warmup: 5 });
    return { measurement, elements: 300, note: `${text.length} B text, ${DEFAULT_MAX_CALLS} calls kept (rescan every 50 writes)` };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function runCoreBench(): Promise<void> {
  const rows: Row[] = [];
  let goal: Measurement | undefined;
  for (const size of [1_000, 10_000, 50_000]) {
    for (const identities of [false, true]) {
      const before = buildAppTree(size, { seed: size, identities });
      const after = editedCopy(before);
      const diff = diffTrees(before, after);
      const note = summarizeDiff(diff);
      const name = `diff (${identities ? 'identities' : 'no identities'})`;
      const measurement = await measure(name, () => formatDiff(diffTrees(before, after)), { runs: RUNS, warmup: WARMUP, warmupMs: WARMUP_MS });
      rows.push({ measurement, elements: size, note });
      if (size === 10_000 && !identities) goal = measurement;
    }
  }
  const tree = buildAppTree(10_000, { seed: 5 });
  const snapshot = { pid: 1, app: 'Bench', elements: tree, elapsedMs: 0 };
  rows.push({ measurement: await measure('formatTree', () => formatTree(snapshot), { runs: RUNS, warmup: WARMUP, warmupMs: WARMUP_MS }), elements: 10_000, note: `${formatTree(snapshot).length} chars` });

  rows.push(await measureArtifactWrite());

  printTable(
    'Core: tree diff, tree format, artifact write (diff = pairing + formatDiff; trees from test/support/treeFactory.ts)',
    ['case', 'elements', 'median ms', 'p95 ms', 'cpu median ms', 'runs', 'result'],
    rows.map(({ measurement, elements, note }) => [
      measurement.name,
      elements,
      formatMs(measurement.medianMs),
      formatMs(measurement.p95Ms),
      formatMs(measurement.cpuMedianMs),
      measurement.runs,
      note,
    ]),
  );
  if (goal) {
    const pass = goal.medianMs < DIFF_GOAL_MS;
    console.log(`\n10k diff < ${DIFF_GOAL_MS} ms: ${pass ? 'PASS' : 'FAIL'} (${formatMs(goal.medianMs)} ms median, no identities)`);
    console.log(`(load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs: wall times grow on a busy machine; the cpu column less so)`);
  }
}
