import { LIMITS } from '../../core/limits.js';
import type { PressStep } from '../../core/call/steps.js';
import { defineTool } from '../defineTool.js';
import { callResultOutput } from '../outputSchemas.js';
import { KEY_DESCRIPTION, MODIFIERS_DESCRIPTION, inlineParam, nameList, nonEmptyText, pidParam, toolInput, wholeNumber, actingFields, actingShape } from '../params.js';
import { renderCallResult } from '../render.js';
import { pressStep } from '../stepInput.js';

export const pressKey = defineTool({
  name: 'press_key',
  title: 'Press a key, optionally several times',
  description:
    'Presses a key or a shortcut in the app, optionally several times: {"pid":123,"key":"s","modifiers":["ctrl"]}. ' +
    'Esc by the person stops the presses left.',
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    key: nonEmptyText('key', 'e.g. "return", "tab", "backspace", "a".', LIMITS.keyNameChars).describe(`The key: ${KEY_DESCRIPTION}`),
    modifiers: nameList('modifiers', '["ctrl","shift"]').optional().describe(MODIFIERS_DESCRIPTION),
    count: wholeNumber('count', { min: 1, max: LIMITS.keyRepeat }).optional().describe('Times (default 1).'),
    inline: inlineParam(),
    // Keys go to the keyboard focus: a press never runs in the background, so it takes no `background`.
    if_revision: actingShape.if_revision,
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const press: PressStep = { ...pressStep(args.key, args.modifiers), ...(args.count !== undefined && args.count > 1 ? { count: args.count } : {}) };
    return renderCallResult(await engine.act({ tool: 'press_key', pid: args.pid, ...actingFields(args), steps: [press] }, context));
  },
});
