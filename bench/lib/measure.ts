// Timing helpers for the benches: warm-up, then N timed runs, reported as median and p95.

import { performance } from 'node:perf_hooks';

export interface Measurement {
  name: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  /** Median CPU time of this process per run (user + system): steadier than wall time on a busy machine. */
  cpuMedianMs: number;
}

export interface MeasureOptions {
  /** Untimed runs first (at least this many, and for at least warmupMs), so the JIT has settled. */
  warmup?: number;
  warmupMs?: number;
  runs?: number;
}

/** The value at quantile q (0…1) of already sorted samples, nearest-rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs `fn` untimed to warm up, then `runs` times timed. Async functions are awaited. */
export async function measure(name: string, fn: () => unknown, options: MeasureOptions = {}): Promise<Measurement> {
  const warmup = options.warmup ?? 3;
  const warmupMs = options.warmupMs ?? 0;
  const runs = options.runs ?? 15;
  const warmupStart = performance.now();
  for (let i = 0; i < warmup || performance.now() - warmupStart < warmupMs; i++) await fn();
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
    const cpu = process.cpuUsage(cpuStart);
    cpuSamples.push((cpu.user + cpu.system) / 1000);
  }
  const sorted = samples.sort((a, b) => a - b);
  return { name, runs, medianMs: median(sorted), p95Ms: quantile(sorted, 0.95), minMs: sorted[0], cpuMedianMs: median(cpuSamples) };
}

export function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}
