import { defineTool } from '../defineTool.js';
import { toolInput } from '../params.js';
import { permissionsOutput } from '../outputSchemas.js';
import { renderPermissions } from '../renderInspection.js';

export const checkPermissions = defineTool({
  name: 'check_permissions',
  title: 'Check what Tandem may do here',
  description:
    'Reports each permission and piece of the environment Tandem needs (read-only): granted or not, why, and the remedy the person can apply. ' +
    'Call it when tools fail with a permission error, or before a first session.',
  type: 'readOnly',
  inputSchema: toolInput({}),
  outputSchema: permissionsOutput,
  handle: async (engine, _args, context) => renderPermissions(await engine.checkPermissions(context)),
});
