// The person's word before a consequential press (confirm_before), for real: a click on the GTK
// fixture's "Delete" puts the question on the server-drawn overlay (its label window is named
// after its text), a synthetic Enter from another XTEST client does not answer it, the simulated
// person's Esc on the X server's real keyboard answers `declined` with nothing pressed (the app's
// own log says so), and their Enter lets the press through — by name, element_index and point.
// set_config cannot empty the list.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { XCallback, XTestExtension } from 'x11';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';
import { X11Connection } from '../../native/linux/x11Connection.js';
import { Keymap, NAMED_KEYSYMS } from '../../src/backends/linux/x11Keys.js';
import { FixtureApp, McpSession, centre, delay, eventually, findElement, type ToolResult } from '../support/e2eHarness.js';
import { indexOnLine } from '../support/treeIndex.js';
import { SimulatedHuman } from '../support/simulatedHuman.js';

const QUESTION = /Tandem wants to press "Delete" in .* — Enter to allow, Esc to refuse/;

/** The texts of Tandem's overlay labels on screen: mapped children of the root named (_NET_WM_NAME) after their text. */
async function overlayTexts(connection: X11Connection): Promise<string[]> {
  const [name, utf8] = [await connection.atom('_NET_WM_NAME'), await connection.atom('UTF8_STRING')];
  const tree = await connection.request<{ children: number[] }>((callback) => connection.client.QueryTree(connection.root, callback));
  const texts: string[] = [];
  const client = connection.client as unknown as { GetWindowAttributes(window: number, callback: XCallback<{ mapState: number }>): void };
  for (const window of tree.children) {
    const attributes = await connection.request<{ mapState: number }>((callback) => client.GetWindowAttributes(window, callback)).catch(() => null);
    // A hidden label keeps the name of its last text: only a viewable one (IsViewable, 2) is shown.
    if (attributes?.mapState !== 2) continue;
    const reply = await connection.request<{ data: Buffer }>((callback) => connection.client.GetProperty(0, window, name, utf8, 0, 1024, callback)).catch(() => null);
    const text = reply?.data?.toString('utf8') ?? '';
    if (text.startsWith('Tandem ')) texts.push(text);
  }
  return texts;
}

/** Return pressed and released through the XTEST device: what any program on the display can send, not the person. */
async function syntheticEnter(connection: X11Connection): Promise<void> {
  const xtest = await connection.request<XTestExtension>((callback) => connection.client.require('xtest', callback));
  const { min_keycode: min, max_keycode: max } = connection.display;
  const rows = await connection.request<number[][]>((callback) => connection.client.GetKeyboardMapping(min, max - min + 1, callback));
  const keycode = new Keymap(min, rows).lookup(NAMED_KEYSYMS.return)!.keycode;
  xtest.FakeInput(xtest.KeyPress, keycode, 0, connection.root, 0, 0);
  xtest.FakeInput(xtest.KeyRelease, keycode, 0, connection.root, 0, 0);
  await connection.sync();
}

describe('confirm_before with a person at the keyboard', { timeout: 240_000 }, () => {
  let desktop: VirtualDesktop;
  let server: McpSession;
  let fixture: FixtureApp;
  let human: SimulatedHuman;
  let other: X11Connection;

  const deleted = (): number => fixture.eventsNamed('deleted').length;
  const questionUp = (): Promise<string> =>
    eventually(async () => (await overlayTexts(other)).find((text) => QUESTION.test(text)), 15_000, 'the question on the overlay');
  const treeFile = async (): Promise<string> => (await server.callOk('refresh_traversal', { pid: fixture.pid })).structured.file as string;

  before(async () => {
    ensureDesktopPackages();
    desktop = await startVirtualDesktop();
    server = await McpSession.start(desktop);
    fixture = await FixtureApp.start(desktop, ['--with-delete']);
    human = await SimulatedHuman.connect(desktop.display);
    other = await X11Connection.open(desktop.display);
  });

  after(async () => {
    await other?.close();
    await human?.close();
    await server?.close();
    await desktop?.stop();
  });

  test('should ask before pressing Delete by name, ignore a synthetic Enter, and press nothing on the person\'s Esc', async () => {
    const call: Promise<ToolResult> = server.call('click_and_traverse', { pid: fixture.pid, element: 'Delete', role: 'PushButton' });
    await questionUp();
    await syntheticEnter(other);
    await delay(700);
    assert.ok((await overlayTexts(other)).some((text) => QUESTION.test(text)), 'the question is still up after a synthetic Enter');
    assert.equal(deleted(), 0, 'nothing was pressed');
    await human.pressKey('escape');
    const result = await call;
    assert.equal(result.isError, true, result.text);
    assert.match(result.text, /^error: declined: /m);
    assert.deepEqual(result.structured.confirmed, [{ step: 1, element: '[PushButton] "Delete"', allowed: false, by: 'esc' }]);
    await delay(500);
    assert.equal(deleted(), 0, "the app's log shows no press");
  });

  test("should press Delete by element_index once the person presses Enter, and say so", async () => {
    const index = indexOnLine(readFileSync(await treeFile(), 'utf8'), '[PushButton] "Delete"');
    const call = server.call('click', { pid: fixture.pid, element_index: index });
    await questionUp();
    await human.pressKey('return');
    const result = await call;
    assert.equal(result.isError, false, result.text);
    await fixture.waitForEvent((event) => event.event === 'deleted');
    assert.equal(deleted(), 1);
    assert.match(result.text, /^confirmed: step 1 \[PushButton\] "Delete": the person allowed it/m);
  });

  test('should ask for a click at a point on Delete too: Esc refuses it, Enter lets it through', async () => {
    const point = centre(findElement(await treeFile(), 'Delete', 'PushButton'));
    const refused = server.call('click', { pid: fixture.pid, x: point.x, y: point.y });
    await questionUp();
    await human.pressKey('escape');
    assert.match((await refused).text, /^error: declined: /m);
    const allowed = server.call('click', { pid: fixture.pid, x: point.x, y: point.y });
    await questionUp();
    await human.pressKey('return');
    assert.equal((await allowed).isError, false);
    await eventually(() => (deleted() === 2 ? true : undefined), 5_000, 'the second press');
  });

  test("should ask before an accessibility press of Delete too (element_action): the person's Esc leaves it unpressed", async () => {
    const before = deleted();
    const call = server.call('element_action', { pid: fixture.pid, element: 'Delete', role: 'PushButton' });
    await questionUp();
    await human.pressKey('escape');
    const result = await call;
    assert.match(result.text, /^error: declined: /m);
    await delay(500);
    assert.equal(deleted(), before, "the app's log shows no press");
  });

  test('should refuse set_config of confirm_before and keep the list', async () => {
    const refused = await server.call('set_config', { settings: { confirm_before: [] } });
    assert.equal(refused.isError, true, refused.text);
    assert.match(refused.text, /confirm_before can be changed only by the person/);
    const config = await server.callOk('get_config', {});
    const list = (config.structured.settings as Record<string, { value: unknown }>).confirm_before.value;
    assert.ok(Array.isArray(list) && list.includes('Delete'), JSON.stringify(list));
  });
});
