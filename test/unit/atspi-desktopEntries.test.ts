import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applicationDirs,
  findDesktopEntry,
  isInstanceOf,
  loadDesktopEntries,
  parseDesktopEntry,
  parseExecLine,
  programName,
  resolveLaunchTarget,
} from '../../src/backends/linux/linuxApps.js';

test('should drop Exec field codes and keep quoted arguments', () => {
  assert.deepEqual(parseExecLine('mousepad %U'), ['mousepad']);
  assert.deepEqual(parseExecLine('gimp-2.10 %f --new-instance'), ['gimp-2.10', '--new-instance']);
  assert.deepEqual(parseExecLine('"/opt/My App/run" --title "%c" --file=%k %i', { name: 'My App', path: '/x/my.desktop', icon: 'myicon' }), [
    '/opt/My App/run',
    '--title',
    'My App',
    '--file=/x/my.desktop',
    '--icon',
    'myicon',
  ]);
  assert.deepEqual(parseExecLine('sh -c "echo \\"hi\\" 100%%"'), ['sh', '-c', 'echo "hi" 100%']);
  assert.deepEqual(parseExecLine('app --url=%u'), ['app', '--url=']);
});

test('should read the Desktop Entry group only', () => {
  const entry = parseDesktopEntry(
    '[Desktop Entry]\nName=Mousepad\nName[de]=Maus\nExec=mousepad %U\nType=Application\nStartupWMClass=Mousepad\n\n[Desktop Action new]\nName=New Window\nExec=mousepad --new\n',
    'org.xfce.mousepad.desktop',
    '/usr/share/applications/org.xfce.mousepad.desktop',
  );
  assert.equal(entry?.name, 'Mousepad');
  assert.equal(entry?.exec, 'mousepad %U');
  assert.equal(entry?.wmClass, 'Mousepad');
  assert.equal(parseDesktopEntry('[Desktop Entry]\nName=Link\nType=Link\nURL=x\n', 'l.desktop', '/l'), null);
});

test('should look entries up by id, by Name and by the last part of a reverse-DNS id', () => {
  const entry = (id: string, name: string) => ({ id, name, path: `/a/${id}`, exec: 'x', hidden: false });
  const entries = [entry('org.xfce.mousepad.desktop', 'Mousepad'), entry('gtk3-widget-factory.desktop', 'Widget Factory')];
  assert.equal(findDesktopEntry(entries, 'org.xfce.mousepad')?.name, 'Mousepad');
  assert.equal(findDesktopEntry(entries, 'gtk3-widget-factory.desktop')?.name, 'Widget Factory');
  assert.equal(findDesktopEntry(entries, 'widget factory')?.id, 'gtk3-widget-factory.desktop');
  assert.equal(findDesktopEntry(entries, 'mousepad')?.id, 'org.xfce.mousepad.desktop');
  assert.equal(findDesktopEntry(entries, 'gedit'), null);
});

test('should prefer XDG_DATA_HOME over XDG_DATA_DIRS and resolve names, PATH and absolute paths', async () => {
  const root = mkdtempSync(join(tmpdir(), 'tandem-apps-'));
  try {
    const home = join(root, 'home-data');
    const system = join(root, 'system');
    const bin = join(root, 'bin');
    for (const dir of [join(home, 'applications'), join(system, 'applications/sub'), bin]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(system, 'applications/editor.desktop'), '[Desktop Entry]\nType=Application\nName=Editor\nExec=system-editor %F\n');
    writeFileSync(join(home, 'applications/editor.desktop'), '[Desktop Entry]\nType=Application\nName=My Editor\nExec=my-editor %F\n');
    writeFileSync(join(system, 'applications/sub/tool.desktop'), '[Desktop Entry]\nType=Application\nName=Tool\nExec=/usr/bin/python3 /opt/tool.py\n');
    writeFileSync(join(system, 'applications/gone.desktop'), '[Desktop Entry]\nType=Application\nName=Gone\nExec=gone\nHidden=true\n');
    writeFileSync(join(bin, 'hello-app'), '#!/bin/sh\n');
    chmodSync(join(bin, 'hello-app'), 0o755);
    const env = { XDG_DATA_HOME: home, XDG_DATA_DIRS: system, PATH: bin };

    assert.deepEqual(applicationDirs(env), [join(home, 'applications'), join(system, 'applications')]);
    const entries = await loadDesktopEntries(env);
    assert.deepEqual(entries.map((entry) => entry.id).sort(), ['editor.desktop', 'sub-tool.desktop']);
    assert.equal(entries.find((entry) => entry.id === 'editor.desktop')?.name, 'My Editor');

    const tool = await resolveLaunchTarget('tool', env);
    assert.deepEqual(tool?.argv, ['/usr/bin/python3', '/opt/tool.py']);
    assert.ok(tool?.matchNames.includes('tool.py'));
    const onPath = await resolveLaunchTarget('hello-app', env);
    assert.deepEqual(onPath?.argv, [join(bin, 'hello-app')]);
    assert.deepEqual((await resolveLaunchTarget(join(bin, 'hello-app'), env))?.argv, [join(bin, 'hello-app')]);
    assert.equal(await resolveLaunchTarget('no-such-app', env), null);
    assert.equal(await resolveLaunchTarget('gone', env), null);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('should recognise a running instance by program, name or id but not by its interpreter', async () => {
  assert.equal(programName(['/usr/bin/python3', '-u', '/opt/tool.py']), 'tool.py');
  assert.equal(programName(['env', 'A=1', 'mousepad']), 'mousepad');
  const target = { argv: ['mousepad'], name: 'Mousepad', id: 'org.xfce.mousepad', matchNames: ['mousepad', 'org.xfce.mousepad'], source: 'test' };
  assert.ok(isInstanceOf({ name: 'mousepad', id: 'mousepad' }, target));
  assert.ok(!isInstanceOf({ name: 'gtk3-widget-factory', id: 'gtk3-widget-factory' }, target));
});
