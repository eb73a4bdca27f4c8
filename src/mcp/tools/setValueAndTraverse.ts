import { LIMITS } from '../../core/limits.js';
import { defineTool } from '../defineTool.js';
import { anyText, pidParam, toolInput, inlineParam, actingFields, actingShape } from '../params.js';
import { callResultOutput } from '../outputSchemas.js';
import { renderCallResult } from '../render.js';
import { requiredElementQuery } from '../stepInput.js';
import { elementTargetShape } from './elementTarget.js';

export const setValueAndTraverse = defineTool({
  name: 'set_value_and_traverse',
  profiles: ['reference'],
  title: "Set a field's value directly",
  description:
    'Replaces the whole value of a text field, slider or spin box through the accessibility API, without keystrokes (an empty value clears it). ' +
    'Use it for apps that ignore synthetic typing or to clear a field. Example: {"pid":123,"element":"Name","role":"text","value":"Ada"}.',
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    ...elementTargetShape,
    value: anyText('value', '', LIMITS.valueChars).describe('The new value (replaces the current one; "" clears the field).'),
    inline: inlineParam(),
    ...actingShape,
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const query = requiredElementQuery(args, 'set_value_and_traverse');
    return renderCallResult(
      await engine.act({ tool: 'set_value_and_traverse', pid: args.pid, ...actingFields(args), steps: [{ kind: 'set-value', query, value: args.value }] }, context),
    );
  },
});
