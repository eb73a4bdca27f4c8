// Two native reads whose wrong guess would otherwise fail silently, checked against the real
// frameworks: the keyboard layout reader (TIS + UCKeyTranslate; a broken one only costs the
// layout-aware letters, the US keys are pressed instead) and the app's own hit test
// (AXUIElementCopyElementAtPosition + CFHash identities; if the hit element's CFHash did not agree
// with the tree's reference, core would find nothing it knows in the chain and let every click go
// unchecked). Calls the backend in this process, not over MCP: the MCP suites cannot see either.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { loadMacNative } from '../../native/macos/loadMacNative.js';
import { MacDesktop } from '../../src/backends/macos/macDesktop.js';
import { layoutKeyStroke } from '../../src/backends/macos/macKeys.js';
import { elementReachedInstead, windowElementOf } from '../../src/core/call/pointReach.js';
import type { ElementNode } from '../../src/core/model.js';
import { createProgress } from '../../src/core/progress.js';
import { accessibilityUnavailable, delay, stopApp } from './macHarness.js';

const notMac = process.platform === 'darwin' ? false : 'the macOS end-to-end suite runs on macOS only';
const unavailable = await accessibilityUnavailable();
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');

describe('native reads on macOS', { timeout: 120_000 }, () => {
  let calculatorPid: number | undefined;

  after(async () => {
    await stopApp(calculatorPid);
  });

  test("should read every Latin letter's key and its Shift capital from the current layout", { skip: notMac }, async () => {
    const native = await loadMacNative();
    const read = native.hiToolbox.keyboardLayoutKeys;
    assert.ok(read, 'the Text Input Source / UCKeyTranslate symbols bound (their absence is logged on stderr)');
    const keys = read();
    assert.ok(keys, 'the current keyboard layout has Unicode key layout data (a runner uses a Latin layout)');
    assert.equal(keys.length, 128);
    const keycodes = new Set<number>();
    for (const letter of LETTERS) {
      const stroke = layoutKeyStroke(letter, keys);
      assert.ok(stroke, `a key that types '${letter}'`);
      assert.equal(keys[stroke.keycode].shifted, letter.toUpperCase(), `Shift on '${letter}' types the capital (UCKeyTranslate's modifier state)`);
      keycodes.add(stroke.keycode);
    }
    assert.equal(keycodes.size, LETTERS.length, 'each letter on a key of its own');
    assert.equal(read(), keys, 'the same layout: the table is kept');
  });

  test("should find, at a button's centre, that button inside its window, named as the tree names them", { skip: unavailable ?? false }, async () => {
    execFileSync('open', ['-a', 'Calculator']);
    for (let i = 0; i < 50 && calculatorPid === undefined; i++) {
      try {
        calculatorPid = Number(execFileSync('pgrep', ['-nx', 'Calculator'], { encoding: 'utf8' }).trim()) || undefined;
      } catch {
        await delay(200);
      }
    }
    assert.ok(calculatorPid, 'Calculator runs');
    const desktop = new MacDesktop(await loadMacNative());
    try {
      let elements: ElementNode[] = [];
      let buttons: ElementNode[] = [];
      for (let i = 0; i < 25 && buttons.length === 0; i++) {
        if (i > 0) await delay(200);
        elements = (await desktop.snapshot(calculatorPid, { maxDepth: 30, maxElements: 2000, maxMs: 5000 }, createProgress({ timeoutMs: 10_000 }))).elements;
        buttons = elements.filter((e) => e.role === 'Button' && e.bounds && e.bounds.width > 4 && e.bounds.height > 4 && windowElementOf(elements, e));
      }
      assert.ok(buttons.length > 0, `Calculator's buttons in the tree: ${elements.map((e) => `${e.role}:${e.text}`).join(', ')}`);
      for (const button of buttons.slice(0, 3)) {
        const window = windowElementOf(elements, button)!;
        const bounds = button.bounds!;
        const centre = { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 };
        const chain = await desktop.accessibleAtPoint(window, centre, createProgress({ timeoutMs: 5_000 }));
        assert.ok(chain && chain.length > 0, `the app answers at ${centre.x},${centre.y} (${button.text})`);
        assert.equal(chain[0], window.identity, `the walk up reached the window the tree named (${chain.join(' > ')} vs ${window.identity})`);
        assert.equal(elementReachedInstead(elements, button, chain, centre), null, `the point reaches ${button.text}: ${chain.join(' > ')}`);
      }
    } finally {
      await desktop.close();
    }
  });
});
