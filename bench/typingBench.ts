// Typing bench: how fast paced input types into real apps, beside what each app itself sustains.
//   - paced: Tandem's typing as a call does it (batches of 8 keys, at most 3 batches unanswered,
//     at most 32 characters not yet inserted by the app's own count), timed until the app has
//     handled the last key (its _NET_WM_PING answer) and inserted the last character;
//   - the app's own pace: the same text written at once (no window), timed the same way — how
//     fast the app takes keys in when it never waits for us;
//   - a multilingual text (characters the layout lacks, typed on borrowed keycodes), with the
//     window manager's CPU time it cost (every keyboard mapping change makes it rebind its keys).
// Targets: a GTK 3 entry (zenity --entry) and mousepad's text view. Median of 5 runs each.

import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { XTestExtension } from 'x11';
import { DEFAULT_SNAPSHOT_LIMITS } from '../src/core/engine.js';
import { DEFAULT_PACING, type InsertionCounter } from '../src/core/input/inputPacing.js';
import { AtspiAccessibility } from '../src/backends/linux/atspiAccessibility.js';
import { createProgress } from '../src/core/progress.js';
import { X11Input } from '../src/backends/linux/x11Input.js';
import { X11Windows } from '../src/backends/linux/x11Windows.js';
import { X11Connection } from '../native/linux/x11Connection.js';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../scripts/lib/virtualDesktop.js';
import { formatMs, median } from './lib/measure.js';
import { printTable } from './lib/table.js';

const ASCII_CHARS = 2_000;
const RUNS = 5;
const MULTILINGUAL = 'héllo € ✓ 日本語のテキスト ñ ç ø ß — ☃ Ωμέγα '.repeat(4);

const progress = (): ReturnType<typeof createProgress> => createProgress({ timeoutMs: 120_000 });

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** CPU ticks (1/100 s) a process has used. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

interface Target {
  name: string;
  pid: number;
}

async function startTarget(desktop: VirtualDesktop, windows: X11Windows, name: string, command: string, args: string[]): Promise<Target> {
  const pid = desktop.spawnApp(command, args).pid!;
  // Activated explicitly: a window manager may decline to focus a new window right after
  // input went elsewhere (openbox's focus-stealing prevention counts XTEST input).
  await waitFor(async () => (await windows.windowPid((await windows.clientList()).at(-1) ?? 0)) === pid && windows.activate(pid, undefined, progress()), `${name} in front`);
  // GTK registers its key handling a moment after the window maps.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { name, pid };
}

/**
 * Median chars/s over RUNS typings of `text`, each followed by `check` (the text arrived whole)
 * and select-all + delete to start clean.
 */
async function charsPerSecond(
  input: X11Input,
  text: string,
  check: (text: string) => Promise<void>,
  counter: () => Promise<InsertionCounter | null> = async () => null,
  settle?: () => Promise<unknown>,
): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const insertions = await counter();
    const started = performance.now();
    await input.typeText(text, progress(), insertions ?? undefined);
    samples.push((performance.now() - started) / 1000);
    insertions?.close();
    await check(text);
    await input.pressKey('a', ['control'], progress());
    await input.pressKey('backspace', [], progress());
    // Mousepad selects all a moment after it has handled the key: without this the next run's
    // first characters were typed, then selected and replaced. (A call reads the tree and the
    // front window between steps, which gives it that moment.)
    await settle?.();
  }
  return [...text].length / median(samples);
}

/** The text of the app's focused text element, as its accessibility tree shows it. */
async function focusedText(atspi: AtspiAccessibility, pid: number): Promise<string> {
  const tree = await atspi.snapshot(pid, DEFAULT_SNAPSHOT_LIMITS, progress());
  const focused = tree.elements.find((element) => element.focused && /text|entry/i.test(element.role));
  return focused?.value ?? '';
}

export async function runTypingBench(): Promise<void> {
  ensureDesktopPackages();
  const desktop = await startVirtualDesktop();
  const connection = await X11Connection.open(desktop.display);
  const atspi = await AtspiAccessibility.connect({ env: desktop.env, windowOrigin: async () => null });
  const rows: string[][] = [];
  try {
    const xtest = await connection.request<XTestExtension>((callback) => connection.client.require('xtest', callback));
    const windows = new X11Windows(connection);
    const paced = new X11Input(connection, xtest, windows);
    // Everything written at once: the pacer never makes the app wait, so its own speed shows.
    const unpaced = new X11Input(connection, xtest, windows, { ...DEFAULT_PACING, maxInFlight: Number.MAX_SAFE_INTEGER });
    const windowManager = Number(execFileSync('pgrep', ['-n', '-f', '^openbox'], { env: desktop.env }).toString().trim());
    const ascii = 'abcdefghij'.repeat(ASCII_CHARS / 10);
    const targets: Array<[string, string, string[]]> = [
      ['GTK 3 entry (zenity --entry)', 'zenity', ['--entry', '--title=Bench entry']],
      ['mousepad text view', 'mousepad', []],
    ];
    for (const [name, command, args] of targets) {
      // One at a time, each in front while it is typed into.
      const target = await startTarget(desktop, windows, name, command, args);
      // A cold mousepad builds its document view after its window is up: keys sent before its
      // text view has focus are lost (80 of the first run's characters were, once). Measure typing,
      // not start-up: wait until the app shows a focused text element.
      await waitFor(async () => (await atspi.snapshot(target.pid, DEFAULT_SNAPSHOT_LIMITS, progress())).elements.some((element) => element.focused && /text|entry/i.test(element.role)), `${name}'s text field focused`);
      // Every run's text must have arrived whole before it counts (an app that dropped keys would look fast).
      const check = async (text: string): Promise<void> => {
        const held = await focusedText(atspi, target.pid);
        if (held !== text) throw new Error(`${name} holds ${[...held].length} characters, not the ${[...text].length} typed: ${JSON.stringify(held.slice(0, 60))}`);
      };
      // As a call types: the app's own count of inserted characters paces it too (linuxDesktop.ts).
      const counter = (): Promise<InsertionCounter | null> => atspi.insertionCounter(target.pid, progress());
      const settle = (): Promise<unknown> => atspi.waitForQuiet(target.pid, 45, 1_000, progress());
      const pacedRate = await charsPerSecond(paced, ascii, check, counter, settle);
      const ownRate = await charsPerSecond(unpaced, ascii, check, undefined, settle);
      const ticksBefore = cpuTicks(windowManager);
      const unicodeRate = await charsPerSecond(paced, MULTILINGUAL, check, counter, settle);
      const wmMs = ((cpuTicks(windowManager) - ticksBefore) * 10) / RUNS;
      rows.push([target.name, `${Math.round(pacedRate)}`, `${Math.round(ownRate)}`, `${Math.round((pacedRate / ownRate) * 100)} %`, `${Math.round(unicodeRate)}`, `${formatMs(wmMs)} ms`]);
      process.kill(target.pid, 'SIGTERM');
    }
    printTable(
      `Typing (median of ${RUNS} runs; ${ASCII_CHARS} ASCII characters; multilingual: ${[...MULTILINGUAL].length} characters, 22 the layout lacks)`,
      ['target', 'paced chars/s', "app's own chars/s (all at once)", 'paced / own', 'multilingual chars/s (paced)', 'window manager CPU per multilingual text'],
      rows,
    );
  } finally {
    await atspi.close();
    await connection.close();
    await desktop.stop();
  }
}
