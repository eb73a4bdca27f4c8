import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAppHelperProcess } from '../../src/core/apps/helperProcess.js';

test("should tell a browser's or Electron app's own helper processes from programs it launched", () => {
  assert.equal(isAppHelperProcess(['/usr/lib/firefox-esr/firefox-esr', '-contentproc', '-isForBrowser']), true);
  assert.equal(isAppHelperProcess(['/usr/lib/chromium/chromium', '--type=gpu-process']), true);
  assert.equal(isAppHelperProcess(['/opt/Code/code', '--type=zygote', '--no-sandbox']), true);
  assert.equal(isAppHelperProcess(['/usr/lib/chromium/chromium --type=renderer --lang=en-US']), true, 'arguments rewritten into one string by the zygote');
  assert.equal(isAppHelperProcess(['/usr/bin/firefox-esr', 'https://example.org/']), false, 'a browser a link opened');
  assert.equal(isAppHelperProcess(['xdg-open', '--typed', 'notes.txt']), false);
  assert.equal(isAppHelperProcess(undefined), false, 'arguments unknown: a launch');
});
