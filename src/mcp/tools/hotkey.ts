import { defineTool } from '../defineTool.js';
import { callResultOutput } from '../outputSchemas.js';
import { inlineParam, pidParam, toolInput, actingFields, actingShape } from '../params.js';
import { renderCallResult } from '../render.js';
import { hotkeyKeys, hotkeyStep } from '../stepInput.js';

export const hotkey = defineTool({
  name: 'hotkey',
  // press_key with modifiers does the same in the default profile: one way to press a shortcut there.
  profiles: [],
  title: 'Press a keyboard shortcut',
  description:
    'Presses a shortcut in the app, given as its keys, modifiers first: {"pid":123,"keys":["ctrl","shift","t"]} (on macOS "command" for ⌘). ' +
    "Guarded like every action (the person's input is held back; Esc cancels). Returns a summary of what changed and a diff file to grep.",
  type: 'input',
  inputSchema: toolInput({ pid: pidParam(), keys: hotkeyKeys('keys'), inline: inlineParam(), ...actingShape }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => renderCallResult(await engine.act({ tool: 'hotkey', pid: args.pid, ...actingFields(args), steps: [hotkeyStep(args.keys)] }, context)),
});
