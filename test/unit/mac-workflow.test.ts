import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const WORKFLOW = '.github/workflows/macos.yml';
const text = readFileSync(WORKFLOW, 'utf8');

/** Parses YAML with PyYAML when the machine has it (no YAML parser is in node_modules). */
function parseYaml(): { value?: unknown; unavailable?: string } {
  const result = spawnSync('python3', ['-c', 'import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1])), default=str))', WORKFLOW], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    if (/No module named .?yaml|ENOENT/.test(`${result.stderr} ${result.error?.message ?? ''}`)) return { unavailable: 'python3 with PyYAML is not installed here' };
    throw new Error(`the workflow is not valid YAML: ${result.stderr}`);
  }
  return { value: JSON.parse(result.stdout) };
}

test('should write the macOS workflow without tabs (YAML forbids them in indentation)', () => {
  assert.ok(!text.includes('\t'));
});

test('should parse as YAML into one job on macos-14 and macos-15 running the whole chain', (t) => {
  const parsed = parseYaml();
  if (parsed.unavailable) {
    t.skip(parsed.unavailable);
    return;
  }
  const workflow = parsed.value as { jobs: Record<string, { 'runs-on': string; strategy: { matrix: { os: string[] } }; steps: Array<{ name?: string; run?: string; uses?: string; if?: string; with?: Record<string, unknown> }> }> };
  const job = workflow.jobs.macos;
  assert.deepEqual(job.strategy.matrix.os, ['macos-14', 'macos-15']);
  assert.equal(job['runs-on'], '${{ matrix.os }}');
  const runs = job.steps.map((s) => s.run ?? s.uses ?? '');
  const order = [
    'actions/checkout',
    'actions/setup-node',
    'npm ci',
    'npm run lint',
    'tsc -p tsconfig.json --noEmit',
    'run-tests.mjs unit',
    'TCC.db',
    'screencapture -x',
    'humanPoster.js probe',
    'resultsReporter.js',
    'macosCiSummary.js',
    'actions/upload-artifact',
  ];
  let at = -1;
  for (const needle of order) {
    const index = runs.findIndex((r, i) => i > at && r.includes(needle));
    assert.ok(index > at, `step "${needle}" missing or out of order`);
    at = index;
  }
  assert.equal(job.steps.find((s) => s.uses?.startsWith('actions/setup-node'))?.with?.['node-version'], 22, 'electron 45 and its install helpers need node >= 22.12');
  const grant = job.steps.find((s) => s.run?.includes('TCC.db'))!.run!;
  assert.match(grant, /\/opt\/hca\/hosted-compute-agent/, 'the responsible process on current images is granted');
  assert.match(grant, /kTCCServicePostEvent/);
  assert.match(grant, /csrutil status/);
  const prepare = job.steps.find((s) => s.run?.includes('screencapture -x'))!.run!;
  assert.match(prepare, /ApplePersistenceIgnoreState/);
  const summary = job.steps.find((s) => s.run?.includes('macosCiSummary.js'))!;
  assert.equal(summary.if, 'always()', 'the summary runs (and can fail the job) whatever the suite did');
  assert.match(summary.run!, /GITHUB_STEP_SUMMARY/);
});

test('should point the workflow at files the build really produces', () => {
  assert.ok(existsSync('test/e2e-macos/humanPoster.ts'), 'humanPoster.ts compiles to dist/test/e2e-macos/humanPoster.js');
  assert.ok(existsSync('test/e2e-macos/resultsReporter.ts'), 'the reporter compiles to dist/test/e2e-macos/resultsReporter.js');
  assert.ok(existsSync('scripts/macosCiSummary.ts'), 'the summary compiles to dist/scripts/macosCiSummary.js');
  const suites = readdirSync('test/e2e-macos').filter((f) => f.endsWith('.test.ts'));
  assert.ok(suites.length >= 3, `e2e-macos suites: ${suites.join(', ')}`);
  assert.ok(existsSync(join('scripts', 'run-tests.mjs')));
  assert.match(text, /dist\/test\/e2e-macos\/\*\.test\.js/);
});
