// Where the socket lives, and the checks on its folder.

import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ensurePrivateDirectory, socketDirectory, socketPath } from '../../src/launcher/socket/paths.js';

describe('socket location', () => {
  it('should derive the folder from the user, the same whatever TMPDIR or XDG_RUNTIME_DIR say, and TANDEM_SOCKET_DIR when set', () => {
    const nobodyHasThis = { uid: 987_654, home: '/Users/ada' };
    assert.equal(socketDirectory({}, 'linux', nobodyHasThis), '/tmp/tandem-987654', 'no /run/user/<uid>: /tmp, not $TMPDIR');
    assert.equal(socketDirectory({ TMPDIR: '/elsewhere', XDG_RUNTIME_DIR: '/run/user/1' }, 'linux', nobodyHasThis), '/tmp/tandem-987654');
    assert.equal(socketPath({ TMPDIR: '/var/folders/xy/T/' }, 'darwin', nobodyHasThis), '/Users/ada/Library/Application Support/Tandem/tandem.sock');
    assert.equal(socketDirectory({ TANDEM_SOCKET_DIR: '/tmp/mine', XDG_RUNTIME_DIR: '/run/user/1000' }, 'linux'), '/tmp/mine');
    const me = { uid: userInfo().uid, home: userInfo().homedir };
    const runtime = `/run/user/${me.uid}`;
    const expected = existsSync(runtime) && statSync(runtime).uid === me.uid ? `${runtime}/tandem` : `/tmp/tandem-${me.uid}`;
    assert.equal(socketDirectory({}, 'linux', me), expected);
    assert.equal(socketDirectory({ XDG_RUNTIME_DIR: '/nowhere', TMPDIR: '/nowhere' }, 'linux', me), expected, 'the stripped and the full environment agree');
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
