// The person's answers before confirm_before presses, for the model: one `confirmed:` line each
// and the same facts structured.

import type { CallResult, Confirmation } from '../core/call/result.js';

const ANSWERS: Record<Confirmation['by'], string> = {
  enter: 'the person allowed it (Enter), so it was pressed',
  esc: 'the person refused it (Esc): nothing was pressed',
  watchdog: 'the person did not answer before the watchdog: nothing was pressed',
};

export function confirmedText(confirmation: Confirmation): string {
  return `step ${confirmation.step + 1} ${confirmation.element}: ${ANSWERS[confirmation.by]}`;
}

export function confirmedOutput(result: CallResult): { confirmed?: Array<{ step: number; element: string; allowed: boolean; by: Confirmation['by'] }> } {
  if (!result.confirmed?.length) return {};
  return { confirmed: result.confirmed.map(({ step, element, allowed, by }) => ({ step: step + 1, element, allowed, by })) };
}
