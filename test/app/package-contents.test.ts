// What electron-builder packs, checked without building (the Electron binary cannot be
// downloaded here): the files its `files`/`extraResources` globs select are copied into a
// folder laid out like the packaged app, and the backends, the launcher and the main process are
// loaded from there — so a glob that leaves something out fails here, not on a person's first
// launch. The configuration itself goes through electron-builder's own schema validation, and
// the deb's metadata through the rules its deb target applies.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { builtinModules, createRequire } from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import yaml from 'js-yaml';
import { minimatch } from 'minimatch';
import { writeElectronStub } from './support/electronStub.js';
import { repoRoot } from './support/repoRoot.js';

interface BuilderConfig {
  files: string[];
  extraResources: Array<{ from: string; to: string }>;
  linux: { target: string[]; executableName?: string };
  deb?: { depends?: string[]; afterInstall?: string };
  mac: { entitlements: string };
}

const ROOT = repoRoot();
const config = yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  homepage?: string;
  author?: { name?: string; email?: string } | string;
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

/** Every file under `dir`, relative to `base` (node_modules and .git left out: not in `files`). */
function walk(dir: string, base = ROOT): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === '.git') return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, base) : [relative(base, path)];
  });
}

/** What `files` selects: electron-builder's glob semantics (later `!` patterns exclude). */
function selectedFiles(): string[] {
  const candidates = ['package.json', ...walk(join(ROOT, 'dist')), ...walk(join(ROOT, 'assets'))];
  return candidates.filter((file) => {
    let included = false;
    for (const pattern of config.files) {
      if (pattern.startsWith('!')) {
        if (minimatch(file, pattern.slice(1), { dot: true })) included = false;
      } else if (minimatch(file, pattern, { dot: true })) {
        included = true;
      }
    }
    return included;
  });
}

describe('the packaged app (what electron-builder.yml selects)', { timeout: 120_000 }, () => {
  let app: string;
  let base: string;

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'tandem-package-'));
    app = join(base, 'resources', 'app');
    for (const file of selectedFiles()) {
      mkdirSync(dirname(join(app, file)), { recursive: true });
      cpSync(join(ROOT, file), join(app, file));
    }
    for (const resource of config.extraResources) cpSync(join(ROOT, resource.from), join(base, 'resources', resource.to));
    // electron-builder packs the production dependencies; the checkout's are used as they are.
    symlinkSync(join(ROOT, 'node_modules'), join(app, 'node_modules'), 'dir');
  });

  after(() => rmSync(base, { recursive: true, force: true }));

  it('should hold the entry point, the native bindings and the renderer', () => {
    assert.ok(existsSync(join(app, pkg.main)), `package.json main ${pkg.main}`);
    assert.ok(existsSync(join(app, 'dist/native/linux/x11Connection.js')), 'dist/native is packed');
    assert.ok(existsSync(join(app, 'dist/renderer/index.html')));
    assert.ok(existsSync(join(app, 'dist/preload/preload.cjs')));
    assert.ok(!walk(app, app).some((file) => file.endsWith('.map') || file.startsWith('dist/test/')), 'no source maps, no tests');
  });

  it('should load both backends from the packed files', async () => {
    await import(pathToFileURL(join(app, 'dist/src/backends/linux/index.js')).href);
    await import(pathToFileURL(join(app, 'dist/src/backends/macos/index.js')).href);
    await import(pathToFileURL(join(app, 'dist/src/backends/index.js')).href);
  });

  it('should only import production dependencies and built-ins from the packed code', () => {
    const allowed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {}), 'electron']);
    const builtins = new Set(builtinModules);
    const missing = new Set<string>();
    for (const file of walk(join(app, 'dist'), app).filter((name) => name.endsWith('.js'))) {
      // Lines holding a template literal are code for another realm (a worker bootstrap that
      // registers tsx in development), not imports of this module.
      const source = readFileSync(join(app, file), 'utf8').split('\n').filter((line) => !line.includes('`')).join('\n');
      for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'".][^'"]*)['"]/g)) {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
        if (!builtins.has(name) && !builtins.has(name.replace(/^node:/, '')) && !allowed.has(name)) missing.add(`${name} (${file})`);
      }
    }
    assert.deepEqual([...missing], [], 'imported but not a production dependency');
  });

  it('should run the bundled launcher from the resources folder', () => {
    const launcher = join(base, 'resources', 'bin', 'tandem');
    assert.ok(existsSync(launcher), 'the launcher script is in Resources/bin');
    const listed = spawnSync(process.execPath, [join(app, 'dist/src/launcher/cli.js'), 'tools'], { encoding: 'utf8', env: { ...process.env, DISPLAY: '' } });
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, /click_and_traverse/);
  });

  it('should start the main process from the packed files (electron stubbed) and quit', async () => {
    const register = await writeElectronStub(base);
    const env = { ...process.env, TANDEM_SOCKET_DIR: join(base, 'run'), TANDEM_ARTIFACTS_DIR: join(base, 'artifacts'), TANDEM_STUB_STATE: join(base, 'state.json'), TANDEM_STUB_USERDATA: join(base, 'userdata'), TANDEM_APP_COMMAND: 'true' };
    const child = spawn(process.execPath, ['--import', register, join(app, pkg.main)], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const socket = join(base, 'run', 'tandem.sock');
    const deadline = Date.now() + 30_000;
    while (!existsSync(socket) && child.exitCode === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(existsSync(socket), `the packed main process started and serves its socket:\n${stderr}`);
    child.kill('SIGUSR2');
    assert.equal(await exited, 0, stderr);
  });

  it('should be a configuration electron-builder accepts, with what its deb target demands', async () => {
    const require = createRequire(join(ROOT, 'package.json'));
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as { validateConfiguration(config: unknown, logger: unknown): Promise<void> };
    const { DebugLogger } = require('builder-util/out/DebugLogger') as { DebugLogger: new (enabled: boolean) => unknown };
    await validateConfiguration(config, new DebugLogger(false));
    // The deb target refuses to build without these (FpmTarget): a homepage and an author email.
    assert.match(pkg.homepage ?? '', /^https:\/\//, 'package.json homepage');
    assert.match(typeof pkg.author === 'object' ? (pkg.author.email ?? '') : (pkg.author ?? ''), /@/, 'package.json author email');
    // deb.depends replaces electron-builder's defaults: they must all still be there.
    const { default: FpmTarget } = require('app-builder-lib/out/targets/FpmTarget') as { default: { prototype: { getDefaultDepends(target: string): string[] } } };
    const defaults = FpmTarget.prototype.getDefaultDepends.call(undefined, 'deb');
    const depends = config.deb?.depends ?? defaults;
    for (const needed of [...defaults, 'libgbm1', 'libasound2']) assert.ok(depends.includes(needed), `deb.depends keeps ${needed}`);
  });

  it('should ship a deb whose `tandem` command is the CLI, not the GUI, and no AppImage', () => {
    assert.deepEqual(config.linux.target, ['deb'], 'no AppImage: its temporary mount would break the configs MCP clients keep');
    const gui = config.linux.executableName;
    assert.ok(gui && gui !== 'tandem', '/usr/bin/tandem must be the launcher, not the GUI');
    const afterInstall = readFileSync(join(ROOT, (config.deb as { afterInstall: string }).afterInstall), 'utf8');
    assert.match(afterInstall, /ln -sf '\/opt\/\$\{sanitizedProductName\}\/resources\/bin\/tandem' \/usr\/bin\/tandem/);
    assert.match(readFileSync(join(ROOT, 'assets/bin/tandem'), 'utf8'), new RegExp(`app="\\$resources/\\.\\./${gui}"`), 'the launcher runs the GUI binary by its name');
  });

  it('should let an unsigned macOS build load its native modules', () => {
    const entitlements = readFileSync(join(ROOT, config.mac.entitlements), 'utf8');
    assert.match(entitlements, /com\.apple\.security\.cs\.disable-library-validation<\/key>\s*<true\/>/);
    assert.match(entitlements, /com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/);
  });
});
