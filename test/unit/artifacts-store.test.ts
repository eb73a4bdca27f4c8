import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ArtifactStore, defaultArtifactsDir } from '../../src/core/artifacts/artifacts.js';
import { CROSSHAIR_RGB, SECURE_FILL } from '../../src/core/artifacts/crosshair.js';
import { isTandemError } from '../../src/core/errors.js';
import type { Screenshot } from '../../src/core/model.js';

async function scratch(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-artifacts-test-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function clock(start = 1_700_000_000_000): { now: () => number; set: (ms: number) => void } {
  let ms = start;
  return {
    now: () => ms,
    set: (value) => {
      ms = value;
    },
  };
}

async function whitePng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 255, g: 255, b: 255 } } }).png().toBuffer();
}

async function pixel(png: Buffer, x: number, y: number): Promise<{ r: number; g: number; b: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at], g: data[at + 1], b: data[at + 2] };
}

const mode = async (file: string): Promise<number> => (await stat(file)).mode & 0o777;

test('should create the folder with mode 0700 and write files with mode 0600', async (t) => {
  const dir = path.join(await scratch(t), 'nested', 'artifacts');
  const store = await ArtifactStore.open({ dir, now: clock().now });
  assert.equal(store.dir, dir);
  assert.equal(await mode(dir), 0o700);
  const written = await store.writeCall('click', { text: 'hello\n', screenshot: { png: await whitePng(4, 4), bounds: { x: 0, y: 0, width: 4, height: 4 }, scale: 1 } });
  assert.equal(await mode(written.textPath), 0o600);
  assert.equal(await mode(written.pngPath!), 0o600);
  assert.equal(await readFile(written.textPath, 'utf8'), 'hello\n');
  assert.equal(written.textBytes, 6);
});

test('should tighten a looser mode on a folder we own', async (t) => {
  const dir = path.join(await scratch(t), 'loose');
  await mkdir(dir, { mode: 0o755 });
  await chmod(dir, 0o755);
  await ArtifactStore.open({ dir });
  assert.equal(await mode(dir), 0o700);
});

test('should refuse a folder owned by another user', async (t) => {
  const dir = path.join(await scratch(t), 'foreign');
  await mkdir(dir, { mode: 0o700 });
  const ownUid = (await stat(dir)).uid;
  await assert.rejects(ArtifactStore.open({ dir, uid: ownUid + 4242 }), (error) => isTandemError(error, 'permission') && /belongs to uid/.test(error.message));
});

test('should refuse a folder really chowned to another uid', { skip: process.getuid?.() !== 0 && 'needs root to chown' }, async (t) => {
  const dir = path.join(await scratch(t), 'chowned');
  await mkdir(dir, { mode: 0o700 });
  await chown(dir, 54321, 54321);
  await assert.rejects(ArtifactStore.open({ dir }), (error) => isTandemError(error, 'permission') && /uid 54321/.test(error.message));
});

test('should refuse a folder that is a symlink', async (t) => {
  const root = await scratch(t);
  await mkdir(path.join(root, 'elsewhere'), { mode: 0o700 });
  await symlink(path.join(root, 'elsewhere'), path.join(root, 'artifacts'));
  await assert.rejects(ArtifactStore.open({ dir: path.join(root, 'artifacts') }), (error) => isTandemError(error, 'permission') && /symbolic link/.test(error.message));
});

test('should take the folder from TANDEM_ARTIFACTS_DIR and default to the runtime dir', async (t) => {
  const root = await scratch(t);
  const fromEnv = await ArtifactStore.open({ env: { TANDEM_ARTIFACTS_DIR: path.join(root, 'from-env') } });
  assert.equal(fromEnv.dir, path.join(root, 'from-env'));
  assert.equal(defaultArtifactsDir({ XDG_RUNTIME_DIR: root }, 1000), path.join(root, 'tandem', 'artifacts'));
  assert.equal(defaultArtifactsDir({ XDG_RUNTIME_DIR: path.join(root, 'missing') }, 1000), path.join(os.tmpdir(), 'tandem-1000', 'artifacts'));
  assert.equal(defaultArtifactsDir({}, 1000), path.join(os.tmpdir(), 'tandem-1000', 'artifacts'));
  const store = await ArtifactStore.open({ env: { XDG_RUNTIME_DIR: root } });
  assert.equal(store.dir, path.join(root, 'tandem', 'artifacts'));
  assert.equal(await mode(path.join(root, 'tandem')), 0o700);
});

test('should name files <ms>_<tool> with the same base for .txt and .png', async (t) => {
  const time = clock(1_700_000_000_123);
  const store = await ArtifactStore.open({ dir: await scratch(t), now: time.now });
  const written = await store.writeCall('set value/../x', { text: 'diff', screenshot: { png: await whitePng(2, 2), bounds: { x: 0, y: 0, width: 2, height: 2 }, scale: 1 } });
  assert.equal(path.basename(written.textPath), '1700000000123_set-value-x.txt');
  assert.equal(path.basename(written.pngPath!), '1700000000123_set-value-x.png');
});

test('should give same-millisecond calls a counter suffix', async (t) => {
  const store = await ArtifactStore.open({ dir: await scratch(t), now: clock(1_700_000_000_000).now });
  const names = [];
  for (let i = 0; i < 3; i++) names.push(path.basename((await store.writeCall('click', { text: String(i) })).textPath));
  assert.deepEqual(names, ['1700000000000_click.txt', '1700000000000-2_click.txt', '1700000000000-3_click.txt']);
});

test('should never follow a symlink planted under the next file name', async (t) => {
  const root = await scratch(t);
  const dir = path.join(root, 'artifacts');
  const store = await ArtifactStore.open({ dir, now: clock(1_700_000_000_000).now });
  const victim = path.join(root, 'victim.txt');
  await writeFile(victim, 'keep me');
  await symlink(victim, path.join(dir, '1700000000000_click.txt'));
  const written = await store.writeCall('click', { text: 'tree' });
  assert.equal(path.basename(written.textPath), '1700000000000-2_click.txt');
  assert.equal(await readFile(victim, 'utf8'), 'keep me');
  assert.ok((await lstat(path.join(dir, '1700000000000_click.txt'))).isSymbolicLink());
});

test('should draw the crosshair at the screen point mapped through bounds and scale', async (t) => {
  const store = await ArtifactStore.open({ dir: await scratch(t), now: clock().now });
  // The image covers screen points (100,50)-(200,100) at 2 pixels per point: 200×100 pixels.
  const screenshot: Screenshot = { png: await whitePng(200, 100), bounds: { x: 100, y: 50, width: 100, height: 50 }, scale: 2 };
  const written = await store.writeCall('click', { text: '', screenshot, crosshair: { x: 150, y: 70 } });
  const png = await readFile(written.pngPath!);
  const centre = await pixel(png, 100, 40); // ((150-100)*2, (70-50)*2)
  const near = (a: number, b: number): boolean => Math.abs(a - b) <= 30;
  assert.ok(near(centre.r, CROSSHAIR_RGB.r) && near(centre.g, CROSSHAIR_RGB.g) && near(centre.b, CROSSHAIR_RGB.b), JSON.stringify(centre));
  const onArm = await pixel(png, 120, 40);
  assert.ok(onArm.r > 200 && onArm.g < 120 && onArm.b < 80, JSON.stringify(onArm));
  assert.deepEqual(await pixel(png, 10, 10), { r: 255, g: 255, b: 255 });
  assert.deepEqual(await pixel(png, 100, 95), { r: 255, g: 255, b: 255 });
});

test('should draw the crosshair clipped at the image corner', async (t) => {
  const store = await ArtifactStore.open({ dir: await scratch(t), now: clock().now });
  const screenshot: Screenshot = { png: await whitePng(120, 80), bounds: { x: 0, y: 0, width: 120, height: 80 }, scale: 1 };
  const written = await store.writeCall('click', { text: '', screenshot, crosshair: { x: 119.6, y: 79.2 } });
  const png = await readFile(written.pngPath!);
  const { width, height } = await sharp(png).metadata();
  assert.deepEqual({ width, height }, { width: 120, height: 80 });
  const corner = await pixel(png, 119, 79);
  assert.ok(corner.r > 200 && corner.g < 120 && corner.b < 80, JSON.stringify(corner));
  assert.deepEqual(await pixel(png, 0, 0), { r: 255, g: 255, b: 255 });
});

test('should leave the screenshot untouched when the point is outside it', async (t) => {
  const store = await ArtifactStore.open({ dir: await scratch(t), now: clock().now });
  const original = await whitePng(50, 50);
  const written = await store.writeCall('click', { text: '', screenshot: { png: original, bounds: { x: 0, y: 0, width: 50, height: 50 }, scale: 1 }, crosshair: { x: 400, y: 10 } });
  assert.deepEqual(await readFile(written.pngPath!), original);
});

test('should paint password fields over in the screenshot, raw or PNG, and leave the rest and the capture alone', async (t) => {
  const store = await ArtifactStore.open({ dir: await scratch(t), now: clock().now });
  const field = { x: 110, y: 60, width: 20, height: 5 }; // screen points → pixels (20,20)-(60,30) at scale 2
  const grey = { r: SECURE_FILL, g: SECURE_FILL, b: SECURE_FILL };
  // BGRX raw pixels, as X11 gives them: a white window.
  const data = Buffer.alloc(200 * 100 * 4, 0xff);
  const raw: Screenshot = { raw: { data, width: 200, height: 100, order: 'bgrx' }, bounds: { x: 100, y: 50, width: 100, height: 50 }, scale: 2 };
  const fromRaw = await readFile((await store.writeCall('click', { text: '', screenshot: raw, covered: [field] })).pngPath!);
  assert.deepEqual(await pixel(fromRaw, 20, 20), grey);
  assert.deepEqual(await pixel(fromRaw, 59, 29), grey);
  assert.deepEqual(await pixel(fromRaw, 60, 30), { r: 255, g: 255, b: 255 }, 'just outside stays as it was');
  assert.deepEqual(await pixel(fromRaw, 19, 20), { r: 255, g: 255, b: 255 });
  // RGBA raw pixels (macOS): the caller's buffer is not painted into.
  const rgba = Buffer.alloc(200 * 100 * 4, 0xff);
  const fromRgba = await readFile((await store.writeCall('click', { text: '', screenshot: { ...raw, raw: { data: rgba, width: 200, height: 100, order: 'rgba' } }, covered: [field] })).pngPath!);
  assert.deepEqual(await pixel(fromRgba, 30, 25), grey);
  assert.ok(rgba.every((byte) => byte === 0xff), 'the capture itself is untouched');
  // A PNG from the platform, with the crosshair elsewhere.
  const fromPng = await readFile((await store.writeCall('click', { text: '', screenshot: { png: await whitePng(200, 100), bounds: raw.bounds, scale: 2 }, crosshair: { x: 180, y: 90 }, covered: [field] })).pngPath!);
  assert.deepEqual(await pixel(fromPng, 40, 25), grey);
  assert.deepEqual(await pixel(fromPng, 10, 90), { r: 255, g: 255, b: 255 });
});

test('should keep at most maxCalls calls, deleting the oldest first', async (t) => {
  const dir = await scratch(t);
  const time = clock(1_700_000_000_000);
  const store = await ArtifactStore.open({ dir, now: time.now, maxCalls: 3 });
  await writeFile(path.join(dir, 'README-not-ours.txt'), 'stay');
  for (let i = 0; i < 5; i++) {
    time.set(1_700_000_000_000 + i);
    await store.writeCall('click', { text: `call ${i}`, screenshot: i === 0 ? { png: await whitePng(2, 2), bounds: { x: 0, y: 0, width: 2, height: 2 }, scale: 1 } : undefined });
  }
  assert.deepEqual((await readdir(dir)).sort(), ['1700000000002_click.txt', '1700000000003_click.txt', '1700000000004_click.txt', 'README-not-ours.txt']);
});

test('should keep the folder under maxBytes, deleting the oldest first', async (t) => {
  const dir = await scratch(t);
  const time = clock(1_700_000_000_000);
  const store = await ArtifactStore.open({ dir, now: time.now, maxBytes: 2500 });
  for (let i = 0; i < 4; i++) {
    time.set(1_700_000_000_000 + i * 10);
    await store.writeCall('type', { text: 'x'.repeat(1000) });
  }
  assert.deepEqual((await readdir(dir)).sort(), ['1700000000020_type.txt', '1700000000030_type.txt']);
  // A single call bigger than the limit is still kept: it is the answer the model is about to read.
  time.set(1_700_000_001_000);
  const big = await store.writeCall('refresh', { text: 'y'.repeat(5000) });
  assert.deepEqual(await readdir(dir), [path.basename(big.textPath)]);
});

test('should count calls other writers left in the folder when it prunes', async (t) => {
  const dir = await scratch(t);
  const time = clock(1_700_000_000_000);
  const tick = (): void => time.set(time.now() + 1);
  const app = await ArtifactStore.open({ dir, now: time.now, maxCalls: 100 });
  const shell = await ArtifactStore.open({ dir, now: time.now, maxCalls: 100 });
  for (let i = 0; i < 6; i++) {
    tick();
    await (i % 2 ? shell : app).writeCall(i % 2 ? 'shell' : 'app', { text: String(i) });
  }
  tick();
  const fresh = await ArtifactStore.open({ dir, now: time.now, maxCalls: 3 });
  const last = await fresh.writeCall('refresh', { text: 'latest' });
  assert.deepEqual((await readdir(dir)).sort(), ['1700000000005_app.txt', '1700000000006_shell.txt', path.basename(last.textPath)].sort());
});
