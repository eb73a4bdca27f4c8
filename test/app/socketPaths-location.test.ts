// Where the socket lives, and the checks on its folder.

import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ensurePrivateDirectory, socketDirectory, socketPath } from '../../src/launcher/socketPaths.js';

describe('socket location', () => {
  it('should use a per-user folder on each platform, and TANDEM_SOCKET_DIR when set', () => {
    assert.equal(socketPath({ XDG_RUNTIME_DIR: '/run/user/1000' }, 'linux'), '/run/user/1000/tandem/tandem.sock');
    assert.equal(socketDirectory({}, 'linux'), join(tmpdir(), `tandem-${userInfo().uid}`));
    assert.equal(socketDirectory({ TMPDIR: '/var/folders/xy/T/' }, 'darwin'), '/var/folders/xy/T/tandem');
    assert.equal(socketDirectory({ TANDEM_SOCKET_DIR: '/tmp/mine', XDG_RUNTIME_DIR: '/run/user/1000' }, 'linux'), '/tmp/mine');
  });

  it('should create the folder 0700, tighten a loose one, and refuse a symlink', async () => {
    const base = await mkdtemp(join(tmpdir(), 'tandem-paths-'));
    const fresh = join(base, 'fresh');
    await ensurePrivateDirectory(fresh);
    assert.equal((await stat(fresh)).mode & 0o777, 0o700);

    const loose = join(base, 'loose');
    await mkdir(loose);
    await chmod(loose, 0o755);
    await ensurePrivateDirectory(loose);
    assert.equal((await stat(loose)).mode & 0o777, 0o700);

    const link = join(base, 'link');
    await symlink(fresh, link);
    await assert.rejects(ensurePrivateDirectory(link), /is not a directory/);
    await rm(base, { recursive: true, force: true });
  });
});
