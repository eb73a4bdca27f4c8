#!/usr/bin/env node
// Runs the compiled test suites with Node's own test runner. Suites run in order: unit (core
// over a scripted desktop), mcp (SDK client ⇄ server), app (socket host, launcher, Electron main
// against a fake electron module, renderer in Chromium), e2e (real virtual X desktop). Usage:
//   node scripts/run-tests.mjs [suite…]     (default: all)
// e2e-macos (TextEdit and Calculator on a real Mac) is never in the default list: run it by name
// on a Mac with the grants; CI runs it with its own reporters (.github/workflows/macos.yml).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SUITES = ['unit', 'mcp', 'app', 'e2e'];
const requested = process.argv.slice(2);
const suites = requested.length ? requested : SUITES;

function testFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

let failed = false;
for (const suite of suites) {
  const files = testFiles(join('dist', 'test', suite)).sort();
  if (!files.length) {
    console.error(`[tests] suite ${suite}: no compiled tests under dist/test/${suite}`);
    continue;
  }
  console.error(`[tests] suite ${suite}: ${files.length} files`);
  // e2e suites share one X server (or one Mac's desktop) and real apps: one file at a time.
  const concurrency = suite === 'e2e' || suite === 'e2e-macos' || suite === 'app' ? ['--test-concurrency=1'] : [];
  const result = spawnSync(process.execPath, ['--test', ...concurrency, '--test-reporter=spec', ...files], {
    stdio: 'inherit',
    env: { ...process.env, TANDEM_TEST_SUITE: suite },
  });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
