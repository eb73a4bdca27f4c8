import { defineTool } from '../defineTool.js';
import { toolInput } from '../params.js';
import { applicationsOutput } from '../outputSchemas.js';
import { renderApplications } from '../render.js';

export const listApplications = defineTool({
  name: 'list_applications',
  profiles: ['reference', 'driver'],
  title: 'List running apps',
  description:
    'Lists the running apps that have windows, with their pids (read-only).',
  type: 'readOnly',
  inputSchema: toolInput({}),
  outputSchema: applicationsOutput,
  handle: async (engine, _args, context) => renderApplications(await engine.listApps(context)),
});
