import { LIMITS } from '../../core/limits.js';
import { TandemError } from '../../core/errors.js';
import { defineTool } from '../defineTool.js';
import { KEY_DESCRIPTION, MODIFIERS_DESCRIPTION, nameList, nonEmptyText, pidParam, toolInput, inlineParam, actingFields, actingShape } from '../params.js';
import { callResultOutput } from '../outputSchemas.js';
import { renderCallResult } from '../render.js';
import { STEPS_EXAMPLE, clickStep, describedClickTargetShape, followUpSteps, hasClickTarget, stepsParam } from '../stepInput.js';

export const clickAndTraverse = defineTool({
  name: 'click_and_traverse',
  profiles: ['reference'],
  title: 'Click, then type and press keys',
  description:
    'Clicks in the app, then optionally types `text` and presses `pressKey` — all in ONE guarded call (the person\'s keyboard and mouse are held back meanwhile; Esc cancels). ' +
    'Prefer one call over separate click → type → press calls: e.g. {"pid":123,"element":"Search","role":"text","text":"invoice","pressKey":"return"}. ' +
    'Target with x and y taken from a tree line (add width and height to click the centre of the element), or with element (its text) and role, or element_index. ' +
    `For longer sequences add steps, e.g. ${STEPS_EXAMPLE}. ` +
    'Returns a summary of what changed and a diff file to grep; when another app comes to the front (a dialog, a launched app) app_switch names it and its tree follows.',
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    ...describedClickTargetShape,
    text: nonEmptyText('text', 'Split longer text over several calls.', LIMITS.typedChars).optional().describe('Text to type after the click (e.g. into the field just clicked).'),
    pressKey: nonEmptyText('pressKey', '', LIMITS.keyNameChars).optional().describe(`Key to press after clicking and typing: ${KEY_DESCRIPTION}`),
    pressKeyModifiers: nameList('pressKeyModifiers', '["command"]').optional().describe(MODIFIERS_DESCRIPTION),
    steps: stepsParam,
    inline: inlineParam(),
    ...actingShape,
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    if (!hasClickTarget(args) && !args.steps) {
      throw new TandemError('bad-input', 'Say where to click: x and y from the tree (optionally width and height to click the centre), or element (its text, optionally with role), or element_index. Or send steps.');
    }
    // Without a target of its own the call is just its steps (each can click).
    const steps = hasClickTarget(args) ? [clickStep(args), ...followUpSteps(args)] : followUpSteps(args);
    return renderCallResult(await engine.act({ tool: 'click_and_traverse', pid: args.pid, ...actingFields(args), steps }, context));
  },
});
