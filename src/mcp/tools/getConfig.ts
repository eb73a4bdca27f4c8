import { defineTool } from '../defineTool.js';
import { toolInput } from '../params.js';
import { configOutput, renderConfig } from '../renderConfig.js';

export const getConfig = defineTool({
  name: 'get_config',
  // Every profile: a model must be able to see why a call was cut short or an image is small.
  profiles: ['reference', 'driver'],
  title: 'Tandem settings',
  description:
    "Shows Tandem's settings (read-only): each one's value, where it comes from, its default and allowed range.",
  type: 'readOnly',
  inputSchema: toolInput({}),
  outputSchema: configOutput,
  handle: async (engine) => renderConfig(await engine.getConfig()),
});
