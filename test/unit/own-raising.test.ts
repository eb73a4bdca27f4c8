// Visibility that only Tandem's raising of the app for a call, and its putting the person's
// frontmost app back afterwards, changed is neither the call's diff nor the next call's outside
// changes; a dialog of the app's own, or a window of another app that newly came on top, still is.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TreeSnapshot, WindowInfo } from '../../src/core/model.js';
import { formatDiff } from '../../src/core/tree/diff.js';
import { diffAcrossRaise, uncoveredBy, windowsPutBack } from '../../src/core/tree/ownRaising.js';
import { applyWindowFacts } from '../../src/core/tree/windowFacts.js';
import { RevisionStore } from '../../src/core/revisions/revisionStore.js';
import { rect, tree } from '../support/treeFactory.js';

const PID = 42;
const OTHER_PID = 77;
const MAIN = 100;
const DIALOG = 101;
const OTHER_APP = 200;
const PERSON_OPENED = 300;

function window(windowId: number, pid: number, title: string, zOrder: number, bounds = rect(0, 0, 600, 400)): WindowInfo {
  return { windowId, pid, title, bounds, zOrder, onScreen: true };
}

/** The editor's tree among `windows` (frontmost first), with its own dialog when `withDialog`. */
function editorAmong(windows: WindowInfo[], withDialog = false): TreeSnapshot {
  const elements = tree({
    role: 'Application',
    text: 'Editor',
    children: [
      {
        role: 'Frame',
        text: 'Editor',
        bounds: rect(0, 0, 600, 400),
        children: [
          { role: 'Text', text: 'draft', bounds: rect(10, 10, 300, 24) },
          { role: 'PushButton', text: 'Save', bounds: rect(10, 50, 80, 30), actionable: true },
        ],
      },
      ...(withDialog ? [{ role: 'Dialog', text: 'Save as', bounds: rect(0, 0, 400, 40), children: [{ role: 'PushButton', text: 'OK', bounds: rect(20, 10, 60, 24), actionable: true }] }] : []),
    ],
  });
  const stacked = windows.map((w, z) => ({ ...w, zOrder: z }));
  return applyWindowFacts({ pid: PID, app: 'Editor', elements, elapsedMs: 0, windows: stacked }, stacked, []);
}

const main = window(MAIN, PID, 'Editor', 0);
const dialog = window(DIALOG, PID, 'Save as', 0, rect(0, 0, 400, 40));
const otherApp = window(OTHER_APP, OTHER_PID, 'Other app', 0, rect(0, 0, 800, 600));
const personOpened = window(PERSON_OPENED, OTHER_PID, 'Opened by the person', 0, rect(0, 0, 800, 600));

describe('the call that brought its app to the front', () => {
  it('should leave the elements the lowered windows had covered out of its diff', () => {
    const before = editorAmong([otherApp, main]);
    const after = editorAmong([main, otherApp]);
    assert.ok(before.elements.some((el) => el.coveredBy === OTHER_APP), 'the other app covered the editor before the call');
    assert.match(formatDiff(diffAcrossRaise(before, after.elements, false)), /^\+ #\d+ \[PushButton\] "Save"/m, 'read as it is, the raise shows as added');
    assert.equal(formatDiff(diffAcrossRaise(before, after.elements, true)), '');
  });

  it("should still show the app's own dialog covering its main window", () => {
    const before = editorAmong([otherApp, main]);
    const after = editorAmong([dialog, main, otherApp], true);
    const diff = formatDiff(diffAcrossRaise(before, after.elements, true));
    assert.match(diff, /^\+ #\d+ \[Dialog\] "Save as"/m);
    assert.match(diff, /^- \[Text\] "draft"/m, 'the field the dialog covers is no longer in sight');
    assert.doesNotMatch(diff, /\[PushButton\] "Save"/, 'the button the dialog does not cover came out from under the other app only');
  });

  it('should not report a window that covers the app before and after (kept on top) as a change', () => {
    const onTop = window(OTHER_APP, OTHER_PID, 'Always on top', 0, rect(0, 40, 600, 60));
    const before = editorAmong([onTop, main]);
    const after = editorAmong([onTop, main]);
    assert.ok(after.elements.some((el) => el.coveredBy === OTHER_APP));
    assert.equal(formatDiff(diffAcrossRaise(before, after.elements, true)), '');
  });
});

describe("the person's frontmost app put back on top", () => {
  it('should name only the windows of the app put back, none when it is the target itself', () => {
    const before = editorAmong([otherApp, personOpened, main]);
    assert.deepEqual([...windowsPutBack(before, OTHER_PID)].sort(), [OTHER_APP, PERSON_OPENED]);
    assert.equal(windowsPutBack(before, PID).size, 0);
  });

  it('should not count its cover as a change since the last tree handed out, nor as a new revision', () => {
    const store = new RevisionStore();
    const handedOut = editorAmong([main, otherApp]);
    const revision = store.handOut(handedOut);
    const covered = editorAmong([otherApp, main]);
    assert.match(formatDiff(store.changedSinceLatest(PID, covered.elements)!), /^- \[PushButton\] "Save"/m, 'before Tandem notes the put-back, the cover is a change');
    store.notePutBack(PID, windowsPutBack(editorAmong([otherApp, main]), OTHER_PID));
    assert.equal(formatDiff(store.changedSinceLatest(PID, covered.elements)!), '');
    assert.equal(store.handOut(covered), revision);
    assert.equal(formatDiff(store.diffSince(PID, revision, covered.elements)!), '');
  });

  it('should still report a window of that app the person opened over the target afterwards', () => {
    const store = new RevisionStore();
    store.handOut(editorAmong([main, otherApp]));
    store.notePutBack(PID, new Set([OTHER_APP]));
    const now = editorAmong([personOpened, otherApp, main]);
    assert.match(formatDiff(store.changedSinceLatest(PID, now.elements)!), /^- \[PushButton\] "Save"/m);
  });
});

describe('uncoveredBy', () => {
  it('should give the same array back when none of the windows covers anything', () => {
    const elements = editorAmong([main]).elements;
    assert.equal(uncoveredBy(elements, new Set([OTHER_APP])), elements);
  });
});
