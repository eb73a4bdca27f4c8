import { defineTool } from '../defineTool.js';
import { killOutput } from '../outputSchemas.js';
import { flag, inlineParam, pidParam, toolInput } from '../params.js';
import { renderKill } from '../renderLifecycle.js';

export const killApp = defineTool({
  name: 'kill_app',
  title: 'Close an app',
  description:
    'Closes an app as its close button would, without losing unsaved work. status asking: it put up a question (e.g. "Save changes?"), shown in the answer, nothing pressed: decide with the person. ' +
    'force: true ends the process by signal; unsaved work may be lost.',
  type: 'process',
  inputSchema: toolInput({
    pid: pidParam(),
    force: flag('force').optional().describe('Ask the person first.'),
    inline: inlineParam(),
  }),
  outputSchema: killOutput,
  handle: async (engine, args, context) => renderKill(await engine.killApp(args.pid, args.force ?? false, context)),
});
