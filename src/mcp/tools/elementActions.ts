// The default profile's accessibility actions on one element (no pointer, no keys): what
// set_value_and_traverse, set_selected_and_traverse and press_ax_and_traverse do in the
// reference profile, named like the other tools of its family.
import { LIMITS } from '../../core/limits.js';
import { defineTool } from '../defineTool.js';
import { callResultOutput } from '../outputSchemas.js';
import { anyText, flag, inlineParam, nonEmptyText, pidParam, toolInput, actingFields, actingShape } from '../params.js';
import { renderCallResult } from '../render.js';
import { requiredElementQuery } from '../stepInput.js';
import { elementTargetShape } from './elementTarget.js';

export const setValue = defineTool({
  name: 'set_value',
  title: "Set a field's value",
  description:
    'Replaces the whole value of a text field, slider or spin box through accessibility, without keystrokes ("" clears it).',
  type: 'input',
  inputSchema: toolInput({ pid: pidParam(), ...elementTargetShape, value: anyText('value', '', LIMITS.valueChars).describe('The new text or number.'), inline: inlineParam(), ...actingShape }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) =>
    renderCallResult(await engine.act({ tool: 'set_value', pid: args.pid, ...actingFields(args), steps: [{ kind: 'set-value', query: requiredElementQuery(args, 'set_value'), value: args.value }] }, context)),
});

export const setSelected = defineTool({
  name: 'set_selected',
  title: 'Select or deselect an item',
  description: 'Selects (selected: false deselects) a list row, tab, table cell or menu item through accessibility, without a click.',
  type: 'input',
  inputSchema: toolInput({ pid: pidParam(), ...elementTargetShape, selected: flag('selected').default(true).describe('Default true.'), inline: inlineParam(), ...actingShape }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) =>
    renderCallResult(
      await engine.act({ tool: 'set_selected', pid: args.pid, ...actingFields(args), steps: [{ kind: 'set-selected', query: requiredElementQuery(args, 'set_selected'), selected: args.selected }] }, context),
    ),
});

export const elementAction = defineTool({
  name: 'element_action',
  title: "Invoke an element's action",
  description:
    "Performs an element's accessibility action without the mouse: press (default), show-menu, confirm, cancel, increment, decrement or a platform action name. For apps that ignore synthetic clicks, or covered targets.",
  type: 'input',
  inputSchema: toolInput({ pid: pidParam(), ...elementTargetShape, action: nonEmptyText('action').default('press').describe('Default "press".'), inline: inlineParam(), ...actingShape }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) =>
    renderCallResult(
      await engine.act({ tool: 'element_action', pid: args.pid, ...actingFields(args), steps: [{ kind: 'element-action', query: requiredElementQuery(args, 'element_action'), action: args.action }] }, context),
    ),
});
