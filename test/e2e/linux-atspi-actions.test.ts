// Element actions and settling over AT-SPI, checked against what the fixture app itself reports
// on stdout (one JSON event per line), not only against Tandem's own tree.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, test } from 'node:test';
import type { SnapshotLimits } from '../../src/core/desktop.js';
import { isTandemError } from '../../src/core/errors.js';
import type { ElementNode, TreeSnapshot } from '../../src/core/model.js';
import { createProgress } from '../../src/core/progress.js';
import { AtspiAccessibility } from '../../src/backends/linux/atspiAccessibility.js';
import { ensureDesktopPackages, startVirtualDesktop, type VirtualDesktop } from '../../scripts/lib/virtualDesktop.js';

const LIMITS: SnapshotLimits = { maxDepth: 60, maxElements: 5000, maxMs: 5000 };

interface FixtureEvent {
  event: string;
  value?: number;
  text?: string;
  item?: string;
}

let desktop: VirtualDesktop;
let accessibility: AtspiAccessibility;
let fixture: ChildProcess;
const events: FixtureEvent[] = [];

const progress = (timeoutMs = 10_000) => createProgress({ timeoutMs });

before(async () => {
  ensureDesktopPackages();
  desktop = await startVirtualDesktop();
  accessibility = await AtspiAccessibility.connect({ env: desktop.env });
  fixture = desktop.spawnApp('/usr/bin/python3', ['test/fixtures/tandem_fixture.py']);
  let buffered = '';
  fixture.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line.trim()) events.push(JSON.parse(line) as FixtureEvent);
  });
  await waitForEvent((event) => event.event === 'ready');
});

after(async () => {
  await accessibility?.close();
  await desktop?.stop();
});

async function waitForEvent(match: (event: FixtureEvent) => boolean): Promise<FixtureEvent> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = events.find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the fixture never reported the expected event; it reported ${JSON.stringify(events)}`);
}

async function snapshot(): Promise<TreeSnapshot> {
  return accessibility.snapshot(fixture.pid!, LIMITS, progress());
}

function element(tree: TreeSnapshot, role: string, text: string | RegExp): ElementNode {
  const found = tree.elements.find((entry) => entry.role === role && (typeof text === 'string' ? entry.text === text : text.test(entry.text)));
  assert.ok(found, `no ${role} "${text}" in ${tree.elements.map((entry) => `${entry.role}:${entry.text}`).join(', ')}`);
  return found;
}

test('should press a button and settle once the app is quiet', { timeout: 60_000 }, async () => {
  const before = await snapshot();
  await accessibility.performAction({ element: element(before, 'PushButton', 'Count: 0'), action: 'press' }, progress());
  assert.equal((await waitForEvent((event) => event.event === 'count')).value, 1);
  assert.equal(await accessibility.waitForQuiet(fixture.pid!, 150, 5000, progress()), 'quiet');
  const after = await snapshot();
  element(after, 'PushButton', 'Count: 1');
});

test('should set the text of an entry', { timeout: 60_000 }, async () => {
  const entry = element(await snapshot(), 'Text', 'Name entry');
  await accessibility.setValue(entry, 'Ada Lovelace', progress());
  assert.equal((await waitForEvent((event) => event.event === 'name' && event.text === 'Ada Lovelace')).text, 'Ada Lovelace');
});

test('should select a list row through its list', { timeout: 60_000 }, async () => {
  const tree = await snapshot();
  const list = element(tree, 'ListBox', 'Items');
  const rows = tree.elements.filter((entry) => entry.parentIndex === list.index);
  assert.ok(rows.length >= 3, 'the list rows are in the tree');
  await accessibility.setSelected(rows[2], true, progress());
  assert.equal((await waitForEvent((event) => event.event === 'selected')).item, 'Item 3');
});

test('should refuse an action the element does not have and report a vanished element as stale', { timeout: 60_000 }, async () => {
  const tree = await snapshot();
  const label = element(tree, 'Label', /^Selected/);
  await assert.rejects(accessibility.performAction({ element: label, action: 'press' }, progress()), (error) => isTandemError(error, 'unsupported'));
  const button = element(tree, 'PushButton', /^Count/);
  const gone = { ...button, handle: { ...(button.handle as object), path: '/org/a11y/atspi/accessible/987654' } };
  await assert.rejects(accessibility.performAction({ element: gone, action: 'press' }, progress()), (error) => isTandemError(error, 'stale-element') && /the element is gone/.test(error.message));
});
