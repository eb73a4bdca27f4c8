import { defineTool } from '../defineTool.js';
import { nonEmptyText, pidParam, toolInput, inlineParam, actingFields, actingShape } from '../params.js';
import { callResultOutput } from '../outputSchemas.js';
import { renderCallResult } from '../render.js';
import { requiredElementQuery } from '../stepInput.js';
import { elementTargetShape } from './elementTarget.js';

export const pressAxAndTraverse = defineTool({
  name: 'press_ax_and_traverse',
  profiles: ['reference'],
  title: 'Invoke an element action',
  description:
    "Performs an element's accessibility action (default \"press\") without moving the mouse: for buttons and menu items of apps that ignore synthetic clicks, " +
    'or targets hidden behind other windows. Example: {"pid":123,"element":"Save","role":"button"}.',
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    ...elementTargetShape,
    action: nonEmptyText('action')
      .default('press')
      .describe('Action name: press (default), show-menu, confirm, cancel, increment, decrement, or a raw platform action name.'),
    inline: inlineParam(),
    ...actingShape,
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const query = requiredElementQuery(args, 'press_ax_and_traverse');
    return renderCallResult(
      await engine.act({ tool: 'press_ax_and_traverse', pid: args.pid, ...actingFields(args), steps: [{ kind: 'element-action', query, action: args.action }] }, context),
    );
  },
});
