import { defineTool } from '../defineTool.js';
import { nonEmptyText, toolInput, inlineParam } from '../params.js';
import { callResultOutput } from '../outputSchemas.js';
import { renderCallResult } from '../render.js';

export const openApplication = defineTool({
  name: 'open_application_and_traverse',
  profiles: ['reference'],
  title: 'Open an app and read its window',
  description:
    'Starts an app, or brings it to the front if it is already running, then writes its accessibility tree to a file. ' +
    'Returns a compact summary: the pid to use with every other tool, the tree file (grep it for the element you need: ' +
    'one line per element, `[Role] "name" value:"…" x:N y:N w:W h:H visible`, value only where the element holds one) and a screenshot to check against.',
  type: 'action',
  inputSchema: toolInput({
    identifier: nonEmptyText('identifier', 'e.g. "gedit", "Calculator" or "com.apple.TextEdit".').describe(
      'App name ("Calculator", "gedit"), bundle id ("com.apple.TextEdit"), .desktop id or path to the app.',
    ),
    inline: inlineParam(),
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => renderCallResult(await engine.open(args.identifier, context)),
});
