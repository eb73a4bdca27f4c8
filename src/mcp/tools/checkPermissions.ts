import { defineTool } from '../defineTool.js';
import { toolInput } from '../params.js';
import { permissionsOutput } from '../outputSchemas.js';
import { renderPermissions } from '../renderInspection.js';

export const checkPermissions = defineTool({
  name: 'check_permissions',
  title: 'Check what Tandem may do here',
  description:
    'Reports each permission Tandem needs (read-only): granted or not, and the remedy.',
  type: 'readOnly',
  inputSchema: toolInput({}),
  outputSchema: permissionsOutput,
  handle: async (engine, _args, context) => renderPermissions(await engine.checkPermissions(context)),
});
