// Processes an action launched on macOS, from libproc's process table (over the fake binding):
// the app's new descendants and the apps launchd started for this user (LaunchServices), minus
// what shows no window. Then core's own wait (settle.ts waitForLaunches) over the macOS desktop.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appBundleOf, launchCandidates } from '../../src/backends/macos/libprocLaunches.js';
import { MacDesktop } from '../../src/backends/macos/macDesktop.js';
import { createProgress } from '../../src/core/progress.js';
import { DEFAULT_SETTLE, waitForLaunches } from '../../src/core/call/settle.js';
import { FakeMacNative, type FakeProcess } from './mac-fake-native.js';

const ME = 501;
const TEXTEDIT = 420;
const CLICK_AT = 1_700_000_000_000;

function proc(pid: number, ppid: number, startMs: number, extra: Partial<FakeProcess> = {}): FakeProcess {
  return { pid, ppid, uid: ME, comm: `p${pid}`, name: '', startMs, ...extra };
}

/** TextEdit, its old and new children, and what launchd started around the click. */
function table(): FakeProcess[] {
  return [
    proc(1, 0, 0, { uid: 0, comm: 'launchd' }),
    proc(TEXTEDIT, 1, CLICK_AT - 60_000, { path: '/System/Applications/TextEdit.app/Contents/MacOS/TextEdit', activationPolicy: 0, localizedName: 'TextEdit' }),
    proc(430, TEXTEDIT, CLICK_AT - 5_000, { comm: 'old-helper' }), // started before the click
    proc(431, TEXTEDIT, CLICK_AT + 40, { comm: 'dialog-tool', path: '/usr/local/bin/dialog-tool' }), // forked by the click
    proc(432, 430, CLICK_AT + 60, { comm: 'grandchild' }), // a new child of an old helper: still the app's
    proc(433, TEXTEDIT, CLICK_AT + 70, { comm: 'Renderer', path: '/Apps/X.app/Contents/Frameworks/H.app/Contents/MacOS/H', activationPolicy: 2 }), // background-only
    proc(500, 1, CLICK_AT + 120, { path: '/Applications/Safari.app/Contents/MacOS/Safari', activationPolicy: 0, localizedName: 'Safari' }), // opened a link
    proc(501, 1, CLICK_AT + 130, { comm: 'com.apple.quicklook', path: '/System/Library/Frameworks/QL.framework/XPCServices/QL.xpc/Contents/MacOS/QL' }), // an XPC service
    proc(502, 1, CLICK_AT + 140, { uid: 502, path: '/Applications/Other.app/Contents/MacOS/Other', activationPolicy: 0 }), // another user's
    proc(503, 1, CLICK_AT - 10_000, { path: '/Applications/Mail.app/Contents/MacOS/Mail', activationPolicy: 0 }), // long running
    proc(504, 1, CLICK_AT + 150, { path: '/Applications/Big.app/Contents/Frameworks/Helper.app/Contents/MacOS/Helper', activationPolicy: 1 }), // nested helper app
    proc(505, 1, CLICK_AT + 160, { path: '/Applications/Agent.app/Contents/MacOS/Agent', activationPolicy: 2 }), // background-only agent
    proc(506, 1, CLICK_AT + 170, { path: '/Applications/Fresh.app/Contents/MacOS/Fresh' }), // AppKit does not know it yet
  ];
}

test('should take the app’s new descendants and this user’s new launchd children as candidates', () => {
  const candidates = launchCandidates(table(), TEXTEDIT, CLICK_AT, ME).map((c) => `${c.proc.pid}:${c.via}`);
  assert.deepEqual(candidates, ['431:descendant', '433:descendant', '432:descendant', '500:launchd', '501:launchd', '504:launchd', '505:launchd', '506:launchd']);
});

test('should recognise a top-level application bundle’s executable, and nothing else', () => {
  assert.equal(appBundleOf('/Applications/Safari.app/Contents/MacOS/Safari'), 'Safari');
  assert.equal(appBundleOf('/Users/me/Applications/My App.app/Contents/MacOS/My App'), 'My App');
  assert.equal(appBundleOf('/Applications/Big.app/Contents/Frameworks/Helper.app/Contents/MacOS/Helper'), null);
  assert.equal(appBundleOf('/System/Library/Frameworks/QL.framework/XPCServices/QL.xpc/Contents/MacOS/QL'), null);
  assert.equal(appBundleOf('/usr/bin/open'), null);
  assert.equal(appBundleOf(null), null);
});

test('should report what may still show a window: new children, and apps LaunchServices started, never background-only ones', async () => {
  const fake = new FakeMacNative();
  fake.processes = table();
  const desktop = new MacDesktop(fake);
  const original = process.getuid;
  process.getuid = () => ME;
  try {
    const launched = await desktop.launchedSince(TEXTEDIT, CLICK_AT, createProgress({ timeoutMs: 1000 }));
    assert.deepEqual(launched, [
      { pid: 431, name: 'dialog-tool' },
      { pid: 432, name: 'grandchild' },
      { pid: 500, name: 'Safari' },
      { pid: 506, name: 'Fresh' },
    ]);
    assert.deepEqual(await desktop.launchedSince(TEXTEDIT, CLICK_AT + 10_000, createProgress({ timeoutMs: 1000 })), [], 'nothing started since then');
  } finally {
    process.getuid = original;
  }
});

test('should let core wait for the launched app’s window and name it (settle.ts over the macOS desktop)', async () => {
  const fake = new FakeMacNative();
  fake.processes = [
    proc(1, 0, 0, { uid: 0 }),
    proc(TEXTEDIT, 1, Date.now() - 60_000, { path: '/System/Applications/TextEdit.app/Contents/MacOS/TextEdit', activationPolicy: 0 }),
  ];
  const desktop = new MacDesktop(fake);
  const since = Date.now();
  const original = process.getuid;
  process.getuid = () => ME;
  try {
    // The link opens Safari a moment later; its window maps a moment after that.
    setTimeout(() => fake.processes.push(proc(600, 1, Date.now(), { path: '/Applications/Safari.app/Contents/MacOS/Safari', activationPolicy: 0, localizedName: 'Safari' })), 30);
    setTimeout(() => {
      fake.windowList = [{ kCGWindowNumber: 77, kCGWindowOwnerPID: 600, kCGWindowOwnerName: 'Safari', kCGWindowLayer: 0, kCGWindowBounds: { X: 0, Y: 0, Width: 800, Height: 600 }, kCGWindowIsOnscreen: true }];
    }, 120);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outcome = await waitForLaunches(desktop, TEXTEDIT, since, { ...DEFAULT_SETTLE, launchCapMs: 2_000, launchPollMs: 10 }, createProgress({ timeoutMs: 5_000 }));
    assert.equal(outcome.kind, 'window');
    assert.deepEqual(outcome.window, { pid: 600, app: 'Safari', windowId: 77 });
    await desktop.close();
  } finally {
    process.getuid = original;
  }
});
