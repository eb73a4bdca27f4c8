// "summary: no changes" after an action reads as final: an agent may act again and run the app's
// handler twice. The answer says that nothing changed only within the time it watched, and what
// to do before repeating the action (core/call/noEffect.ts has the fact).

import type { CallResult } from '../core/call/result.js';
import type { CallResultOutput } from './outputSchemas.js';

/** The `no_effect:` line, when the call's diff is empty. */
export function noEffectLines(result: CallResult): string[] {
  if (result.noEffectWithinMs === undefined) return [];
  return [
    `no_effect: nothing changed in the ${result.noEffectWithinMs} ms this answer watched after the action; a busy app may still show its effect: refresh_traversal before repeating the action`,
  ];
}

export function structuredNoEffect(result: CallResult): Pick<CallResultOutput, 'no_effect_within_ms'> {
  return result.noEffectWithinMs === undefined ? {} : { no_effect_within_ms: result.noEffectWithinMs };
}
