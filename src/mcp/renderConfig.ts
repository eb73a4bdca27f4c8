// get_config / set_config answers: one `name: value` line per setting saying where its value came
// from (default, config file, environment) and what it may be, and the same facts structured.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SETTING_NAMES, type ConfigReport, type SettingName } from '../core/settings.js';

const settingValue = z.union([z.number(), z.boolean(), z.string(), z.array(z.string())]);

const settingOutput = z.object({
  value: settingValue,
  source: z.enum(['default', 'file', 'environment']).describe('Where the value comes from: the environment wins over the config file, which wins over the default.'),
  default: settingValue,
  allowed: z.string(),
  env: z.string().describe('The environment variable that overrides it for one server.'),
});

export const configOutput = z.object({
  config_file: z.string().optional().describe('The per-user settings file set_config writes.'),
  config_file_error: z.string().optional().describe('What in the file is ignored, and why.'),
  settings: z.record(z.string(), settingOutput),
  changed: z.array(z.string()).optional().describe('set_config: the settings it changed.'),
  notes: z.array(z.string()).optional(),
});

type ConfigOutput = z.output<typeof configOutput>;

function shown(value: unknown): string {
  if (Array.isArray(value)) return JSON.stringify(value);
  return typeof value === 'string' ? `"${value}"` : String(value);
}

export function renderConfig(report: ConfigReport, extra: { changed?: SettingName[]; notes?: string[] } = {}): CallToolResult {
  const structured: ConfigOutput = {
    ...(report.file ? { config_file: report.file } : {}),
    ...(report.fileError ? { config_file_error: report.fileError } : {}),
    settings: Object.fromEntries(
      SETTING_NAMES.map((name) => {
        const setting = report.settings[name];
        return [name, { value: setting.value, source: setting.source, default: setting.default, allowed: setting.allowed, env: setting.env }];
      }),
    ),
    ...(extra.changed ? { changed: extra.changed } : {}),
    ...(extra.notes?.length ? { notes: extra.notes } : {}),
  };
  const lines = [
    'status: ok',
    ...(extra.changed ? [`changed: ${extra.changed.join(', ')}`] : []),
    `config_file: ${report.file ?? '(none: this server keeps its settings in memory)'}`,
    ...(report.fileError ? [`config_file_error: ${report.fileError}`] : []),
    ...SETTING_NAMES.map((name) => {
      const setting = report.settings[name];
      return `${name}: ${shown(setting.value)} (${setting.source}; default ${shown(setting.default)}; ${setting.allowed}; env ${setting.env}) — ${setting.about}`;
    }),
    ...(extra.notes ?? []).map((note) => `note: ${note}`),
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured };
}
