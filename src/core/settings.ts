// The person's settings, from one source: each has a default, may be set in the per-user config
// file (written by set_config or by hand) and may be overridden for one process by an
// environment variable (env > file > default: the narrower scope wins, as with git or npm).
// The engine and the MCP server read `current()` at every call, so a set_config applies to the
// next call of every connection of the same host; a change of the file by another process (a
// second `tandem mcp --direct`, a hand edit) is picked up at the next call too.
//
// A file that cannot be read or holds an invalid value never stops the server: the bad part is
// ignored, the error (naming the file) is kept for get_config and refused by set_config, so a
// hand edit is never overwritten by a tool.
//
// The file is private (folder 0700, file 0600) and replaced atomically (a 0600 temp file in the
// same folder, then rename), so a reader never sees half a file.
//
// Core holds the settings as plain facts (names, bounds, defaults, sources) and checks values
// with plain TypeScript against those bounds: the config file, the environment and callers that
// do not come through MCP (the CLI, the app) are checked here. The zod schema set_config offers
// and the words it shows the model are src/mcp's (mcp/settingsSchema.ts), built from these facts
// and these same complaints, so both paths refuse a value with the same sentence.

import { randomBytes } from 'node:crypto';
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_CALLS } from './artifacts/artifacts.js';
import { TandemError } from './errors.js';
import { DEFAULT_WATCHDOG_MS, MAX_GRACE_MS } from './guard.js';
import { DEFAULT_CONFIRM_BEFORE, MAX_CONFIRM_ENTRIES, MAX_CONFIRM_ENTRY_CHARS } from './confirm/confirmMatch.js';

export const TOOL_PROFILES = ['reference', 'driver', 'all'] as const;
export type ToolProfile = (typeof TOOL_PROFILES)[number];

const MIB = 1024 * 1024;
const thousands = (value: number): string => value.toLocaleString('en-US');

interface NumberSetting {
  kind: 'number';
  min: number;
  max: number;
  unit: string;
}
interface FlagSetting {
  kind: 'flag';
}
interface ChoiceSetting {
  kind: 'choice';
  choices: readonly string[];
}
/** A list of short strings; from the environment, comma-separated. */
interface ListSetting {
  kind: 'list';
  maxEntries: number;
  maxChars: number;
}

/**
 * One setting: its default, its bounds, the environment variable that overrides it, and what it
 * does. personOnly: the setting guards the person against the agent (confirm_before), so
 * set_config refuses it; only the config file (by hand) or the environment change it.
 */
export type SettingSpec = (NumberSetting | FlagSetting | ChoiceSetting | ListSetting) & { env: string; about: string; personOnly?: true };

/**
 * Every setting. The watchdog's ceiling is the product's promise ("a 30 s watchdog always gives
 * control back"): a setting may shorten the time the person's input can be held, never lengthen
 * it. Its floor (1 s) keeps the watchdog from failing every call before a tree can even be read.
 * The other bounds refuse the absurd (an image side no client can take, retention of nothing).
 */
export const SETTING_SPECS = {
  watchdog_ms: { kind: 'number', min: 1_000, max: DEFAULT_WATCHDOG_MS, unit: 'ms', env: 'TANDEM_WATCHDOG_MS', about: 'longest time one call may hold the person\'s keyboard and mouse' },
  grace_ms: { kind: 'number', min: 0, max: MAX_GRACE_MS, unit: 'ms', env: 'TANDEM_GRACE_MS', about: 'how long after a call\'s last step a late Esc still counts (the guard stays up)' },
  artifact_max_calls: { kind: 'number', min: 10, max: 100_000, unit: 'calls', env: 'TANDEM_ARTIFACT_MAX_CALLS', about: 'the artifacts folder keeps the files of at most this many calls' },
  artifact_max_bytes: { kind: 'number', min: MIB, max: 10 * 1024 * MIB, unit: 'bytes', env: 'TANDEM_ARTIFACT_MAX_BYTES', about: 'and at most this many bytes of them' },
  settle_max_ms: { kind: 'number', min: 200, max: 10_000, unit: 'ms', env: 'TANDEM_SETTLE_MAX_MS', about: 'longest wait after an action for the app to settle; past it the answer says settled: no' },
  settle_quiet_ms: { kind: 'number', min: 10, max: 5_000, unit: 'ms', env: 'TANDEM_SETTLE_QUIET_MS', about: 'how long the app must send no accessibility change to count as settled' },
  inline: { kind: 'flag', env: 'TANDEM_INLINE', about: 'answers carry their screenshot and tree/diff text when a call does not send inline' },
  inline_image_max_side: { kind: 'number', min: 256, max: 4_096, unit: 'px', env: 'TANDEM_INLINE_MAX_SIDE', about: 'longest side of an inline screenshot (scaled down to fit)' },
  background_default: { kind: 'flag', env: 'TANDEM_BACKGROUND_DEFAULT', about: 'calls that do not say run in the background where every step allows it' },
  tools: { kind: 'choice', choices: TOOL_PROFILES, env: 'TANDEM_TOOLS', about: 'the tool profile a new MCP session offers when `tandem mcp` gets no --tools' },
  confirm_before: {
    kind: 'list',
    maxEntries: MAX_CONFIRM_ENTRIES,
    maxChars: MAX_CONFIRM_ENTRY_CHARS,
    env: 'TANDEM_CONFIRM_BEFORE',
    about: 'names of elements whose press waits for the person\'s Enter (Esc refuses it): a name matches an entry that it equals or starts with before a non-letter, case-insensitive; * matches any text; an empty list asks nothing. Only the person changes it',
    personOnly: true,
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTING_SPECS;
export const SETTING_NAMES = Object.keys(SETTING_SPECS) as SettingName[];

export interface Settings {
  watchdog_ms: number;
  grace_ms: number;
  artifact_max_calls: number;
  artifact_max_bytes: number;
  settle_max_ms: number;
  settle_quiet_ms: number;
  inline: boolean;
  inline_image_max_side: number;
  background_default: boolean;
  tools: ToolProfile;
  confirm_before: string[];
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  watchdog_ms: DEFAULT_WATCHDOG_MS,
  grace_ms: 200,
  artifact_max_calls: DEFAULT_MAX_CALLS,
  artifact_max_bytes: DEFAULT_MAX_BYTES,
  settle_max_ms: 1_500,
  settle_quiet_ms: 45,
  inline: false,
  inline_image_max_side: 1_280,
  // Background is asked for per call until the person chooses otherwise.
  background_default: false,
  // One family of tools an agent cannot choose wrongly from, at the smallest cost per turn (issue 19).
  tools: 'driver',
  confirm_before: [...DEFAULT_CONFIRM_BEFORE],
});

/** What the allowed values of a setting are, in words (every complaint says it). */
export function allowedValues(name: SettingName): string {
  const spec: SettingSpec = SETTING_SPECS[name];
  if (spec.kind === 'number') return `a whole number from ${thousands(spec.min)} to ${thousands(spec.max)} (${spec.unit})`;
  if (spec.kind === 'flag') return 'true or false';
  if (spec.kind === 'list') return `a list of at most ${spec.maxEntries} names or patterns, each 1 to ${spec.maxChars} characters`;
  return spec.choices.map((choice) => `"${choice}"`).join(', ');
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The complaint about a value a setting cannot take: it names the setting and its allowed values. */
export function settingComplaint(name: SettingName, value: unknown): string {
  return `${name} must be ${allowedValues(name)}, not ${preview(value)}.`;
}

/** Whether `value` is one `name` may take (within its bounds, of its kind). */
export function isAllowedValue(name: SettingName, value: unknown): boolean {
  const spec: SettingSpec = SETTING_SPECS[name];
  if (spec.kind === 'number') return typeof value === 'number' && Number.isInteger(value) && value >= spec.min && value <= spec.max;
  if (spec.kind === 'flag') return typeof value === 'boolean';
  if (spec.kind === 'list') {
    return Array.isArray(value) && value.length <= spec.maxEntries && value.every((entry) => typeof entry === 'string' && entry.trim().length > 0 && entry.length <= spec.maxChars);
  }
  return typeof value === 'string' && spec.choices.includes(value);
}

/** The complaint about names that are no setting. */
export function unknownSettingsComplaint(keys: readonly string[]): string {
  return `Unknown setting ${keys.map((key) => `"${key.slice(0, 40)}"`).join(', ')}: the settings are ${SETTING_NAMES.join(', ')}.`;
}

/** The complaint about changes that are not an object of settings. */
export function notSettingsComplaint(): string {
  return `settings must be an object of setting names to values (${SETTING_NAMES.join(', ')}).`;
}

/** What is wrong with a whole set of changes (empty when nothing is): known names only, null for the default. */
export function changesComplaints(changes: unknown): string[] {
  if (typeof changes !== 'object' || changes === null || Array.isArray(changes)) return [notSettingsComplaint()];
  const complaints: string[] = [];
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(changes)) {
    if (!(SETTING_NAMES as string[]).includes(key)) unknown.push(key);
    else if (value !== null && value !== undefined && !isAllowedValue(key as SettingName, value)) complaints.push(settingComplaint(key as SettingName, value));
  }
  return unknown.length ? [...complaints, unknownSettingsComplaint(unknown)] : complaints;
}

export type SettingsChanges = { [K in SettingName]?: Settings[K] | null };

export type SettingSource = 'default' | 'file' | 'environment';

export interface EffectiveSetting {
  value: Settings[SettingName];
  source: SettingSource;
  default: Settings[SettingName];
  allowed: string;
  env: string;
  about: string;
}

export interface ConfigReport {
  /** The per-user config file (absent when this engine keeps its settings in memory only). */
  file?: string;
  /** Why (part of) the file is not used, naming the file; the rest still applies. */
  fileError?: string;
  settings: Record<SettingName, EffectiveSetting>;
}

/**
 * The refusal of a change to a setting only the person may make (it guards them against the
 * agent): where they can make it themselves. Nothing else of the same change is applied.
 */
export function personOnlyError(names: readonly SettingName[], file: string | undefined): TandemError {
  const where = names.map((name) => SETTING_SPECS[name].env).join(', ');
  const inFile = file ? `in the config file ${file}` : 'in the config file';
  return new TandemError(
    'permission',
    `${names.join(', ')} can be changed only by the person, ${inFile} or the environment variable ${where} — not through a tool call. Nothing was changed.`,
    { reason: 'person-only', settings: [...names], ...(file ? { file } : {}) },
  );
}

/** Reads a setting from its environment variable; a bad value is a clear error naming the variable. */
function fromEnv(name: SettingName, raw: string): Settings[SettingName] {
  const spec: SettingSpec = SETTING_SPECS[name];
  const text = raw.trim().toLowerCase();
  let value: unknown = text;
  // Names keep their case (the matching ignores it); "Send, Pay" is two entries.
  if (spec.kind === 'list') value = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (spec.kind === 'number') value = /^-?\d+$/.test(text) ? Number(text) : raw;
  if (spec.kind === 'flag') value = ['on', '1', 'true', 'yes'].includes(text) ? true : ['off', '0', 'false', 'no'].includes(text) ? false : raw;
  if (isAllowedValue(name, value)) return value as Settings[SettingName];
  const expected =
    spec.kind === 'flag' ? 'on or off' : spec.kind === 'number' ? `a whole number from ${spec.min} to ${spec.max}` : spec.kind === 'list' ? `comma-separated names (${allowedValues(name)})` : spec.choices.join(', ');
  throw new TandemError('bad-input', `${spec.env}=${raw} is not valid: set it to ${expected}, or unset it.`, { variable: spec.env, value: raw.slice(0, 80) });
}

/** The settings the environment overrides (throws on a bad value: that is the launching person's typo). */
export function settingsFromEnv(env: NodeJS.ProcessEnv): Partial<Settings> {
  const found: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const raw = env[SETTING_SPECS[name].env];
    if (raw !== undefined && raw.trim() !== '') found[name] = fromEnv(name, raw);
  }
  return found as Partial<Settings>;
}

interface FileState {
  /** mtime and size when read: a change of either is read again at the next call. */
  stamp: string;
  values: Partial<Settings>;
  error?: string;
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

export interface SettingsStoreOptions {
  /** The config file; without one the settings live in memory only (tests, embedders). */
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** The uid that must own the folder (tests); defaults to the process's own. */
  uid?: number;
}

export class SettingsStore {
  readonly file: string | undefined;
  private readonly fromEnvironment: Partial<Settings>;
  private readonly uid: number | undefined;
  private state: FileState = { stamp: 'none', values: {} };
  /** Without a file, set_config changes these. */
  private memory: Partial<Settings> = {};
  private writing: Promise<unknown> = Promise.resolve();

  /** Throws (bad-input) when an environment variable holds an invalid value; never for the file. */
  constructor(options: SettingsStoreOptions = {}) {
    this.file = options.file;
    this.fromEnvironment = settingsFromEnv(options.env ?? {});
    this.uid = options.uid ?? process.getuid?.();
    this.refresh();
  }

  /** The effective settings now (the file is read again when it changed). */
  current(): Settings {
    this.refresh();
    return { ...DEFAULT_SETTINGS, ...this.fileValues(), ...this.fromEnvironment };
  }

  report(): ConfigReport {
    const current = this.current();
    const fileValues = this.fileValues();
    const settings = Object.fromEntries(
      SETTING_NAMES.map((name) => {
        const source: SettingSource = name in this.fromEnvironment ? 'environment' : name in fileValues ? 'file' : 'default';
        const spec: SettingSpec = SETTING_SPECS[name];
        return [name, { value: current[name], source, default: DEFAULT_SETTINGS[name], allowed: allowedValues(name), env: spec.env, about: spec.about }];
      }),
    ) as Record<SettingName, EffectiveSetting>;
    return { ...(this.file ? { file: this.file } : {}), ...(this.state.error ? { fileError: this.state.error } : {}), settings };
  }

  /**
   * Validates `changes` (all or nothing: one bad value changes nothing), writes them to the
   * file and answers the new report. Refused while the file holds something it cannot read:
   * the person's own edit is never overwritten.
   */
  async update(changes: unknown): Promise<ConfigReport> {
    const complaints = changesComplaints(changes);
    if (complaints.length) throw new TandemError('bad-input', complaints.join(' '), { issues: complaints });
    const wanted = changes as SettingsChanges;
    if (!Object.values(wanted).some((value) => value !== undefined)) {
      throw new TandemError('bad-input', `No setting to change was sent (settings: ${SETTING_NAMES.join(', ')}).`, { reason: 'no-settings', settings: [...SETTING_NAMES] });
    }
    const personOnly = SETTING_NAMES.filter((name) => wanted[name] !== undefined && (SETTING_SPECS[name] as SettingSpec).personOnly);
    if (personOnly.length) throw personOnlyError(personOnly, this.file);
    const apply = (base: Partial<Settings>): Partial<Settings> => {
      const next: Record<string, unknown> = { ...base };
      for (const [name, value] of Object.entries(wanted)) {
        if (value === null) delete next[name];
        else if (value !== undefined) next[name] = value;
      }
      return next as Partial<Settings>;
    };
    if (!this.file) {
      this.memory = apply(this.memory);
      return this.report();
    }
    const file = this.file;
    // One write at a time in this process; the rename makes each one whole for every reader.
    const write = this.writing.then(async () => {
      this.refresh();
      if (this.state.error) {
        throw new TandemError('bad-input', `${this.state.error} Tandem never overwrites it while it holds something Tandem cannot read.`, { reason: 'config-unreadable', file });
      }
      await writePrivateJson(file, apply(this.state.values), this.uid);
      this.state.stamp = 'stale';
      this.refresh();
    });
    this.writing = write.catch(() => undefined);
    await write;
    return this.report();
  }

  private fileValues(): Partial<Settings> {
    return this.file ? this.state.values : this.memory;
  }

  /** Reads the file again when its mtime or size changed since the last read. */
  private refresh(): void {
    const file = this.file;
    if (!file) return;
    // Every call comes through here: one stat, no exception for the usual "no file".
    let stamp: string;
    try {
      const info = statSync(file, { throwIfNoEntry: false });
      stamp = info ? `${info.mtimeMs}:${info.size}:${info.ino}` : 'absent';
    } catch (error) {
      stamp = `error:${errnoCode(error)}`;
    }
    if (stamp === this.state.stamp) return;
    this.state = { stamp, ...readSettingsFile(file, this.uid) };
  }
}

/** The settings a file holds: what is valid in it, and an error naming the file for the rest. */
export function readSettingsFile(file: string, uid?: number): { values: Partial<Settings>; error?: string } {
  let text: string;
  try {
    const info = lstatSync(file);
    if (!info.isFile()) return { values: {}, error: `The config file ${file} is not a regular file (a symbolic link or a folder); it is ignored.` };
    if (uid !== undefined && info.uid !== uid) return { values: {}, error: `The config file ${file} belongs to uid ${info.uid}, not to you; it is ignored.` };
    if (info.size > 64 * 1024) return { values: {}, error: `The config file ${file} is ${info.size} bytes, far more than settings take; it is ignored.` };
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { values: {} };
    return { values: {}, error: `The config file ${file} cannot be read (${(error as Error).message}); it is ignored.` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { values: {}, error: `The config file ${file} is not valid JSON (${(error as Error).message}); it is ignored and the defaults apply.` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { values: {}, error: `The config file ${file} must hold one JSON object of settings (${SETTING_NAMES.join(', ')}); it is ignored.` };
  }
  // Each valid setting applies; each bad one is named and ignored, so one typo costs one setting.
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(json)) {
    if (!(SETTING_NAMES as string[]).includes(key)) {
      problems.push(`"${key.slice(0, 40)}" is not a setting (the settings are ${SETTING_NAMES.join(', ')})`);
      continue;
    }
    if (isAllowedValue(key as SettingName, value)) values[key] = value;
    else problems.push(settingComplaint(key as SettingName, value).replace(/\.$/, ''));
  }
  const error = problems.length ? `The config file ${file} has ${problems.length === 1 ? 'a setting' : 'settings'} Tandem ignores: ${problems.join('; ')}.` : undefined;
  return { values: values as Partial<Settings>, ...(error ? { error } : {}) };
}

/** Creates the folder 0700 (or checks ours: a real folder owned by us, tightened if looser). */
async function ensureConfigFolder(dir: string, uid: number | undefined): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await lstat(dir);
  if (!info.isDirectory()) throw new TandemError('permission', `${dir} is not a folder, so Tandem cannot keep its settings there.`, { reason: 'config-dir', dir });
  if (uid !== undefined && info.uid !== uid) throw new TandemError('permission', `${dir} belongs to uid ${info.uid}, not to you: Tandem keeps its settings only in a folder of yours.`, { reason: 'config-dir', dir });
  if ((info.mode & 0o777) !== 0o700) await chmod(dir, 0o700);
}

/** Writes `values` as the whole file: a 0600 temp file next to it, synced, then renamed over it. */
async function writePrivateJson(file: string, values: Partial<Settings>, uid: number | undefined): Promise<void> {
  const dir = path.dirname(file);
  await ensureConfigFolder(dir, uid);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(values, null, 2)}\n`);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => {});
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}
