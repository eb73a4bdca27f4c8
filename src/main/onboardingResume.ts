// Where the wizard was when Tandem relaunched itself (macOS applies Screen Recording only to a
// new process): a small 0600 file in the user data folder, read once by the next start, which
// reopens the wizard at that step. A file rather than a relaunch argument: it also survives a
// relaunch the person does by hand (Quit, then open Tandem again).

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RESUME_FILE = 'onboarding-resume.json';

/** A wizard step key: a permission id ('screen-recording'), 'checks', 'test' or 'clients'. */
export const RESUME_STEP = /^[a-z][a-z-]{0,47}$/;

export function saveResumeStep(userData: string, step: string): void {
  mkdirSync(userData, { recursive: true, mode: 0o700 });
  writeFileSync(join(userData, RESUME_FILE), `${JSON.stringify({ step, savedAt: new Date().toISOString() })}\n`, { mode: 0o600 });
}

/** The saved step, removing the file so it applies to one start only; null when there is none or it is not a step key. */
export function takeResumeStep(userData: string): string | null {
  const path = join(userData, RESUME_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  rmSync(path, { force: true });
  try {
    const { step } = JSON.parse(text) as { step?: unknown };
    return typeof step === 'string' && RESUME_STEP.test(step) ? step : null;
  } catch {
    return null;
  }
}
