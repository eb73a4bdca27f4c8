// The macOS workflow's verdict: a run whose end-to-end tests were all skipped for want of the
// grants fails the job; the summary says what was proven, skipped and why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NEEDS_ENV, NEEDS_GRANT, parseResults, summarize, type ProbeRecord, type TestRecord } from '../../scripts/lib/macosCiSummary.js';
import { windowsOverApps } from '../../scripts/lib/macosOverlayWindows.js';

const granted: ProbeRecord = { trusted: true, axRead: { error: 0, role: 'AXApplication', pid: 99 }, postEvent: true, activeTap: true, screenCapture: true, secureInput: false, windowsAbove: [] };
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

test('should show Screen Recording and Secure Event Input, and fail a run whose screenshot test was skipped for want of Screen Recording', () => {
  const tests: TestRecord[] = [
    { name: 'guard holds keys', status: 'pass', skip: `${NEEDS_ENV} Secure Event Input is on (IsSecureEventInputEnabled() is true)` },
    { name: 'screenshot', status: 'pass', skip: `${NEEDS_GRANT} Screen Recording is not granted (CGPreflightScreenCaptureAccess() is false)` },
  ];
  const summary = summarize({ ...base, tests, probe: { ...granted, screenCapture: false, secureInput: true } });
  assert.match(summary.markdown, /\| CGPreflightScreenCaptureAccess\(\) \(Screen Recording\) \| ❌ false \|/);
  assert.match(summary.markdown, /\| IsSecureEventInputEnabled\(\) \(taps see no keys while on\) \| ❌ true \|/);
  assert.match(summary.markdown, /⏭️ guard holds keys — \[needs-env\] Secure Event Input is on/);
  assert.match(summary.failure ?? '', /1 end-to-end tests were skipped for want of the grants/);
  assert.match(summarize({ ...base, tests: [], probe: { ...granted, secureInput: null } }).markdown, /unknown: the call failed/);
});

test('should name the windows left above the apps after the warm-up capture (a macOS 15 alert), and say when there were none', () => {
  const alert = { owner: 'UserNotificationCenter', name: 'Screen capture', layer: 1500 };
  assert.match(summarize({ ...base, tests: [], probe: { ...granted, windowsAbove: [alert] } }).markdown, /⚠️ Windows above the apps after the warm-up capture .*UserNotificationCenter “Screen capture” \(layer 1500\)/);
  assert.match(summarize({ ...base, tests: [], probe: granted }).markdown, /Windows above the apps after the warm-up capture: none\./);
  assert.match(summarize({ ...base, tests: [], probe: { ...granted, windowsAbove: null } }).markdown, /could not be read/);
});

test('should keep only windows above the apps that are not the Dock, the window server, the menu bar or TextEdit', () => {
  const windows = [
    { owner: 'Dock', name: 'Dock', layer: 20 },
    { owner: 'Window Server', name: 'Menubar', layer: 24 },
    { owner: 'Control Center', name: 'BentoBox', layer: 25 },
    { owner: 'SystemUIServer', name: '', layer: 25 },
    { owner: 'TextEdit', name: 'Untitled', layer: 3 },
    { owner: 'Finder', name: '', layer: 0 },
    { owner: 'UserNotificationCenter', name: '', layer: 1500 },
    { owner: 'screencaptureui', name: 'Allow', layer: 8 },
  ];
  assert.deepEqual(windowsOverApps(windows).map((window) => window.owner), ['UserNotificationCenter', 'screencaptureui']);
});

test('should fail a run whose guard tests were skipped because Secure Event Input was on, and never call a run with skips fully proven', () => {
  const secure: TestRecord[] = [
    { name: 'guard holds keys', status: 'pass', skip: `${NEEDS_ENV} Secure Event Input is on (IsSecureEventInputEnabled() is true)` },
    { name: 'typing', status: 'pass' },
  ];
  const summary = summarize({ ...base, tests: secure, probe: { ...granted, secureInput: true } });
  assert.match(summary.failure ?? '', /1 end-to-end tests were skipped for the runner's state/);
  const withOrdinarySkip = summarize({ ...base, tests: [{ name: 'typing', status: 'pass' }, { name: 'refusal path', status: 'pass', skip: 'Accessibility is granted here' }] });
  assert.equal(withOrdinarySkip.failure, null);
  assert.doesNotMatch(withOrdinarySkip.markdown, /every end-to-end test ran and passed/);
  assert.match(withOrdinarySkip.markdown, /1 skipped for the reasons above \(not proven\)/);
});

test('should leave out menu-bar extras on the menu bar\'s own layers, whoever owns them', () => {
  const windows = [
    { owner: 'Spotlight', name: 'Item-0', layer: 25 },
    { owner: 'TextInputMenuAgent', name: '', layer: 25 },
    { owner: 'screencaptureui', name: 'Allow', layer: 8 },
  ];
  assert.deepEqual(windowsOverApps(windows).map((window) => window.owner), ['screencaptureui']);
});
