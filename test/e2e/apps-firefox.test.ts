// Firefox ESR with a web form, through a real MCP client: the shared browser suite
// (test/support/browserFormSuite.ts). Its .desktop entry carries nothing about accessibility:
// Tandem turns desktop accessibility on and starts Firefox with GNOME_ACCESSIBILITY=1.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { firefoxEntry } from '../../scripts/lib/appHarness.js';
import { browserFormSuite } from '../support/browserFormSuite.js';

browserFormSuite({
  name: 'Firefox ESR',
  appName: 'Firefox',
  entry: firefoxEntry,
  checkLaunch(pid) {
    assert.ok(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes('GNOME_ACCESSIBILITY=1'), 'Tandem started Firefox with its accessibility switch');
  },
  selectValueInDiff: true,
  dialogSettleMs: 0,
});
