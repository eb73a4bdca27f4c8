// The results of calls that run no transaction: reads, inspections, a launch or a close. Nothing
// was guarded or moved, so nothing is counted and there is nothing to restore.

import { errorFacts, type TandemError } from '../errors.js';
import type { CallResult } from './result.js';

/** A read that touched no tree: nothing counted, nothing moved. */
export function emptyResult(tool: string, pid: number | undefined): Omit<CallResult, 'durationMs'> {
  return {
    status: 'ok',
    tool,
    pid: pid ?? 0,
    app: '',
    elementCount: 0,
    visibleElements: 0,
    summary: '',
    textChanges: [],
    stepsDone: [],
    stepsTotal: 0,
    humanInputBlocked: 0,
    watchdogFired: false,
    restore: { cursor: true, frontmost: 'not-needed' },
  };
}

export function failedReadResult(tool: string, pid: number | undefined, failure: TandemError): Omit<CallResult, 'durationMs'> {
  return {
    ...emptyResult(tool, pid),
    status: failure.code === 'cancelled' ? 'cancelled' : 'error',
    summary: `failed: ${failure.message.split('\n')[0]}`,
    error: errorFacts(failure),
  };
}

/** The feed's record of a launch or a close: no tree read, no input sent. */
export function lifecycleResult(tool: string, pid: number, app: string, summary: string): Omit<CallResult, 'durationMs'> {
  return { ...emptyResult(tool, pid), app, summary };
}
