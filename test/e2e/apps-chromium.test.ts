// Chromium (Debian's chromium package) with a web form, through a real MCP client: the shared
// browser suite (test/support/browserFormSuite.ts). Its .desktop entry carries no accessibility
// flag: Tandem adds what Chromium needs when it starts it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromiumEntry } from '../../scripts/lib/appHarness.js';
import { browserFormSuite } from '../support/browserFormSuite.js';

browserFormSuite({
  name: 'Chromium',
  appName: 'Chromium',
  entry: chromiumEntry,
  checkLaunch(pid) {
    // Chromium rewrites its command line into one string, over its environment too: only the
    // flag can be checked from outside.
    assert.match(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '), / --force-renderer-accessibility /, 'Tandem started Chromium with its page-accessibility flag');
  },
  // A <select>'s text is only an embedded object (U+FFFC): its choice is read from its popup list.
  selectValueInDiff: true,
  // It ignores clicks on a dialog's buttons for a double-click interval after the dialog appears.
  dialogSettleMs: 1_000,
});
