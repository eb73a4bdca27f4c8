#!/usr/bin/env node
// Prints the macOS job summary (markdown, for $GITHUB_STEP_SUMMARY) and exits 1 when the run
// exercised nothing (scripts/lib/macosCiSummary.ts).
//   node dist/scripts/macosCiSummary.js <os> <results.jsonl> <probe.json> <csrutil.txt> <tcc.txt>
import { existsSync, readFileSync } from 'node:fs';
import { parseResults, summarize, type ProbeRecord } from './lib/macosCiSummary.js';

const [os = 'unknown', results, probeFile, csrutil, tcc] = process.argv.slice(2);
const read = (file: string | undefined): string => (file && existsSync(file) ? readFileSync(file, 'utf8') : '');
let probe: ProbeRecord | string;
try {
  probe = JSON.parse(read(probeFile)) as ProbeRecord;
} catch {
  probe = `no probe output in ${probeFile ?? '(no file given)'}: ${read(probeFile).slice(0, 200) || 'empty'}`;
}
const summary = summarize({ os, tests: parseResults(read(results)), probe, csrutil: read(csrutil), tccRows: read(tcc) });
process.stdout.write(summary.markdown);
if (summary.failure) {
  console.error(`macOS job: ${summary.failure}`);
  process.exit(1);
}
