import { LIMITS } from '../../core/limits.js';
import { defineTool } from '../defineTool.js';
import { KEY_DESCRIPTION, MODIFIERS_DESCRIPTION, nameList, nonEmptyText, pidParam, toolInput, inlineParam, actingFields, actingShape } from '../params.js';
import { callResultOutput } from '../outputSchemas.js';
import { renderCallResult } from '../render.js';
import { followUpSteps, stepsParam } from '../stepInput.js';

export const typeAndTraverse = defineTool({
  name: 'type_and_traverse',
  profiles: ['reference'],
  title: 'Type text, then press a key',
  description:
    'Types text at the keyboard focus of the app, then optionally presses `pressKey` — in ONE guarded call. ' +
    'Click the field first (or use click_and_traverse with text, which does both). Example: {"pid":123,"text":"hello","pressKey":"return"}. ' +
    'Returns a summary of what changed and a diff file to grep.',
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    text: nonEmptyText('text', 'To clear a field, use set_value_and_traverse or press backspace. Split longer text over several calls.', LIMITS.typedChars).describe('Text to type (any characters; newlines type Return).'),
    pressKey: nonEmptyText('pressKey', '', LIMITS.keyNameChars).optional().describe(`Key to press after typing: ${KEY_DESCRIPTION}`),
    pressKeyModifiers: nameList('pressKeyModifiers', '["command"]').optional().describe(MODIFIERS_DESCRIPTION),
    steps: stepsParam,
    inline: inlineParam(),
    ...actingShape,
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) =>
    renderCallResult(await engine.act({ tool: 'type_and_traverse', pid: args.pid, ...actingFields(args), steps: followUpSteps(args) }, context)),
});
