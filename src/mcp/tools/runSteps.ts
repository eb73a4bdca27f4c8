import { defineTool } from '../defineTool.js';
import { callResultOutput } from '../outputSchemas.js';
import { inlineParam, pidParam, toolInput, actingFields, actingShape } from '../params.js';
import { renderCallResult } from '../render.js';
import { stepsFromInput, stepsList } from '../stepInput.js';

// The default profile's one carrier of the steps vocabulary: its schema is sent once, not once
// per acting tool.
export const runSteps = defineTool({
  name: 'run_steps',
  title: 'Run several steps in one call',
  description:
    'Runs clicks, typing, key presses, scrolls, drags and waits in order in ONE call: one snapshot, one diff, one short interruption for the person. ' +
    'Use it for a sequence known in advance (click a field, type, press return).',
  type: 'input',
  inputSchema: toolInput({ pid: pidParam(), steps: stepsList, inline: inlineParam(), ...actingShape }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) =>
    renderCallResult(await engine.act({ tool: 'run_steps', pid: args.pid, ...actingFields(args), steps: stepsFromInput(args.steps) }, context)),
});
