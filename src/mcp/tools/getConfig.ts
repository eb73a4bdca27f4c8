import { defineTool } from '../defineTool.js';
import { toolInput } from '../params.js';
import { configOutput, renderConfig } from '../renderConfig.js';

export const getConfig = defineTool({
  name: 'get_config',
  // Every profile: a model must be able to see why a call was cut short or an image is small.
  profiles: ['reference', 'driver'],
  title: 'Tandem settings',
  description:
    'Shows Tandem\'s settings (read-only): the watchdog, the late-Esc grace, artifact retention, inline answers and their image size, the tool profile; ' +
    'for each its value, where it comes from (default, config file, environment), its default and its allowed range, and the config file\'s path.',
  type: 'readOnly',
  inputSchema: toolInput({}),
  outputSchema: configOutput,
  handle: async (engine) => renderConfig(await engine.getConfig()),
});
