import { defineTool } from '../defineTool.js';
import { flag, pidParam, toolInput, inlineParam, actingFields, actingShape } from '../params.js';
import { callResultOutput } from '../outputSchemas.js';
import { renderCallResult } from '../render.js';
import { requiredElementQuery } from '../stepInput.js';
import { elementTargetShape } from './elementTarget.js';

export const setSelectedAndTraverse = defineTool({
  name: 'set_selected_and_traverse',
  profiles: ['reference'],
  title: 'Select or deselect an item',
  description:
    'Selects (or deselects) a list row, tab, table cell or menu item through the accessibility API, without a click. ' +
    'Example: {"pid":123,"element":"Downloads","role":"row"}; {"pid":123,"element_index":42,"selected":false} deselects.',
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    ...elementTargetShape,
    selected: flag('selected').default(true).describe('true (default) selects, false deselects.'),
    inline: inlineParam(),
    ...actingShape,
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const query = requiredElementQuery(args, 'set_selected_and_traverse');
    return renderCallResult(
      await engine.act(
        { tool: 'set_selected_and_traverse', pid: args.pid, ...actingFields(args), steps: [{ kind: 'set-selected', query, selected: args.selected }] },
        context,
      ),
    );
  },
});
