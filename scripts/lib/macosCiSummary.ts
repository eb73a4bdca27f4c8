// The macOS workflow's verdict (.github/workflows/macos.yml, "Summary" step): what the run
// proved, what it skipped and why, and whether it exercised anything at all. A green run whose
// end-to-end tests were all skipped (no Accessibility on the runner) proves nothing, so it fails.
// Pure: fed with the suite's results (test/e2e-macos/resultsReporter.ts, one JSON line per test),
// the probe (humanPoster.js probe), `csrutil status` and the TCC rows; unit-tested on Linux.

import type { OnScreenWindow } from './macosOverlayWindows.js';

/** Skip reasons of tests that need the grants start with this (test/e2e-macos/macHarness.ts). */
export const NEEDS_GRANT = '[needs-grant]';
/** A skip for the runner's state rather than a grant (Secure Event Input on): it too leaves something unproven, so it fails the run. */
export const NEEDS_ENV = '[needs-env]';

export interface TestRecord {
  name: string;
  file?: string;
  status: 'pass' | 'fail';
  /** The skip reason when the test was skipped. */
  skip?: string;
  durationMs?: number;
  error?: string;
}

export interface ProbeRecord {
  trusted: boolean;
  axRead: { error: number; role: string | null; pid: number | null };
  postEvent: boolean;
  activeTap: boolean;
  /** CGPreflightScreenCaptureAccess(). */
  screenCapture: boolean;
  /** IsSecureEventInputEnabled(); null when the call failed. */
  secureInput: boolean | null;
  /** On-screen windows above the apps after the warm-up capture (macosOverlayWindows.ts); null when unread. */
  windowsAbove: OnScreenWindow[] | null;
}

export interface SummaryInput {
  os: string;
  tests: TestRecord[];
  /** The probe's JSON, or why it could not be read. */
  probe: ProbeRecord | string;
  csrutil: string;
  tccRows: string;
}

export interface Summary {
  markdown: string;
  /** Why the job must fail, or null. */
  failure: string | null;
}

/** Reads the reporter's JSON lines; lines that are not JSON are ignored. */
export function parseResults(text: string): TestRecord[] {
  return text.split('\n').flatMap((line) => {
    try {
      const record = JSON.parse(line) as TestRecord;
      return typeof record.name === 'string' && (record.status === 'pass' || record.status === 'fail') ? [record] : [];
    } catch {
      return [];
    }
  });
}

const mark = (ok: boolean): string => (ok ? '✅' : '❌');
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** An alert left up by the warm-up capture (macOS 15) takes the focus from the apps under test: name it. */
function windowsAboveLine(windows: OnScreenWindow[] | null): string {
  if (windows === null) return 'Windows above the apps after the warm-up capture: the window list could not be read.';
  if (windows.length === 0) return 'Windows above the apps after the warm-up capture: none.';
  const named = windows.map((window) => `${cell(window.owner || '(no owner)')}${window.name ? ` “${cell(window.name)}”` : ''} (layer ${window.layer})`);
  return `⚠️ Windows above the apps after the warm-up capture (an alert here may take the focus from the tests): ${named.join(', ')}.`;
}

export function summarize(input: SummaryInput): Summary {
  const passed = input.tests.filter((t) => t.status === 'pass' && t.skip === undefined);
  const failed = input.tests.filter((t) => t.status === 'fail');
  const skipped = input.tests.filter((t) => t.skip !== undefined);
  const grantSkipped = skipped.filter((t) => t.skip!.startsWith(NEEDS_GRANT));
  const envSkipped = skipped.filter((t) => t.skip!.startsWith(NEEDS_ENV));
  const lines: string[] = [`### macOS ${input.os}`, ''];

  lines.push('#### Preconditions (probed for real)', '');
  if (typeof input.probe === 'string') {
    lines.push(`The probe could not run: ${input.probe}`);
  } else {
    const { probe } = input;
    lines.push(
      '| check | result |',
      '|---|---|',
      `| AXIsProcessTrusted() | ${mark(probe.trusted)} ${probe.trusted} |`,
      `| real AX read (the Dock's AXRole) | ${mark(probe.axRead.error === 0 && probe.axRead.role === 'AXApplication')} AXError ${probe.axRead.error}, role ${probe.axRead.role ?? 'none'} |`,
      `| CGPreflightPostEventAccess() | ${mark(probe.postEvent)} ${probe.postEvent} |`,
      `| active keyboard event tap created and removed | ${mark(probe.activeTap)} ${probe.activeTap} |`,
      `| CGPreflightScreenCaptureAccess() (Screen Recording) | ${mark(probe.screenCapture)} ${probe.screenCapture} |`,
      `| IsSecureEventInputEnabled() (taps see no keys while on) | ${mark(probe.secureInput === false)} ${probe.secureInput ?? 'unknown: the call failed'} |`,
    );
    lines.push('', windowsAboveLine(probe.windowsAbove));
  }
  lines.push('', `\`csrutil status\`: ${cell(input.csrutil.trim() || '(no output)')}`, '');
  lines.push('<details><summary>TCC rows for the runner\'s processes</summary>', '', '```', input.tccRows.trim() || '(none found)', '```', '</details>', '');

  lines.push(`#### End-to-end: ${passed.length} passed, ${failed.length} failed, ${skipped.length} skipped`, '');
  if (passed.length) lines.push('Proven on this Mac:', '', ...passed.map((t) => `- ✅ ${t.name}`), '');
  if (failed.length) lines.push('Failed:', '', ...failed.map((t) => `- ❌ ${t.name}${t.error ? ` — ${cell(t.error).slice(0, 300)}` : ''}`), '');
  if (skipped.length) lines.push('Skipped (not proven):', '', ...skipped.map((t) => `- ⏭️ ${t.name} — ${cell(t.skip!)}`), '');

  let failure: string | null = null;
  if (input.tests.length === 0) failure = 'the end-to-end suite reported no tests at all';
  else if (grantSkipped.length > 0) failure = `${grantSkipped.length} end-to-end tests were skipped for want of the grants: this run exercised ${passed.length === 0 ? 'nothing' : 'too little'} and proves nothing about the macOS backend`;
  else if (envSkipped.length > 0) failure = `${envSkipped.length} end-to-end tests were skipped for the runner's state (${cell(envSkipped[0].skip!)}): what they prove was not proven`;
  const verdict = failed.length ? '**Verdict: failures above.**' : skipped.length ? `**Verdict: every test that ran passed; ${skipped.length} skipped for the reasons above (not proven).**` : '**Verdict: every end-to-end test ran and passed.**';
  lines.push(failure ? `**Verdict: failed — ${failure}.**` : verdict);
  return { markdown: `${lines.join('\n')}\n`, failure };
}
