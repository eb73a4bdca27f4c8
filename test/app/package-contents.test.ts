// The packaged app as a person's first launch meets it, built by electron-builder itself: the
// real `linux deb` build runs over a stand-in Electron binary (the real one cannot be downloaded
// here) up to the point where it would hand the package to fpm (also a download). Everything
// before that is electron-builder's own work: the configuration's schema validation, `files`,
// `asarUnpack`, `extraResources`, the production node_modules, app.asar, the fuses, the deb's
// metadata and its install scripts. The test then loads the backends, the launcher and the
// main process from what was packed, runs the launcher the way /usr/bin/tandem does, and runs
// the install scripts in a scratch root.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { builtinModules, createRequire } from 'node:module';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { after, before, describe, it } from 'node:test';
import yaml from 'js-yaml';
import { writeElectronStub } from './support/electronStub.js';
import { repoRoot } from './support/repoRoot.js';
import { EXTRACTED_APP, writeStandInElectron } from './support/standInElectron.js';

const ROOT = repoRoot();
const require = createRequire(join(ROOT, 'package.json'));
const config = yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as {
  mac: { entitlements: string; identity?: string | null; target: Array<string | { target: string; arch?: string | string[] }> };
  electronFuses: Record<string, boolean>;
  productName: string;
  linux: { target: string[] };
  deb?: { depends?: string[] };
};
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string };

interface Builder {
  build(options: Record<string, unknown>): Promise<string[]>;
  Platform: { LINUX: { createTarget(type: string): unknown } };
}
interface Asar {
  listPackage(archive: string, options: { isPack: boolean }): string[];
  extractAll(archive: string, dest: string): void;
}
interface Fuses {
  getCurrentFuseWire(binary: string): Promise<Record<number, number>>;
  FuseV1Options: Record<string, number>;
}
/** A fuse's byte in the wire ('1' / '0'; @electron/fuses does not export its FuseState). */
const FUSE = { on: '1'.charCodeAt(0), off: '0'.charCodeAt(0) };

/** What electron-builder would have handed to fpm: its arguments and the install scripts. */
interface DebPlan {
  args: string[];
  afterInstall: string;
  afterRemove: string;
  desktopEntry: string;
}

/** Every file under `dir`, relative to it. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return lstatSync(path).isDirectory() ? walk(path, base) : [relative(base, path)];
  });
}

function argAfter(args: string[], flag: string): string {
  const index = args.indexOf(flag);
  assert.ok(index >= 0, `fpm gets ${flag}`);
  return args[index + 1];
}

describe('the packaged app, built by electron-builder over a stand-in Electron', { timeout: 300_000 }, () => {
  let base: string;
  let unpacked: string;
  let resources: string;
  let app: string;
  let deb: DebPlan | undefined;

  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'tandem-package-'));
    const electronVersion = (JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;
    writeStandInElectron(join(base, 'electron-dist'), electronVersion);
    const { build, Platform } = require('electron-builder') as Builder;
    await build({
      projectDir: ROOT,
      targets: Platform.LINUX.createTarget('deb'),
      config: {
        electronDist: join(base, 'electron-dist'),
        // Rebuilding native modules for Electron downloads its headers; ours are N-API prebuilds.
        npmRebuild: false,
        directories: { output: join(base, 'out') },
      },
      // electron-builder's own hook for seeing what fpm would get; true stops before fpm runs.
      effectiveOptionComputed: async ([args, desktopEntry]: [string[], string]) => {
        deb = {
          args,
          afterInstall: readFileSync(argAfter(args, '--after-install'), 'utf8'),
          afterRemove: readFileSync(argAfter(args, '--after-remove'), 'utf8'),
          desktopEntry: readFileSync(desktopEntry, 'utf8'),
        };
        return true;
      },
    });
    unpacked = join(base, 'out', 'linux-unpacked');
    resources = join(unpacked, 'resources');
    app = join(resources, EXTRACTED_APP);
    (require('@electron/asar') as Asar).extractAll(join(resources, 'app.asar'), app);
  });

  after(() => rmSync(base, { recursive: true, force: true }));

  it('should pack the entry point, the native bindings and the renderer, and no tests or source maps', () => {
    const packed = (require('@electron/asar') as Asar).listPackage(join(resources, 'app.asar'), { isPack: false }).map((file) => file.replace(/^[/\\]/, ''));
    for (const file of [pkg.main, 'dist/native/linux/x11Connection.js', 'dist/native/macos/koffiMacNative.js', 'dist/renderer/index.html', 'dist/preload/preload.cjs', 'assets/tray.png']) {
      assert.ok(packed.includes(file), `${file} is in app.asar`);
    }
    assert.ok(!packed.some((file) => file.endsWith('.map') || file.startsWith('dist/test/') || file.startsWith('dist/bench/')), 'no source maps, tests or benchmarks');
    assert.ok(!packed.some((file) => /^node_modules\/(electron|electron-builder|typescript|vite)\//.test(file)), 'no development dependencies');
  });

  it('should keep the native modules outside the archive, where they can be loaded', () => {
    const outside = join(resources, 'app.asar.unpacked', 'node_modules');
    for (const name of ['koffi', 'sharp', '@img']) assert.ok(existsSync(join(outside, name)), `${name} is unpacked`);
    assert.ok(walk(join(outside, '@img')).some((file) => file.endsWith('.node')), "sharp's native binding is unpacked");
  });

  it('should load both backends and the launcher from the packed files alone', async () => {
    await import(pathToFileURL(join(app, 'dist/src/backends/linux/index.js')).href);
    await import(pathToFileURL(join(app, 'dist/src/backends/macos/index.js')).href);
    await import(pathToFileURL(join(app, 'dist/src/backends/index.js')).href);
    await import(pathToFileURL(join(app, 'dist/src/launcher/runCli.js')).href);
  });

  it('should find every module the packed code imports among the packed dependencies', () => {
    const builtins = new Set(builtinModules);
    const missing = new Set<string>();
    for (const file of walk(join(app, 'dist')).filter((name) => name.endsWith('.js'))) {
      // Lines holding a template literal are code for another realm (a worker bootstrap that
      // registers tsx in development), not imports of this module.
      const source = readFileSync(join(app, 'dist', file), 'utf8').split('\n').filter((line) => !line.includes('`')).join('\n');
      // `from`/`import` as keywords only: not the end of a name or a string literal ('from', args.from).
      for (const [, specifier] of source.matchAll(/(?<![\w.'"$])(?:from|import)\s*\(?\s*['"]([^'".][^'"]*)['"]/g)) {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
        if (builtins.has(name) || builtins.has(name.replace(/^node:/, '')) || name === 'electron') continue;
        if (!existsSync(join(app, 'node_modules', name))) missing.add(`${name} (${file})`);
      }
    }
    assert.deepEqual([...missing], [], 'imported but not packed');
  });

  it('should run the CLI through /usr/bin/tandem, on the app binary as Node', () => {
    const bin = join(base, 'usr', 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(join(resources, 'bin', 'tandem'), join(bin, 'tandem'));
    const listed = spawnSync(join(bin, 'tandem'), ['tools'], { encoding: 'utf8', env: { ...process.env, DISPLAY: '', TANDEM_TEST_NODE: process.execPath } });
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, /click_and_traverse/);
  });

  it('should leave the fuses the launcher and the app rely on as the configuration says', async () => {
    const { getCurrentFuseWire, FuseV1Options } = require('@electron/fuses') as Fuses;
    const wire = await getCurrentFuseWire(join(unpacked, 'tandem-app'));
    assert.equal(wire[FuseV1Options.RunAsNode], FUSE.on, 'runAsNode stays on: the launcher is the app binary as Node');
    assert.equal(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable], FUSE.off);
    assert.equal(wire[FuseV1Options.EnableNodeCliInspectArguments], FUSE.off);
    assert.equal(wire[FuseV1Options.OnlyLoadAppFromAsar], FUSE.on);
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

  it('should re-sign the macOS bundle ad hoc after flipping the fuses, and leave the identity to the environment', async () => {
    // electron-builder's own translation of the configuration into @electron/fuses' options.
    const { PlatformPackager } = require('app-builder-lib/out/platformPackager') as {
      PlatformPackager: { prototype: { generateFuseConfig(fuses: Record<string, boolean>): Promise<Record<string, unknown>> } };
    };
    const fuseConfig = await PlatformPackager.prototype.generateFuseConfig.call(undefined, config.electronFuses);
    assert.equal(fuseConfig.resetAdHocDarwinSignature, true, 'a build without a signing identity still launches on Apple Silicon');
    assert.equal(config.mac.identity, undefined, 'an identity written here would stop CSC_LINK / CSC_NAME from choosing the release one');
  });

  it('should run the macOS guard worker from app.asar.unpacked, its whole module graph there', async () => {
    const packedWorker = pathToFileURL(join(resources, 'app.asar', 'dist/src/backends/macos/cgEventTapWorker.js'));
    const { outsideAsar } = (await import(pathToFileURL(join(app, 'dist/src/backends/outsideAsar.js')).href)) as { outsideAsar(url: URL): URL };
    const workerUrl = outsideAsar(packedWorker);
    assert.equal(fileURLToPath(workerUrl), join(resources, 'app.asar.unpacked', 'dist/src/backends/macos/cgEventTapWorker.js'));
    assert.match(readFileSync(join(app, 'dist/src/backends/macos/cgEventTapHost.js'), 'utf8'), /new Worker\(outsideAsar\(new URL\('\.\/cgEventTapWorker\.js', import\.meta\.url\)\)/, 'the guard starts the worker by its unpacked path');
    // The real worker file, started where the packaged app starts it: every module it imports
    // must load from the unpacked folder alone. The thread lives on and waits for engagements
    // (cgEventTapHost.ts): asked to engage off macOS, it reports that the bindings are for darwin
    // only — which proves the whole graph loaded.
    const worker = new Worker(workerUrl, { workerData: { marker: '1' } });
    const outcome = await new Promise<unknown>((resolve) => {
      worker.once('message', resolve);
      worker.once('error', (error) => resolve(error));
      const engagement = { id: 1, heartbeatTimeoutMs: 1_000, maxLifetimeMs: 1_000, shared: new SharedArrayBuffer(64) };
      worker.postMessage({ type: 'engage', engagement });
    });
    await worker.terminate();
    assert.ok(!(outcome instanceof Error), `the worker's modules load from app.asar.unpacked: ${String(outcome)}`);
    assert.match((outcome as { reason?: string }).reason ?? '', /only load on darwin/);
    assert.ok(existsSync(join(resources, 'app.asar.unpacked', 'node_modules', 'koffi', 'package.json')), "the worker's one package, koffi, is unpacked");
  });

  it('should load the koffi bindings module from app.asar.unpacked and find koffi itself there', async () => {
    // Off macOS the worker's answer above comes from loadMacNative's platform check, before it
    // imports koffi or koffiMacNative.js: load both here. koffiMacNative.js only declares (its
    // koffi import is a type), so importing it calls nothing of darwin's.
    const unpackedNative = join(resources, 'app.asar.unpacked', 'dist/native/macos');
    const bindings = (await import(pathToFileURL(join(unpackedNative, 'koffiMacNative.js')).href)) as { createKoffiMacNative?: unknown };
    assert.equal(typeof bindings.createKoffiMacNative, 'function', 'koffiMacNative.js loads from the unpacked folder');
    // Where loadMacNative's import('koffi') resolves on a Mac: beside it, not inside app.asar.
    const fromLoader = createRequire(join(unpackedNative, 'loadMacNative.js'));
    const koffiEntry = fromLoader.resolve('koffi');
    assert.ok(koffiEntry.startsWith(join(resources, 'app.asar.unpacked', 'node_modules') + '/'), `koffi resolves under app.asar.unpacked/node_modules: ${koffiEntry}`);
    const koffi = fromLoader('koffi') as { load?: unknown };
    assert.equal(typeof koffi.load, 'function', "koffi's native part loads from the unpacked folder (this platform's prebuild)");
  });

  it('should mark the unpacked dist/ as ES modules with its own package.json, not leave it to syntax detection', () => {
    const packed = (require('@electron/asar') as Asar).listPackage(join(resources, 'app.asar'), { isPack: false }).map((file) => file.replace(/^[/\\]/, ''));
    assert.ok(packed.includes('dist/package.json'), 'dist/package.json is in app.asar');
    const unpackedManifest = join(resources, 'app.asar.unpacked', 'dist', 'package.json');
    assert.ok(existsSync(unpackedManifest), 'and beside the unpacked worker');
    assert.deepEqual(JSON.parse(readFileSync(unpackedManifest, 'utf8')), { type: 'module' });
  });

  it('should run the launcher from inside app.asar, where Electron reads it under ELECTRON_RUN_AS_NODE', () => {
    const packed = (require('@electron/asar') as Asar).listPackage(join(resources, 'app.asar'), { isPack: false }).map((file) => file.replace(/^[/\\]/, ''));
    assert.ok(packed.includes('dist/src/launcher/cli.js'), 'cli.js is in the archive');
    assert.match(readFileSync(join(resources, 'bin', 'tandem'), 'utf8'), /"\$resources\/app\.asar\/dist\/src\/launcher\/cli\.js"/, 'the launcher script runs the packed cli.js');
  });

  it('should ship a deb only: an AppImage runs from a temporary mount that the MCP client configs would point into', () => {
    assert.deepEqual(config.linux.target, ['deb']);
  });

  it('should describe the deb with a maintainer, a homepage and the GUI in its desktop entry', () => {
    assert.ok(deb, 'electron-builder got as far as fpm');
    assert.match(argAfter(deb.args, '--maintainer'), /<[^>]+@[^>]+>/);
    assert.match(argAfter(deb.args, '--url'), /^https:\/\//);
    assert.ok(deb.args.some((arg) => arg.endsWith(`=/opt/${config.productName}`)), 'the app goes to /opt');
    assert.match(deb.desktopEntry, new RegExp(`^Exec=/opt/${config.productName}/tandem-app\\b`, 'm'), 'the menu entry starts the GUI binary');
    assert.match(deb.desktopEntry, /^StartupWMClass=tandem-app$/m, 'and names the app_id Electron gives its windows (package.json desktopName)');
    assert.ok(deb.args.some((arg) => arg.endsWith('=/usr/share/applications/tandem-app.desktop')), 'as tandem-app.desktop');
  });

  it('should keep electron-builder’s default deb dependencies and add what Electron and the backend need', () => {
    const { default: FpmTarget } = require('app-builder-lib/out/targets/FpmTarget') as { default: { prototype: { getDefaultDepends(target: string): string[] } } };
    const defaults = FpmTarget.prototype.getDefaultDepends.call(undefined, 'deb');
    const depends = config.deb?.depends ?? defaults;
    for (const needed of [...defaults, 'libgbm1', 'libasound2', 'libxtst6', 'libxi6', 'at-spi2-core']) assert.ok(depends.includes(needed), `deb.depends keeps ${needed}`);
  });

  describe('the install scripts, run in a scratch root', () => {
    let root: string;
    let stubs: string;
    let calls: string;
    const appDir = (): string => join(root, 'opt', config.productName);

    /** Fake system tools: each logs its name and arguments; `unshare` says whether user namespaces work. */
    const stubTools = (userNamespaces: boolean, apparmor: boolean): void => {
      stubs = join(root, 'stubs');
      mkdirSync(stubs, { recursive: true });
      calls = join(root, 'calls.log');
      const tool = (name: string, status: number): void => {
        writeFileSync(join(stubs, name), `#!/bin/sh\necho "${name} $*" >> '${calls}'\nexit ${status}\n`);
        chmodSync(join(stubs, name), 0o755);
      };
      tool('unshare', userNamespaces ? 0 : 1);
      tool('apparmor_status', apparmor ? 0 : 1);
      tool('apparmor_parser', 0);
      tool('update-desktop-database', 0);
    };

    const run = (script: string): void => {
      const file = join(root, 'script.sh');
      writeFileSync(file, script);
      const result = spawnSync('/bin/sh', [file, 'configure'], { encoding: 'utf8', env: { PATH: `${stubs}:/usr/bin:/bin`, DPKG_ROOT: root } });
      assert.equal(result.status, 0, result.stderr);
    };

    const prepareRoot = (): void => {
      root = mkdtempSync(join(base, 'root-'));
      mkdirSync(join(appDir(), 'resources'), { recursive: true });
      writeFileSync(join(appDir(), 'chrome-sandbox'), '');
      // The profile electron-builder wrote beside the app (see FpmTarget: resources/apparmor-profile).
      writeFileSync(join(appDir(), 'resources', 'apparmor-profile'), readFileSync(join(resources, 'apparmor-profile')));
    };

    it('should link /usr/bin/tandem to the launcher, make the sandbox setuid without user namespaces and install the AppArmor profile', () => {
      prepareRoot();
      stubTools(false, true);
      run(deb!.afterInstall);
      assert.equal(readlinkSync(join(root, 'usr/bin/tandem')), `/opt/${config.productName}/resources/bin/tandem`, '/usr/bin/tandem is the CLI launcher');
      assert.equal(statSync(join(appDir(), 'chrome-sandbox')).mode & 0o7777, 0o4755, 'the sandbox helper is setuid root');
      assert.match(readFileSync(join(root, 'etc/apparmor.d/tandem-app'), 'utf8'), new RegExp(`profile "tandem-app" "/opt/${config.productName}/tandem-app"[^{]*\\{[^}]*userns`), 'the profile grants the GUI user namespaces');
      const log = readFileSync(calls, 'utf8');
      assert.match(log, /apparmor_parser --skip-kernel-load/, 'the profile was checked before it was installed');
      assert.doesNotMatch(log, /--replace/, 'nothing is loaded into the running kernel for another root');
    });

    it('should leave the sandbox unprivileged where user namespaces work, and install no profile without AppArmor', () => {
      prepareRoot();
      stubTools(true, false);
      run(deb!.afterInstall);
      assert.equal(statSync(join(appDir(), 'chrome-sandbox')).mode & 0o7777, 0o755);
      assert.equal(existsSync(join(root, 'etc/apparmor.d/tandem-app')), false);
    });

    it('should take the link and the profile away on removal, and leave a link that is not ours', () => {
      prepareRoot();
      stubTools(false, true);
      run(deb!.afterInstall);
      run(deb!.afterRemove);
      assert.equal(existsSync(join(root, 'etc/apparmor.d/tandem-app')), false, 'profile removed');
      assert.throws(() => lstatSync(join(root, 'usr/bin/tandem')), 'link removed');

      symlinkSync('/usr/local/lib/other/tandem', join(root, 'usr/bin/tandem'));
      run(deb!.afterRemove);
      assert.equal(readlinkSync(join(root, 'usr/bin/tandem')), '/usr/local/lib/other/tandem', 'another program’s tandem is left alone');
    });
  });

  it('should not claim a universal macOS build: npm installs one arch of koffi and sharp, so one half would lack them', () => {
    const arches = config.mac.target.flatMap((target) => (typeof target === 'string' ? [] : [target.arch ?? []].flat()));
    assert.ok(!arches.includes('universal'), `mac targets: ${JSON.stringify(config.mac.target)}`);
    assert.ok(!('universal' in (config.mac as Record<string, unknown>)) && !('x64ArchFiles' in (config.mac as Record<string, unknown>)), 'no universal merge options');
  });

  it('should let an unsigned macOS build load its native modules', () => {
    const entitlements = readFileSync(join(ROOT, config.mac.entitlements), 'utf8');
    assert.match(entitlements, /com\.apple\.security\.cs\.disable-library-validation<\/key>\s*<true\/>/);
    assert.match(entitlements, /com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/);
  });
});
