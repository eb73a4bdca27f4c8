// macOS permissions as a person meets them, over the fake binding: the Accessibility prompt that
// puts Tandem into the Settings list, the Screen Recording request, and screenshots that are
// refused without Screen Recording (macOS would hand back the wallpaper alone) or taken by the
// window's bounds when screencapture cannot capture the window itself.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { MacDesktop } from '../../src/backends/macos/macDesktop.js';
import { promptForAccessibility } from '../../src/backends/macos/macPermissions.js';
import type { ScreencaptureRunner } from '../../src/backends/macos/macScreenshot.js';
import { TandemError } from '../../src/core/errors.js';
import { createProgress } from '../../src/core/progress.js';
import { modelText } from '../support/modelText.js';
import { FakeMacNative } from './mac-fake-native.js';

/** The start of a PNG: signature and IHDR with this size (all pngSize reads). */
function pngHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return header;
}

/** A screencapture that records its arguments and answers as `answer` says (a PNG width to write, or a failure). */
function fakeScreencapture(answer: (args: readonly string[]) => number | Error | 'no-file'): { run: ScreencaptureRunner; runs: string[][] } {
  const runs: string[][] = [];
  const run: ScreencaptureRunner = async (args) => {
    runs.push([...args]);
    const outcome = answer(args);
    if (outcome instanceof Error) throw outcome;
    if (outcome !== 'no-file') await writeFile(args.at(-1)!, pngHeader(outcome, outcome / 2));
  };
  return { run, runs };
}

function notesDesktop(run: ScreencaptureRunner) {
  const fake = new FakeMacNative();
  fake.windowList = [{ kCGWindowNumber: 9, kCGWindowOwnerPID: 42, kCGWindowOwnerName: 'Notes', kCGWindowLayer: 0, kCGWindowBounds: { X: 10, Y: 20, Width: 300, Height: 200 }, kCGWindowIsOnscreen: true }];
  return { fake, desktop: new MacDesktop(fake, { runScreencapture: run }) };
}

test('should ask for Accessibility with the prompt option, so that macOS lists Tandem, and release the options', () => {
  const fake = new FakeMacNative();
  fake.trusted = false;
  assert.equal(promptForAccessibility(fake), false, 'the answer is the trust now; the prompt is asynchronous');
  assert.deepEqual(fake.trustPrompts, [true], 'kAXTrustedCheckOptionPrompt → kCFBooleanTrue was passed');
  assert.deepEqual(fake.leaks(), []);
});

test("should show the system's prompt for each grant the wizard asks for, and none for other checks", async () => {
  const fake = new FakeMacNative();
  const desktop = new MacDesktop(fake);
  const progress = createProgress({ timeoutMs: 5000 });
  await desktop.requestPermission('accessibility', progress);
  await desktop.requestPermission('screen-recording', progress);
  await desktop.requestPermission('display', progress);
  assert.deepEqual(fake.trustPrompts, [true]);
  assert.equal(fake.screenRecordingRequests, 1);
  await desktop.close();
  assert.deepEqual(fake.leaks(), []);
});

test('should refuse a screenshot without Screen Recording instead of handing back the wallpaper, and say how to fix it', async () => {
  const capture = fakeScreencapture(() => 600);
  const { fake, desktop } = notesDesktop(capture.run);
  fake.screenRecordingGranted = false;
  for (const target of [{ pid: 42 }, { pid: 42, windowId: 9 }, { rect: { x: 0, y: 0, width: 100, height: 100 } }, {}]) {
    const refused = await desktop.screenshot(target, createProgress({ timeoutMs: 5000 })).then(
      () => null,
      (error: unknown) => error,
    );
    assert.ok(refused instanceof TandemError, `refused for ${JSON.stringify(target)}`);
    assert.equal(refused.code, 'permission');
    assert.equal(refused.details?.reason, 'screen-recording-off');
    assert.match(modelText(refused), /Privacy & Security › Screen Recording.*quit and reopen Tandem/);
  }
  assert.deepEqual(capture.runs, [], 'screencapture never ran');
});

test("should capture the window's bounds when screencapture cannot capture the window itself", async () => {
  const capture = fakeScreencapture((args) => (args.includes('-l9') ? new Error('could not create image from window') : 600));
  const { desktop } = notesDesktop(capture.run);
  const logs: string[] = [];
  const shot = await desktop.screenshot({ pid: 42 }, createProgress({ timeoutMs: 5000, log: (line) => logs.push(line) }));
  assert.deepEqual(
    capture.runs.map((args) => args.find((arg) => /^-[lR]/.test(arg))),
    ['-l9', '-R10,20,300,200'],
  );
  assert.deepEqual(shot.bounds, { x: 10, y: 20, width: 300, height: 200 });
  assert.equal(shot.scale, 2);
  assert.match(logs.join('\n'), /window 9 could not be captured alone \(.*could not create image from window\): capturing its bounds instead/);
});

test('should fall back to the bounds when screencapture exits 0 without writing the window, and fail when the bounds fail too', async () => {
  const silent = fakeScreencapture((args) => (args.includes('-l9') ? 'no-file' : 600));
  const shot = await notesDesktop(silent.run).desktop.screenshot({ pid: 42, windowId: 9 }, createProgress({ timeoutMs: 5000 }));
  assert.equal(shot.scale, 2);
  assert.equal(silent.runs.length, 2);

  const broken = fakeScreencapture(() => new Error('screencapture: cannot run'));
  await assert.rejects(notesDesktop(broken.run).desktop.screenshot({ pid: 42 }, createProgress({ timeoutMs: 5000 })), (error: TandemError) => error.code === 'internal' && /cannot run/.test(error.message));
  assert.equal(broken.runs.length, 2, 'the window, then its bounds');
});
