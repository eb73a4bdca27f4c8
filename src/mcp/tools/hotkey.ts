import { defineTool } from '../defineTool.js';
import { callResultOutput } from '../outputSchemas.js';
import { inlineParam, pidParam, toolInput } from '../params.js';
import { renderCallResult } from '../render.js';
import { hotkeyKeys, hotkeyStep, stepsFromInput, stepsParam } from '../stepInput.js';

export const hotkey = defineTool({
  name: 'hotkey',
  title: 'Press a keyboard shortcut',
  description:
    'Presses a shortcut in the app, given as its keys, modifiers first: {"pid":123,"keys":["ctrl","shift","t"]} (on macOS "command" for ⌘). ' +
    "Guarded like every action (the person's input is held back; Esc cancels). Returns a summary of what changed and a diff file to grep.",
  type: 'input',
  inputSchema: toolInput({ pid: pidParam(), keys: hotkeyKeys('keys'), steps: stepsParam, inline: inlineParam() }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const steps = [hotkeyStep(args.keys), ...stepsFromInput(args.steps)];
    return renderCallResult(await engine.act({ tool: 'hotkey', pid: args.pid, steps }, context));
  },
});
