import { LIMITS } from '../../core/limits.js';
import { defineTool } from '../defineTool.js';
import { KEY_DESCRIPTION, MODIFIERS_DESCRIPTION, nameList, nonEmptyText, pidParam, toolInput, inlineParam, actingFields, actingShape } from '../params.js';
import { callResultOutput } from '../outputSchemas.js';
import { renderCallResult } from '../render.js';
import { pressStep, stepsFromInput, stepsParam } from '../stepInput.js';

export const pressKeyAndTraverse = defineTool({
  name: 'press_key_and_traverse',
  profiles: ['reference'],
  title: 'Press a key or shortcut',
  description:
    'Presses one key, optionally with modifiers, in the app (guarded; Esc by the person cancels). ' +
    'Examples: {"pid":123,"keyName":"return"}, {"pid":123,"keyName":"s","modifierFlags":["control"]} (save on Linux; use ["command"] on macOS). ' +
    'Returns a summary of what changed and a diff file to grep.',
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    keyName: nonEmptyText('keyName', 'e.g. "return", "tab", "escape", "a".', LIMITS.keyNameChars).describe(`Key to press: ${KEY_DESCRIPTION}`),
    modifierFlags: nameList('modifierFlags', '["command","shift"]').optional().describe(MODIFIERS_DESCRIPTION),
    steps: stepsParam,
    inline: inlineParam(),
    ...actingShape,
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const steps = [pressStep(args.keyName, args.modifierFlags), ...stepsFromInput(args.steps)];
    return renderCallResult(await engine.act({ tool: 'press_key_and_traverse', pid: args.pid, ...actingFields(args), steps }, context));
  },
});
