// The macOS workflow's verdict: a run whose end-to-end tests were all skipped for want of the
// grants fails the job; the summary says what was proven, skipped and why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NEEDS_GRANT, parseResults, summarize, type ProbeRecord, type TestRecord } from '../../scripts/lib/macosCiSummary.js';

const granted: ProbeRecord = { trusted: true, axRead: { error: 0, role: 'AXApplication', pid: 99 }, postEvent: true, activeTap: true };
const base = { os: 'macos-15', probe: granted, csrutil: 'System Integrity Protection status: disabled.', tccRows: 'kTCCServiceAccessibility|/opt/hca/hosted-compute-agent|1|2' };

test('should fail a run whose grant-needing tests were all skipped, naming why', () => {
  const tests: TestRecord[] = [
    { name: 'guard holds keys', status: 'pass', skip: `${NEEDS_GRANT} a real accessibility read failed (AXError -25204)` },
    { name: 'refusal path', status: 'pass' },
  ];
  const summary = summarize({ ...base, tests, probe: { ...granted, axRead: { error: -25204, role: null, pid: 99 } } });
  assert.match(summary.failure ?? '', /1 end-to-end tests were skipped for want of the grants/);
  assert.match(summary.markdown, /❌ AXError -25204/);
  assert.match(summary.markdown, /⏭️ guard holds keys — \[needs-grant\] a real accessibility read failed/);
  assert.match(summary.markdown, /Verdict: failed/);
});

test('should pass a run where everything ran, listing what it proved, csrutil and the TCC rows', () => {
  const tests: TestRecord[] = [
    { name: 'guard holds keys', status: 'pass' },
    { name: 'refusal path', status: 'pass', skip: 'Accessibility is granted here: the refusal path cannot be observed' },
  ];
  const summary = summarize({ ...base, tests });
  assert.equal(summary.failure, null);
  assert.match(summary.markdown, /1 passed, 0 failed, 1 skipped/);
  assert.match(summary.markdown, /- ✅ guard holds keys/);
  assert.match(summary.markdown, /System Integrity Protection status: disabled/);
  assert.match(summary.markdown, /hosted-compute-agent/);
});

test('should fail when the suite reported nothing, and show failures with their message', () => {
  assert.match(summarize({ ...base, tests: [] }).failure ?? '', /no tests at all/);
  const summary = summarize({ ...base, tests: [{ name: 'typing stops', status: 'fail', error: '9 characters arrived | after' }] });
  assert.equal(summary.failure, null, 'the suite step itself fails the job');
  assert.match(summary.markdown, /❌ typing stops — 9 characters arrived \\\| after/);
});

test('should read the reporter lines and ignore anything else', () => {
  const text = ['{"name":"a","status":"pass"}', 'not json', '{"name":"b","status":"fail","error":"x"}', '{"status":"pass"}', ''].join('\n');
  assert.deepEqual(parseResults(text).map((t) => `${t.name}:${t.status}`), ['a:pass', 'b:fail']);
});
