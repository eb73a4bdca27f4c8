import { defineTool } from '../defineTool.js';
import { killOutput } from '../outputSchemas.js';
import { flag, inlineParam, pidParam, toolInput } from '../params.js';
import { renderKill } from '../renderLifecycle.js';

export const killApp = defineTool({
  name: 'kill_app',
  title: 'Close an app',
  description:
    'Closes an app without losing unsaved work: asks it to close as its own close button would and waits. ' +
    'status exited: it quit; asking: it put up a question (e.g. "Save changes?") and still runs — the question\'s elements are in the answer, nothing was pressed; decide with the person. ' +
    'force: true ends the process (SIGTERM, then SIGKILL): unsaved work may be lost. Only apps with a window; never Tandem, its MCP client or system processes.',
  type: 'process',
  inputSchema: toolInput({
    pid: pidParam(),
    force: flag('force').optional().describe('true: end the process by signal (SIGTERM, then SIGKILL after a few seconds); unsaved work may be lost. Ask the person first.'),
    inline: inlineParam(),
  }),
  outputSchema: killOutput,
  handle: async (engine, args, context) => renderKill(await engine.killApp(args.pid, args.force ?? false, context)),
});
