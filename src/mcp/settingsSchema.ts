// set_config's input schema: core's settings facts (core/settings.ts) as zod, with the words the
// model reads about each setting. Its complaints are core's own, so a value refused here and one
// refused by core (the CLI, the app) read the same.

import { z } from 'zod';
import { SETTING_NAMES, SETTING_SPECS, notSettingsComplaint, settingComplaint, unknownSettingsComplaint, type SettingName, type SettingSpec } from '../core/settings.js';

/** The zod schema of one setting's value, whose every complaint names the setting and its allowed values. */
export function settingSchema(name: SettingName): z.ZodType {
  const spec: SettingSpec = SETTING_SPECS[name];
  const error = (issue: { input?: unknown }): string => settingComplaint(name, issue.input);
  if (spec.kind === 'number') return z.number({ error }).int({ error }).min(spec.min, { error }).max(spec.max, { error });
  if (spec.kind === 'flag') return z.boolean({ error });
  if (spec.kind === 'list') return z.array(z.string({ error }).trim().min(1, { error }).max(spec.maxChars, { error }), { error }).max(spec.maxEntries, { error });
  return z.enum(spec.choices as unknown as [string, ...string[]], { error });
}

/** A whole set of changes: known names only; null puts a setting back to its default. Built once. */
export function settingsChangesSchema(): z.ZodObject {
  return (changesSchema ??= buildChangesSchema());
}

let changesSchema: z.ZodObject | undefined;

/**
 * A setting only the person changes (confirm_before) is refused by core with the words that say
 * where they can; its schema here stays one short line, for every turn carries this listing.
 */
function changeSchema(name: SettingName): z.ZodType {
  const spec: SettingSpec = SETTING_SPECS[name];
  if (spec.personOnly) return z.unknown().optional().describe('Only the person changes it (refused here); get_config shows it.');
  return settingSchema(name).nullable().optional().describe(spec.about);
}

function buildChangesSchema(): z.ZodObject {
  const shape = Object.fromEntries(
    SETTING_NAMES.map((name) => [name, changeSchema(name)]),
  );
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownSettingsComplaint(issue.keys as string[]) : notSettingsComplaint()),
  }).describe('By name, e.g. {"inline": true}; null puts one back to its default.');
}
