// What the model reads for a thrown error and for the steps a call did: the MCP layer's isError text (the fact from core plus
// src/mcp's next move). Unit tests of core and the backends check the words through this, since
// core itself writes facts only.
import type { CallResult } from '../../src/core/call/result.js';
import { errorResult } from '../../src/mcp/errors.js';
import { describeStepDone } from '../../src/mcp/renderSteps.js';

export function modelText(error: unknown): string {
  const item = errorResult(error).content[0];
  return item?.type === 'text' ? item.text : '';
}

/** What the model reads for the steps an acting call did (core records them as facts). */
export function stepsText(result: Pick<CallResult, 'stepsDone'>): string[] {
  return result.stepsDone.map(describeStepDone);
}
