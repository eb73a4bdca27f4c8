// The artifacts folder: one `.txt` (tree or diff) and optionally one `.png` (screenshot with a
// crosshair at the click point) per tool call, named `<ms-timestamp>_<tool>` so a listing sorts
// by time. Same-millisecond calls get a counter: `<ms>-2_<tool>`.
//
// Privacy: the folder is per user, mode 0700, and refused when it is a symlink or owned by someone
// else (a shared /tmp is the usual place for such a trap). Files are created 0600 with O_EXCL
// ('wx'), so a symlink planted under the next name is never followed.
//
// Retention: after each write the oldest calls are deleted until at most `maxCalls` calls and
// `maxBytes` bytes remain (defaults DEFAULT_MAX_CALLS = 500, DEFAULT_MAX_BYTES = 200 MiB). Only
// files following our naming pattern are ever deleted, and never the call just written.

import { constants, existsSync, statSync } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TandemError } from '../errors.js';
import type { Point, Rect, Screenshot } from '../model.js';
import { pngWithCrosshair } from './crosshair.js';

export const DEFAULT_MAX_CALLS = 500;
export const DEFAULT_MAX_BYTES = 200 * 1024 * 1024;

export interface ArtifactStoreOptions {
  dir?: string;
  maxCalls?: number;
  maxBytes?: number;
  /** Read at every prune, when maxCalls/maxBytes are not given (the person's settings). */
  retention?: () => { maxCalls: number; maxBytes: number };
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /** The uid that must own the folder (tests); defaults to the process's own. */
  uid?: number;
}

/** One file of the folder, as resources/list shows it. */
export interface ArtifactFile {
  name: string;
  kind: 'text' | 'png';
  bytes: number;
  /** When the call that wrote it started (epoch ms, from its name). */
  ms: number;
}

/**
 * A file is read whole into memory for resources/read: far above any tree or screenshot we
 * write (a 10,000-element tree is ~1.5 MB), so only a file someone else put there is refused.
 */
export const MAX_ARTIFACT_READ_BYTES = 64 * 1024 * 1024;

export interface WrittenCall {
  textPath: string;
  textBytes: number;
  pngPath?: string;
}

/** `$XDG_RUNTIME_DIR/tandem/artifacts` when that runtime dir exists, else `<tmpdir>/tandem-<uid>/artifacts`. */
export function defaultArtifactsDir(env: NodeJS.ProcessEnv, uid: number): string {
  return path.join(defaultTandemRoot(env, uid), 'artifacts');
}

function defaultTandemRoot(env: NodeJS.ProcessEnv, uid: number): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && path.isAbsolute(runtime) && isDirectory(runtime)) return path.join(runtime, 'tandem');
  return path.join(os.tmpdir(), `tandem-${uid}`);
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function processUid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : 0;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Creates `dir` (mode 0700) or checks the existing one: not a symlink, a directory, owned by
 * `uid`; a looser mode on our own folder is tightened to 0700. Parents are created if missing
 * but not checked (they may be shared, like /tmp).
 */
export async function ensurePrivateDir(dir: string, uid: number): Promise<void> {
  await mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
  const info = await lstat(dir);
  if (info.isSymbolicLink()) {
    throw new TandemError('permission', `Refusing to use ${dir}: it is a symbolic link.`, { reason: 'artifacts-dir', dir });
  }
  if (!info.isDirectory()) {
    throw new TandemError('permission', `Refusing to use ${dir}: it is not a directory.`, { reason: 'artifacts-dir', dir });
  }
  if (info.uid !== uid) {
    throw new TandemError(
      'permission',
      `Refusing to use ${dir}: it belongs to uid ${info.uid}, not to you (uid ${uid}); another user could read or plant files there.`,
      { reason: 'artifacts-dir', dir },
    );
  }
  if ((info.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** Tool names become file-name safe: letters, digits, '-' and '_' only, at most 40 characters. */
export function safeToolName(tool: string): string {
  const cleaned = tool.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  return cleaned || 'call';
}

const CALL_FILE = /^(\d+)(?:-(\d+))?_[A-Za-z0-9_-]+\.(txt|png)$/;

/**
 * The folder is rescanned every this many writes: the in-memory inventory keeps each write cheap
 * (no listing of ~1,000 files), the rescan picks up what other writers (a `tandem call` from a
 * shell beside the app) added or removed meanwhile.
 */
const RESCAN_EVERY = 50;

interface CallFiles {
  base: string;
  ms: number;
  seq: number;
  /** Each file's name and size (as scanned, or as written). */
  files: Map<string, number>;
  bytes: number;
}

export class ArtifactStore {
  readonly dir: string;
  private readonly retention: () => { maxCalls: number; maxBytes: number };
  private readonly now: () => number;
  /** Who must own the folder and every file read from it. */
  private readonly uid: number;
  /** Calls in the folder, oldest first: as last scanned, plus what this store wrote since. */
  private inventory: CallFiles[] | null = null;
  private writesSinceScan = 0;

  private constructor(dir: string, options: ArtifactStoreOptions) {
    this.dir = dir;
    const retention = options.retention ?? (() => ({ maxCalls: DEFAULT_MAX_CALLS, maxBytes: DEFAULT_MAX_BYTES }));
    this.retention = () => {
      const current = retention();
      return { maxCalls: options.maxCalls ?? current.maxCalls, maxBytes: options.maxBytes ?? current.maxBytes };
    };
    this.now = options.now ?? Date.now;
    this.uid = options.uid ?? processUid();
  }

  /** Resolves the folder (options.dir, else $TANDEM_ARTIFACTS_DIR, else the default) and secures it. */
  static async open(options: ArtifactStoreOptions = {}): Promise<ArtifactStore> {
    const env = options.env ?? process.env;
    const uid = options.uid ?? processUid();
    const chosen = options.dir ?? env.TANDEM_ARTIFACTS_DIR;
    let dir: string;
    if (chosen) {
      dir = path.resolve(chosen);
    } else {
      // Both levels of the default layout are ours: check the tandem root as well.
      const root = defaultTandemRoot(env, uid);
      if (!existsSync(path.dirname(root))) {
        throw new TandemError('permission', `The folder ${path.dirname(root)} does not exist.`, { reason: 'artifacts-dir', dir: path.dirname(root) });
      }
      await ensurePrivateDir(root, uid);
      dir = path.join(root, 'artifacts');
    }
    await ensurePrivateDir(dir, uid);
    return new ArtifactStore(dir, options);
  }

  /**
   * Writes one call's text (and screenshot, with a crosshair at `crosshair` when it falls inside
   * the image and `covered` — password fields — painted over, or `png` when the caller encoded it
   * already), then prunes old calls. The text must already be free of secure values.
   */
  async writeCall(tool: string, content: { text: string; screenshot?: Screenshot; crosshair?: Point; covered?: readonly Rect[]; png?: Buffer }): Promise<WrittenCall> {
    const textData = Buffer.from(content.text, 'utf8');
    const { base, textPath, ms, seq } = await this.createTextFile(safeToolName(tool), textData);
    const written: CallFiles = { base, ms, seq, files: new Map([[path.basename(textPath), textData.length]]), bytes: textData.length };
    let pngPath: string | undefined;
    if (content.png || content.screenshot) {
      const png = content.png ?? (await pngWithCrosshair(content.screenshot!, content.crosshair, content.covered));
      pngPath = path.join(this.dir, `${base}.png`);
      await writeExclusive(pngPath, png);
      written.files.set(path.basename(pngPath), png.length);
      written.bytes += png.length;
    }
    await this.prune(written);
    return { textPath, textBytes: textData.length, pngPath };
  }

  /** The folder's files, newest call first (its .txt before its .png), at most `limit`. */
  async listFiles(limit = Number.POSITIVE_INFINITY): Promise<ArtifactFile[]> {
    const calls = (await this.scan()).reverse();
    const files: ArtifactFile[] = [];
    for (const call of calls) {
      for (const [name, bytes] of [...call.files].sort(([a], [b]) => Number(a.endsWith('.png')) - Number(b.endsWith('.png')))) {
        if (files.length >= limit) return files;
        files.push({ name, kind: name.endsWith('.png') ? 'png' : 'text', bytes, ms: call.ms });
      }
    }
    return files;
  }

  /**
   * One file of the folder by its name (what a tool's answer named). Only names following our
   * pattern, only regular files owned by the folder's owner, never through a symlink: the folder
   * is private, but a name comes from the client.
   */
  async readFile(name: string): Promise<Buffer> {
    if (!CALL_FILE.test(name)) throw new TandemError('bad-input', `"${name.slice(0, 80)}" is not the name of a Tandem artifact.`, { name: name.slice(0, 80) });
    let handle;
    try {
      handle = await open(path.join(this.dir, name), constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw new TandemError('not-found', `${name} is not in the artifacts folder (pruned, or never written).`, { name, reason: 'missing' });
      if (errorCode(error) === 'ELOOP') throw new TandemError('permission', `${name} is a symbolic link; Tandem never follows one in its folder.`, { name, reason: 'symlink' });
      throw error;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.uid !== this.uid || info.size > MAX_ARTIFACT_READ_BYTES) {
        throw new TandemError('permission', `${name} is not a file Tandem wrote (not a regular file of yours, or over ${MAX_ARTIFACT_READ_BYTES} bytes).`, { name, reason: 'foreign' });
      }
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /** Claims a fresh base name by creating its .txt exclusively; bumps a counter on collision. */
  private async createTextFile(tool: string, data: Buffer): Promise<{ base: string; textPath: string; ms: number; seq: number }> {
    const ms = Math.floor(this.now());
    for (let seq = 1; seq < 1000; seq++) {
      const base = seq === 1 ? `${ms}_${tool}` : `${ms}-${seq}_${tool}`;
      const textPath = path.join(this.dir, `${base}.txt`);
      // The .png of a base is claimed with its .txt: skip bases whose .png is somehow taken.
      if (existsSync(path.join(this.dir, `${base}.png`))) continue;
      try {
        await writeExclusive(textPath, data);
        return { base, textPath, ms, seq };
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
    }
    throw new TandemError('internal', `Could not find a free artifact name for ${ms}_${tool} in ${this.dir}.`);
  }

  /** The retention limits now (they may change between calls). */
  get maxCalls(): number {
    return this.retention().maxCalls;
  }

  get maxBytes(): number {
    return this.retention().maxBytes;
  }

  /** Deletes the oldest calls beyond maxCalls / maxBytes; never the call just written. */
  private async prune(written: CallFiles): Promise<void> {
    if (!this.inventory || this.writesSinceScan >= RESCAN_EVERY) {
      this.inventory = await this.scan(); // includes the call just written
      this.writesSinceScan = 0;
    } else {
      insertByAge(this.inventory, written);
      this.writesSinceScan++;
    }
    const inventory = this.inventory;
    const { maxCalls, maxBytes } = this.retention();
    let bytes = inventory.reduce((sum, call) => sum + call.bytes, 0);
    for (let k = 0; k < inventory.length && (inventory.length > maxCalls || bytes > maxBytes); ) {
      const call = inventory[k];
      if (call.base === written.base) {
        k++;
        continue;
      }
      for (const name of call.files.keys()) {
        try {
          await unlink(path.join(this.dir, name));
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error; // already pruned by another writer
        }
      }
      inventory.splice(k, 1);
      bytes -= call.bytes;
    }
  }

  /** Every call in the folder (files following our naming pattern only), oldest first. */
  private async scan(): Promise<CallFiles[]> {
    const calls = new Map<string, CallFiles>();
    for (const name of await readdir(this.dir)) {
      const match = CALL_FILE.exec(name);
      if (!match) continue;
      const base = name.slice(0, name.lastIndexOf('.'));
      let call = calls.get(base);
      if (!call) {
        call = { base, ms: Number(match[1]), seq: match[2] ? Number(match[2]) : 1, files: new Map(), bytes: 0 };
        calls.set(base, call);
      }
      try {
        const info = await lstat(path.join(this.dir, name));
        call.files.set(name, info.size);
        call.bytes += info.size;
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error; // pruned meanwhile by another writer
      }
    }
    return [...calls.values()].sort(byAge);
  }
}

function byAge(a: CallFiles, b: CallFiles): number {
  return a.ms - b.ms || a.seq - b.seq || a.base.localeCompare(b.base);
}

/** Inserts `call` into the oldest-first list (normally at the end: it is the newest). */
function insertByAge(list: CallFiles[], call: CallFiles): void {
  let at = list.length;
  while (at > 0 && byAge(list[at - 1], call) > 0) at--;
  list.splice(at, 0, call);
}

/** Creates `file` with mode 0600, failing (EEXIST) rather than following anything already there. */
async function writeExclusive(file: string, data: Buffer): Promise<void> {
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}

/** What the engine needs of an artifact store: writing a call's files, and listing/reading them where it can. */
export type ArtifactWriter = Pick<ArtifactStore, 'writeCall'> & Partial<Pick<ArtifactStore, 'listFiles' | 'readFile'>>;

/** A ready writer (tests, the app) rather than the options to build the default store from. */
export function isArtifactWriter(value: ArtifactWriter | ArtifactStoreOptions): value is ArtifactWriter {
  return typeof (value as Partial<ArtifactStore>).writeCall === 'function';
}
