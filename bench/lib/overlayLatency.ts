// How long the server-drawn X11 overlay takes to appear after the guard engages and to go after
// it is released, as a person would see it: the engine's guard events start the clocks, and a
// separate X connection reads a pixel of the frame off the screen until it changes.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Desktop } from '../../src/core/desktop.js';
import type { Point } from '../../src/core/model.js';
import { attachServerOverlay } from '../../src/core/overlay/overlayVisibility.js';
import { createEngine } from '../../src/launcher/engineFromEnv.js';
import { X11Connection } from '../../native/linux/x11Connection.js';

const Z_PIXMAP = 2;

function orange(pixel: Buffer): boolean {
  // BGRX: the frame's #ff7a1a (or its pulse shade) at the screen's left edge.
  return pixel[2] >= 0xa0 && pixel[1] >= 0x30 && pixel[1] <= 0xa0 && pixel[0] <= 0x40;
}

export interface OverlayLatency {
  /** guard-engaged → frame on screen, ms. */
  up: number[];
  /** guard-released → frame off screen, ms. */
  down: number[];
}

/**
 * Runs `runs` guarded calls (a click at `point` of app `pid`, then a 300 ms wait) on `desktop`
 * with the overlay attached as `tandem mcp --direct` attaches it. The engine is left unclosed:
 * closing it would close the caller's desktop.
 */
export async function overlayLatency(desktop: Desktop & { showOverlay(text: string): Promise<void>; hideOverlay(): Promise<void> }, display: string, pid: number, point: Point, runs: number): Promise<OverlayLatency> {
  const artifacts = await mkdtemp(join(tmpdir(), 'tandem-bench-overlay-'));
  const engine = await createEngine(desktop, { ...process.env, TANDEM_ARTIFACTS_DIR: artifacts, TANDEM_GRACE_MS: '1' });
  const detach = attachServerOverlay(engine, { show: (text) => desktop.showOverlay(text), hide: () => desktop.hideOverlay() });
  const watcher = await X11Connection.open(display);
  const edge = { x: 2, y: Math.round(watcher.screen.pixel_height / 2) };
  const pixel = (): Promise<Buffer> =>
    watcher.request<{ data: Buffer }>((callback) => watcher.client.GetImage(Z_PIXMAP, watcher.root, edge.x, edge.y, 1, 1, 0xffffffff, callback)).then((reply) => reply.data);
  const until = async (wanted: boolean, since: number): Promise<number> => {
    while (orange(await pixel()) !== wanted) {
      if (performance.now() - since > 5_000) throw new Error(`the frame did not ${wanted ? 'appear' : 'go'} within 5 s`);
    }
    return performance.now() - since;
  };
  const result: OverlayLatency = { up: [], down: [] };
  try {
    for (let run = 0; run < runs; run++) {
      let up: Promise<number> | undefined;
      let down: Promise<number> | undefined;
      const offEngaged = engine.on('guard-engaged', () => (up = until(true, performance.now())));
      const offReleased = engine.on('guard-released', () => (down = until(false, performance.now())));
      const answer = await engine.act({ tool: 'click_and_traverse', pid, steps: [{ kind: 'click', target: { point }, button: 'left', count: 1, modifiers: [] }, { kind: 'wait', ms: 300 }] });
      offEngaged();
      offReleased();
      if (answer.status !== 'ok') throw new Error(`the call failed: ${answer.error?.message ?? answer.status}`);
      if (!up || !down) throw new Error('the guard events did not come');
      const upMs = await up;
      result.up.push(upMs);
      result.down.push(await down);
      // Between calls, as a model thinks: the next click is not a double click.
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
  } finally {
    detach();
    await watcher.close();
    await rm(artifacts, { recursive: true, force: true });
  }
  result.up.sort((a, b) => a - b);
  result.down.sort((a, b) => a - b);
  return result;
}
