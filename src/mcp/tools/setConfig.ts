import { SETTING_NAMES, type ConfigReport, type SettingName } from '../../core/settings.js';
import { settingsChangesSchema } from '../settingsSchema.js';
import { defineTool } from '../defineTool.js';
import { toolInput } from '../params.js';
import { configOutput, renderConfig } from '../renderConfig.js';

/** What a change does not do at once, said with the answer. */
function notesFor(changed: readonly SettingName[], report: ConfigReport): string[] {
  const notes = changed
    .filter((name) => report.settings[name].source === 'environment')
    .map((name) => `${name} is saved in the config file, but ${report.settings[name].env} in this server's environment still overrides it here.`);
  if (changed.includes('tools')) notes.push('tools applies to MCP sessions started from now on without --tools; this session keeps its tools.');
  return notes;
}

export const setConfig = defineTool({
  name: 'set_config',
  profiles: ['reference', 'driver'],
  title: 'Change Tandem settings',
  description:
    'Changes Tandem\'s settings in the person\'s config file, from the next call on, for every client: e.g. {"settings":{"inline_image_max_side":800}}. ' +
    'One bad value changes nothing. These are the person\'s settings: change them when they ask.',
  // Writes a file of settings, touches no app: never guarded.
  type: 'settings',
  inputSchema: toolInput({ settings: settingsChangesSchema() }),
  outputSchema: configOutput,
  handle: async (engine, args) => {
    const changed = SETTING_NAMES.filter((name) => (args.settings as Record<string, unknown>)[name] !== undefined);
    const report = await engine.setConfig(args.settings);
    return renderConfig(report, { changed, notes: notesFor(changed, report) });
  },
});
