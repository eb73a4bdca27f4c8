// yelp (GTK 3) draws its page with WebKitGTK in another process, embedded under its frame through
// AT-SPI's socket and plug. The page's heading and links must be in the app's tree, on screen,
// and a link clicked by element must show the next page in the answer's diff (before the reader
// followed embeds the tree held the toolbar only and such a click answered "no changes").
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { McpSession, eventually } from '../support/e2eHarness.js';

const YELP = '/usr/bin/yelp';

describe('yelp (a WebKitGTK page in another process) through a real MCP client', { skip: !existsSync(YELP) && 'yelp is not installed', timeout: 180_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let pid: number;

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
    pid = (await server.callOk('launch_app', { name: 'yelp' })).structured.pid as number;
  });
  after(async () => {
    await server?.close();
    await desktop?.stop();
  });

  test('the start page is in the tree and a link clicked by element shows the next page in the diff', async () => {
    // The web process loads the start page a moment after the window maps.
    const tree = await eventually(
      async () => {
        const text = readFileSync((await server.callOk('get_window_state', { pid })).structured.file as string, 'utf8');
        return /\[Link\] "Calculator Help".* visible/.test(text) ? text : undefined;
      },
      20_000,
      'the start page\'s "Calculator Help" link in the tree',
    );
    assert.match(tree, /\[Heading\] "All Help Documents" x:\d+ y:\d+ w:\d+ h:\d+ visible/, 'the page heading is in the tree, on screen');
    assert.match(tree, /\[Link\] "Zenity Manual" x:\d+ y:\d+ w:\d+ h:\d+ visible/, 'every link of the page is in the tree');
    const link = /^#(\d+) \[Link\] "Calculator Help"/m.exec(tree);
    assert.ok(link, `the link has an element index: ${tree}`);

    const clicked = await server.callOk('click', { pid, element_index: Number(link[1]) });
    const diff = readFileSync(clicked.structured.file as string, 'utf8');
    assert.match(diff, /^\+ #\d+ \[Heading\] "Calculator Help"/m, `the answer's diff shows the new page's heading: ${diff}`);
    assert.match(diff, /^- \[Heading\] "All Help Documents"/m, `the answer's diff shows the start page gone: ${diff}`);
  });
});
