// refresh_traversal on big and small windows (issue 19 §5): the client's request → answer
// through a real MCP client (stdio), beside a pyatspi per-node walk of the same app in the same
// run (the machine's load moves both), and where the time goes: each phase of the read call
// measured on its own in this process, the way readCall runs it.
// Goals: refresh_traversal p50 ≤ 30 ms and ≥ 5× faster than the pyatspi walk, on
// gtk3-widget-factory (a 1,380 × 740 window) and on mousepad. Printed as PASS/FAIL, never asserted.

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ArtifactStore } from '../src/core/artifacts/artifacts.js';
import { pngWithCrosshair } from '../src/core/artifacts/crosshair.js';
import { DEFAULT_SNAPSHOT_LIMITS } from '../src/core/engine.js';
import { createProgress } from '../src/core/progress.js';
import { readWithContent } from '../src/core/apps/readability.js';
import { secureAreas } from '../src/core/tree/redact.js';
import { formatTree } from '../src/core/tree/treeFormat.js';
import { AtspiAccessibility } from '../src/backends/linux/atspiAccessibility.js';
import { LinuxDesktop } from '../src/backends/linux/linuxDesktop.js';
import { X11Display } from '../src/backends/linux/x11Display.js';
import { McpSession } from '../scripts/lib/mcpSession.js';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../scripts/lib/virtualDesktop.js';
import { formatMs, measure, median, quantile } from './lib/measure.js';
import { pyatspiWalk } from './lib/pyatspiWalk.js';
import { printTable } from './lib/table.js';

const GOAL_MS = 30;
const RATIO_GOAL = 5;
const CALLS = 21;
const WALKS = 15;
/** An app is read once its tree stops changing: apps keep adding nodes for a while after their window shows. */
const SETTLE_POLL_MS = 250;

const progress = (): ReturnType<typeof createProgress> => createProgress({ timeoutMs: 30_000 });

async function startSettled(desktop: VirtualDesktop, linux: LinuxDesktop, command: string): Promise<number> {
  const pid = desktop.spawnApp(command, []).pid!;
  const deadline = Date.now() + 30_000;
  let last = -1;
  for (;;) {
    const count = await linux
      .windows(pid, progress())
      .then(async (windows) => (windows.length ? (await linux.snapshot(pid, DEFAULT_SNAPSHOT_LIMITS, progress())).elements.length : -1))
      .catch(() => -1);
    if (count > 0 && count === last) return pid;
    if (Date.now() > deadline) throw new Error(`${command} did not come up with a steady tree`);
    last = count;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

export async function runRefreshBench(): Promise<void> {
  ensureDesktopPackages();
  const desktop = await startVirtualDesktop();
  const x11 = await X11Display.open({ display: desktop.display });
  const atspi = await AtspiAccessibility.connect({ env: desktop.env, windowOrigin: (pid, title) => x11.windowOrigin(pid, title) });
  const linux = new LinuxDesktop(x11, atspi);
  const artifactsDir = mkdtempSync(join(tmpdir(), 'tandem-bench-artifacts-'));
  const rows: string[][] = [];
  const phases: string[][] = [];
  const goals: string[][] = [];
  const loadBefore = loadavg()[0];
  try {
    const session = await McpSession.start(desktop);
    try {
      for (const app of ['gtk3-widget-factory', 'mousepad']) {
        const pid = await startSettled(desktop, linux, app);
        const [window] = await linux.windows(pid, progress());
        const size = window?.bounds ? `${window.bounds.width}×${window.bounds.height}` : '?';

        // The call as a client sees it, then the baseline, back to back.
        await session.callOk('refresh_traversal', { pid });
        await session.callOk('refresh_traversal', { pid });
        const samples: number[] = [];
        const engineMs: number[] = [];
        let elements = '';
        for (let i = 0; i < CALLS; i++) {
          const started = performance.now();
          const result = await session.callOk('refresh_traversal', { pid });
          samples.push(performance.now() - started);
          engineMs.push(Number(result.structured.duration_ms));
          elements = String(result.structured.element_count ?? result.fields.elements ?? '');
        }
        samples.sort((a, b) => a - b);
        const p50 = quantile(samples, 0.5);
        const walk = await pyatspiWalk(pid, desktop.env, WALKS);
        const ratio = walk.medianMs / p50;
        rows.push([`refresh_traversal (${app})`, String(CALLS), formatMs(p50), formatMs(quantile(samples, 0.95)), `client request → answer; ${elements} elements, ${size} window`]);
        rows.push([`pyatspi per-node walk (${app})`, String(WALKS), formatMs(walk.medianMs), formatMs(quantile([...walk.samples].sort((a, b) => a - b), 0.95)), `${walk.nodes} nodes; refresh_traversal is ${ratio.toFixed(1)}× faster`]);
        goals.push([`refresh_traversal (${app}) p50 ≤ ${GOAL_MS} ms`, `${formatMs(p50)} ms`, p50 <= GOAL_MS ? 'PASS' : 'FAIL']);
        goals.push([`refresh_traversal (${app}) ≥ ${RATIO_GOAL}× the pyatspi walk`, `${ratio.toFixed(1)}×`, ratio >= RATIO_GOAL ? 'PASS' : 'FAIL']);

        // Where the time goes: readCall's phases one at a time, in this process.
        const store = await ArtifactStore.open({ dir: artifactsDir });
        let snapshot = await readWithContent(linux, pid, DEFAULT_SNAPSHOT_LIMITS, progress());
        let shot = await linux.screenshot({ pid }, progress());
        const covered = secureAreas(snapshot.elements);
        let png = await pngWithCrosshair(shot, undefined, covered);
        let text = formatTree(snapshot);
        const tree = await measure('tree read', async () => (snapshot = await readWithContent(linux, pid, DEFAULT_SNAPSHOT_LIMITS, progress())), { warmup: 2, runs: CALLS });
        const capture = await measure('capture', async () => (shot = await linux.screenshot({ pid }, progress())), { warmup: 2, runs: CALLS });
        const encode = await measure('PNG encode', async () => (png = await pngWithCrosshair(shot, undefined, covered)), { warmup: 2, runs: CALLS });
        const format = await measure('format', () => (text = formatTree(snapshot)), { warmup: 2, runs: CALLS });
        const files = await measure('file writes', () => store.writeCall('refresh_traversal', { text, png }), { warmup: 2, runs: CALLS });
        const engine = median(engineMs);
        phases.push([
          app,
          formatMs(tree.medianMs),
          formatMs(capture.medianMs),
          formatMs(encode.medianMs),
          formatMs(format.medianMs),
          formatMs(files.medianMs),
          formatMs(engine),
          formatMs(p50 - engine),
          `${(png.length / 1024).toFixed(0)} KiB PNG, ${(text.length / 1024).toFixed(0)} KiB tree`,
        ]);
      }
    } finally {
      await session.close();
    }
  } finally {
    await linux.close().catch(() => {});
    await desktop.stop();
    rmSync(artifactsDir, { recursive: true, force: true });
  }
  const load = `load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
  printTable(`refresh_traversal beside pyatspi (virtual X display), times in ms; ${load}`, ['measure', 'runs', 'median', 'p95', 'note'], rows);
  printTable(
    'Where refresh_traversal’s time goes (medians, ms; each phase alone in this process, then the whole call as the server times it, and the rest of the round trip: MCP framing and stdio). In the call, capture and encode run beside the tree read.',
    ['app', 'tree read', 'capture', 'PNG encode', 'format', 'file writes', 'server', 'MCP + stdio', 'note'],
    phases,
  );
  printTable('Goals', ['goal', 'measured', 'result'], goals);
}

// Run directly: `node --import tsx bench/refreshBench.ts`.
if (import.meta.url === `file://${process.argv[1]}`) await runRefreshBench();
