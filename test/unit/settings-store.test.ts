// The person's settings: one source for the engine (defaults < config file < environment),
// validated with the allowed range in every complaint, kept in a private file written
// atomically, and never a crash for a file someone broke by hand.

import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ArtifactStore } from '../../src/core/artifacts/artifacts.js';
import { Engine } from '../../src/core/engine.js';
import { isTandemError } from '../../src/core/errors.js';
import { DEFAULT_SETTINGS, SettingsStore, settingsFromEnv } from '../../src/core/settings.js';
import { configFile } from '../../src/launcher/configPaths.js';
import { COUNTER, act, clickOn, counterDesktop, engineFixture, typeText, type EngineFixture } from '../support/engineFixtures.js';
import { modelText } from '../support/modelText.js';
import { describeStepsDone } from '../../src/mcp/renderSteps.js';

describe('settings: one validated source, a private file', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-settings-'));
    file = path.join(dir, 'tandem', 'config.json');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('should answer the defaults, each marked as such, when there is no file and no variable', () => {
    const store = new SettingsStore({ file, env: {} });
    assert.deepEqual(store.current(), DEFAULT_SETTINGS);
    const report = store.report();
    assert.equal(report.file, file);
    assert.equal(report.fileError, undefined);
    assert.deepEqual(Object.values(report.settings).map((s) => s.source), Array(10).fill('default'));
    assert.ok(report.settings.settle_max_ms.value as number >= 1_000, 'an action waits at least a second for its app to settle');
    assert.equal(report.settings.watchdog_ms.value, 30_000);
    assert.equal(report.settings.inline_image_max_side.value, 1_280);
    assert.equal(report.settings.tools.value, 'driver');
  });

  it('should persist a change in a 0600 file in a 0700 folder, with no temp file left, and read it back in a new store', async () => {
    const store = new SettingsStore({ file, env: {} });
    const report = await store.update({ watchdog_ms: 12_000, inline: true, tools: 'driver' });
    assert.equal(report.settings.watchdog_ms.value, 12_000);
    assert.equal(report.settings.watchdog_ms.source, 'file');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(path.dirname(file))).mode & 0o777, 0o700);
    assert.deepEqual(await readdir(path.dirname(file)), ['config.json'], 'the temp file was renamed, none left');
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { watchdog_ms: 12_000, inline: true, tools: 'driver' });
    const again = new SettingsStore({ file, env: {} });
    assert.equal(again.current().watchdog_ms, 12_000);
    assert.equal(again.current().tools, 'driver');
    await again.update({ watchdog_ms: null });
    assert.equal(again.report().settings.watchdog_ms.source, 'default', 'null puts it back to the default');
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { inline: true, tools: 'driver' });
  });

  it('should tighten a looser folder of ours to 0700 before writing', async () => {
    await mkdir(path.dirname(file), { mode: 0o755 });
    await chmod(path.dirname(file), 0o755);
    await new SettingsStore({ file, env: {} }).update({ grace_ms: 0 });
    assert.equal((await stat(path.dirname(file))).mode & 0o777, 0o700);
  });

  it('should let the environment win over the file, and the file over the default, saying which is which', async () => {
    await new SettingsStore({ file, env: {} }).update({ watchdog_ms: 20_000, grace_ms: 500 });
    const store = new SettingsStore({ file, env: { TANDEM_WATCHDOG_MS: '5000', TANDEM_INLINE: 'on' } });
    const report = store.report();
    assert.deepEqual(
      [report.settings.watchdog_ms, report.settings.grace_ms, report.settings.inline, report.settings.artifact_max_calls].map((s) => [s.value, s.source]),
      [[5_000, 'environment'], [500, 'file'], [true, 'environment'], [500, 'default']],
    );
    // A change of an overridden setting is saved, but the environment still wins in this process.
    const after = await store.update({ watchdog_ms: 25_000 });
    assert.equal(after.settings.watchdog_ms.value, 5_000);
    assert.equal(JSON.parse(await readFile(file, 'utf8')).watchdog_ms, 25_000);
  });

  it('should refuse out-of-range, mistyped and unknown settings with the allowed values, changing nothing', async () => {
    const store = new SettingsStore({ file, env: {} });
    const refused = async (changes: unknown, pattern: RegExp): Promise<void> => {
      await assert.rejects(store.update(changes), (error: unknown) => isTandemError(error, 'bad-input') && pattern.test((error as Error).message));
    };
    await refused({ watchdog_ms: 120_000 }, /watchdog_ms must be a whole number from 1,000 to 30,000 \(ms\), not 120000/);
    await refused({ watchdog_ms: 1e308 }, /watchdog_ms must be a whole number from 1,000 to 30,000/);
    await refused({ watchdog_ms: 0 }, /from 1,000 to 30,000/);
    await refused({ grace_ms: 1.5 }, /grace_ms must be a whole number from 0 to 10,000/);
    await refused({ inline_image_max_side: 100_000 }, /inline_image_max_side must be a whole number from 256 to 4,096 \(px\)/);
    await refused({ artifact_max_calls: -1 }, /artifact_max_calls must be a whole number from 10 to 100,000/);
    await refused({ inline: 'yes' }, /inline must be true or false, not "yes"/);
    await refused({ tools: 'everything' }, /tools must be "reference", "driver", "all"/);
    await refused({ watchdog: 5000 }, /Unknown setting "watchdog": the settings are watchdog_ms, grace_ms/);
    await refused([1, 2], /settings must be an object/);
    await refused({}, /No setting to change was sent/);
    // All or nothing: the valid one beside a bad one is not applied either.
    await refused({ grace_ms: 300, watchdog_ms: 31_000 }, /watchdog_ms/);
    assert.equal(store.current().grace_ms, DEFAULT_SETTINGS.grace_ms);
    await assert.rejects(stat(file), /ENOENT/, 'nothing was written');
  });

  it('should refuse a bad environment variable with its name and range', () => {
    assert.throws(() => settingsFromEnv({ TANDEM_WATCHDOG_MS: '60000' }), /TANDEM_WATCHDOG_MS=60000 is not valid: set it to a whole number from 1000 to 30000, or unset it/);
    assert.throws(() => settingsFromEnv({ TANDEM_TOOLS: 'most' }), /TANDEM_TOOLS=most is not valid: set it to reference, driver, all/);
    assert.throws(() => settingsFromEnv({ TANDEM_INLINE: 'maybe' }), /TANDEM_INLINE=maybe is not valid: set it to on or off/);
    assert.deepEqual(settingsFromEnv({ TANDEM_INLINE: 'ON', TANDEM_INLINE_MAX_SIDE: ' 800 ', TANDEM_TOOLS: 'reference' }), { inline: true, inline_image_max_side: 800, tools: 'reference' });
  });

  it('should survive a corrupt file: the defaults apply, the error names the file, and set_config never overwrites it', async () => {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, '{"watchdog_ms": 15000,,}', { mode: 0o600 });
    const store = new SettingsStore({ file, env: {} });
    assert.deepEqual(store.current(), DEFAULT_SETTINGS);
    const report = store.report();
    assert.match(report.fileError ?? '', new RegExp(`The config file ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid JSON`));
    await assert.rejects(store.update({ inline: true }), (error: unknown) => isTandemError(error, 'bad-input') && /fix or delete that file/.test(modelText(error)));
    assert.equal(await readFile(file, 'utf8'), '{"watchdog_ms": 15000,,}', 'the hand edit is untouched');
  });

  it('should keep the valid settings of a hand-edited file and name each bad one', async () => {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, JSON.stringify({ grace_ms: 400, watchdog_ms: 999_999, colour: 'blue' }), { mode: 0o600 });
    const store = new SettingsStore({ file, env: {} });
    assert.equal(store.current().grace_ms, 400);
    assert.equal(store.current().watchdog_ms, 30_000, 'the absurd watchdog is ignored, not obeyed');
    const error = store.report().fileError ?? '';
    assert.match(error, /watchdog_ms must be a whole number from 1,000 to 30,000 \(ms\), not 999999/);
    assert.match(error, /"colour" is not a setting/);
    for (const content of ['[1,2]', 'null', '"text"']) {
      await writeFile(file, content);
      assert.match(store.report().fileError ?? '', /must hold one JSON object of settings/, content);
      assert.deepEqual(store.current(), DEFAULT_SETTINGS);
    }
  });

  it('should pick up a change another process made to the file at the next read', async () => {
    const store = new SettingsStore({ file, env: {} });
    assert.equal(store.current().inline_image_max_side, 1_280);
    await new SettingsStore({ file, env: {} }).update({ inline_image_max_side: 640 });
    assert.equal(store.current().inline_image_max_side, 640);
    await writeFile(file, JSON.stringify({ inline_image_max_side: 320 }));
    assert.equal(store.current().inline_image_max_side, 320);
  });

  it('should ignore a file that is a symbolic link or a folder', async () => {
    await mkdir(file, { recursive: true });
    const store = new SettingsStore({ file, env: {} });
    assert.match(store.report().fileError ?? '', /is not a regular file/);
    assert.deepEqual(store.current(), DEFAULT_SETTINGS);
  });

  it('should put the file under XDG_CONFIG_HOME on Linux, Application Support on macOS, TANDEM_CONFIG_DIR first', () => {
    assert.equal(configFile({ XDG_CONFIG_HOME: '/x/conf' }, 'linux', '/home/p'), '/x/conf/tandem/config.json');
    assert.equal(configFile({}, 'linux', '/home/p'), '/home/p/.config/tandem/config.json');
    assert.equal(configFile({ XDG_CONFIG_HOME: 'relative' }, 'linux', '/home/p'), '/home/p/.config/tandem/config.json', 'the XDG spec ignores a relative path');
    assert.equal(configFile({ XDG_CONFIG_HOME: '/x/conf' }, 'darwin', '/Users/p'), '/Users/p/Library/Application Support/Tandem/config.json');
    assert.equal(configFile({ TANDEM_CONFIG_DIR: '/t/c', XDG_CONFIG_HOME: '/x' }, 'linux', '/home/p'), '/t/c/config.json');
  });
});

describe('settings: the engine reads them at every call', () => {
  let fixture: EngineFixture | undefined;
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-settings-engine-'));
  });
  afterEach(async () => {
    await fixture?.cleanup();
    fixture = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('should fire the watchdog at the time set_config gave it, from the next call on', async () => {
    const settings = new SettingsStore({ file: path.join(dir, 'config.json'), env: {} });
    fixture = await engineFixture(undefined, { settings, graceMs: undefined });
    const { engine, desktop } = fixture;
    await engine.setConfig({ watchdog_ms: 1_000 });
    desktop.behave('typeText', { hang: 'ignore-abort' });
    const started = Date.now();
    const result = await engine.act(act(COUNTER, clickOn('Name'), typeText('abc')));
    assert.equal(result.status, 'watchdog');
    assert.ok(Date.now() - started < 10_000, 'the 1 s watchdog, not the default 30 s one');
    assert.equal(desktop.guardEngaged, false);
  });

  it('should refuse wait steps longer than the configured watchdog', async () => {
    fixture = await engineFixture(undefined, { settings: new SettingsStore({ env: {} }) });
    const { engine } = fixture;
    const waiting = act(COUNTER, { kind: 'wait', ms: 1_500 });
    assert.equal((await engine.act(waiting)).status, 'ok', 'fits the default 30 s watchdog');
    await engine.setConfig({ watchdog_ms: 1_000 });
    await assert.rejects(engine.act(waiting), /longer than the 1000 ms watchdog/);
  });

  it('should keep the guard up for the configured late-Esc grace', async () => {
    fixture = await engineFixture(undefined, { settings: new SettingsStore({ env: {} }), graceMs: undefined });
    const { engine, desktop } = fixture;
    await engine.setConfig({ grace_ms: 2_000 });
    assert.equal((await engine.act(act(COUNTER, clickOn('Name')))).status, 'ok');
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(desktop.guardEngaged, true, 'still within the 2 s grace (the default is 200 ms)');
    await engine.setConfig({ grace_ms: 0 });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.equal((await engine.act(act(COUNTER, clickOn('Name')))).status, 'ok');
    assert.equal(desktop.guardEngaged, false, 'no grace at all now');
  });

  it('should prune the artifacts folder to the configured number of calls', async () => {
    const settings = new SettingsStore({ env: {} });
    const engine = new Engine(counterDesktop(), { artifacts: { dir: path.join(dir, 'artifacts') }, describeSteps: describeStepsDone, settings, graceMs: 0, settle: { quietMs: 0, capMs: 0, fallbackMs: 0 } });
    try {
      await engine.setConfig({ artifact_max_calls: 10 });
      for (let i = 0; i < 14; i++) await engine.refresh(COUNTER);
      const names = await readdir(path.join(dir, 'artifacts'));
      const calls = new Set(names.map((name) => name.replace(/\.(txt|png)$/, '')));
      assert.equal(calls.size, 10, names.join(', '));
      await engine.setConfig({ artifact_max_calls: 500 });
      for (let i = 0; i < 3; i++) await engine.refresh(COUNTER);
      assert.equal(new Set((await readdir(path.join(dir, 'artifacts'))).map((name) => name.replace(/\.(txt|png)$/, ''))).size, 13);
    } finally {
      await engine.close();
    }
  });

  it('should let limits given to an artifact store win over the settings', async () => {
    const store = await ArtifactStore.open({ dir: path.join(dir, 'fixed'), maxCalls: 20, retention: () => ({ maxCalls: 10, maxBytes: 1 }) });
    assert.equal(store.maxCalls, 20);
    assert.equal(store.maxBytes, 1);
  });
});
