// Core's window policy over a tree: `visible` as a person sees it (screens, own window, windows
// stacked above), a modal dialog's elements first and the windows it blocks refused, and a name
// matching in two windows with nothing to tell them apart refused with both listed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Display, ElementNode, TreeSnapshot, WindowInfo } from '../../src/core/model.js';
import { isTandemError, type TandemError } from '../../src/core/errors.js';
import { chooseElement, refuseBlocked } from '../../src/core/tree/query.js';
import { applyWindowFacts } from '../../src/core/tree/windowFacts.js';
import { rect, tree } from '../support/treeFactory.js';

const PID = 42;
const SCREEN: Display[] = [{ id: 1, bounds: rect(0, 0, 1280, 800), scale: 1, primary: true }];

function window(windowId: number, title: string, bounds: WindowInfo['bounds'], zOrder: number, pid = PID): WindowInfo {
  return { windowId, pid, title, bounds, zOrder, onScreen: true };
}

function snapshot(elements: ElementNode[]): TreeSnapshot {
  return { pid: PID, app: 'Editor', elements, elapsedMs: 0 };
}

function byText(elements: readonly ElementNode[], text: string, role?: string): ElementNode {
  const found = elements.find((el) => el.text === text && (!role || el.role === role));
  assert.ok(found, `no ${text}`);
  return found;
}

function thrown(run: () => unknown): TandemError {
  try {
    run();
  } catch (error) {
    if (isTandemError(error)) return error;
    throw error;
  }
  assert.fail('expected a TandemError');
}

/** An editor window with a Save button under the middle, and its modal Save dialog centred on it. */
function editorWithDialog(): ElementNode[] {
  return tree({
    role: 'Application',
    text: 'Editor',
    children: [
      {
        role: 'Frame',
        text: 'Editor',
        bounds: rect(0, 0, 800, 600),
        children: [
          { role: 'PushButton', text: 'Save', actionable: true, bounds: rect(350, 280, 100, 40) },
          { role: 'PushButton', text: 'Open', actionable: true, bounds: rect(10, 10, 80, 30) },
          { role: 'PushButton', text: 'Beyond', actionable: true, bounds: rect(700, 500, 800, 40) },
        ],
      },
      { role: 'Dialog', text: 'Save As', modal: true, bounds: rect(250, 200, 300, 200), children: [{ role: 'PushButton', text: 'Save', actionable: true, bounds: rect(400, 350, 80, 30) }] },
    ],
  });
}

const EDITOR_WINDOWS = [window(7, 'Save As', rect(250, 200, 300, 200), 0), window(5, 'Editor', rect(0, 0, 800, 600), 1)];

describe('window facts: what a person could see and reach', () => {
  test('should put the modal dialog first, hide what it covers and what is off screen, and block the window behind it', () => {
    const seen = applyWindowFacts(snapshot(editorWithDialog()), EDITOR_WINDOWS, SCREEN).elements;
    assert.deepEqual(seen.map((el) => `${el.role} ${el.text}`).slice(0, 3), ['Application Editor', 'Dialog Save As', 'PushButton Save'], 'the dialog comes first');
    assert.deepEqual(seen.map((el) => el.index), seen.map((_, i) => i), 'indexes renumbered in the new order');
    for (const el of seen) if (el.parentIndex !== null) assert.ok(seen[el.parentIndex].depth === el.depth - 1, 'parents follow the renumbering');
    const dialog = byText(seen, 'Save As');
    const mainSave = seen.find((el) => el.text === 'Save' && el.parentIndex !== dialog.index)!;
    assert.equal(mainSave.visible, false, 'the Save under the dialog is covered');
    assert.equal(byText(seen, 'Open').visible, true, 'a button beside the dialog is seen');
    assert.equal(byText(seen, 'Beyond').visible, false, 'a button whose centre is past the screen edge is not');
    assert.equal(mainSave.blockedBy, dialog.index);
    assert.equal(byText(seen, 'Open').blockedBy, dialog.index, 'the whole window behind the dialog is blocked, covered or not');
    assert.equal(byText(seen, 'Save', 'PushButton').blockedBy, undefined, "the dialog's own button is not");
  });

  test("should choose the dialog's Save by name, and refuse the blocked window's Save by index, naming the dialog", () => {
    const seen = applyWindowFacts(snapshot(editorWithDialog()), EDITOR_WINDOWS, SCREEN).elements;
    const dialog = byText(seen, 'Save As');
    const chosen = chooseElement(seen, { text: 'Save', role: 'button' });
    assert.equal(chosen.element.parentIndex, dialog.index);
    const mainSave = seen.find((el) => el.text === 'Save' && el.parentIndex !== dialog.index)!;
    const error = thrown(() => refuseBlocked(seen, mainSave));
    assert.equal(error.code, 'not-found');
    assert.equal(error.details?.reason, 'blocked-by-dialog');
    assert.match(error.message, /"Save As"/);
    const onlyBlocked = thrown(() => chooseElement(seen, { text: 'Open' }));
    assert.equal(onlyBlocked.details?.reason, 'blocked-by-dialog', 'a name only the blocked window has is refused too');
  });

  test('should hide what a window of another app stacked above covers, and keep what it does not', () => {
    const elements = tree({
      role: 'Application',
      children: [{ role: 'Frame', text: 'Editor', bounds: rect(0, 0, 800, 600), children: [{ role: 'PushButton', text: 'Under', bounds: rect(100, 100, 80, 30) }, { role: 'PushButton', text: 'Free', bounds: rect(600, 400, 80, 30) }] }],
    });
    const windows = [window(9, 'Always on top', rect(50, 50, 300, 200), 0, 99), window(5, 'Editor', rect(0, 0, 800, 600), 1)];
    const seen = applyWindowFacts(snapshot(elements), windows, SCREEN).elements;
    assert.equal(byText(seen, 'Under').visible, false);
    assert.equal(byText(seen, 'Free').visible, true);
    assert.equal(byText(seen, 'Under').windowId, 5, 'the element is placed in its window');
    const below = applyWindowFacts(snapshot(elements), [window(9, 'Behind', rect(50, 50, 300, 200), 1, 99), window(5, 'Editor', rect(0, 0, 800, 600), 0)], SCREEN).elements;
    assert.equal(byText(below, 'Under').visible, true, 'a window below covers nothing');
  });

  test('should refuse a name two windows share when nothing but tree order tells them apart, listing both with their windows', () => {
    const elements = tree({
      role: 'Application',
      children: [
        { role: 'Frame', text: 'First', bounds: rect(0, 0, 400, 300), children: [{ role: 'PushButton', text: 'Apply', actionable: true, bounds: rect(10, 10, 80, 30) }] },
        { role: 'Frame', text: 'Second', bounds: rect(500, 0, 400, 300), children: [{ role: 'PushButton', text: 'Apply', actionable: true, bounds: rect(510, 10, 80, 30) }] },
      ],
    });
    const error = thrown(() => chooseElement(elements, { text: 'Apply' }));
    assert.equal(error.code, 'not-found');
    assert.equal(error.details?.reason, 'ambiguous');
    assert.match(error.message, /#2 \[PushButton\] "Apply".* in window #1 \[Frame\] "First"/);
    assert.match(error.message, /#4 \[PushButton\] "Apply".* in window #3 \[Frame\] "Second"/);
    const disabledSecond = elements.map((el) => (el.index === 4 ? { ...el, enabled: false } : el));
    assert.equal(chooseElement(disabledSecond, { text: 'Apply' }).element.index, 2, 'a clear winner (enabled) is still chosen');
  });

  test('should leave a tree without window facts as the backend gave it', () => {
    const elements = editorWithDialog();
    const seen = applyWindowFacts(snapshot(elements), [], []).elements;
    assert.equal(seen[1].role, 'Dialog', 'the modal dialog still comes first');
    assert.equal(byText(seen, 'Beyond').visible, true, 'no screen known: nothing clipped');
  });
});

test("should hide the menus of a menu bar that has no height: a person sees none of them", () => {
  // LibreOffice Writer: a second menu bar, 0 px high, whose menus say they are visible over the
  // standard toolbar; the real menu bar above it shows "Format" too.
  const elements = tree({
    role: 'Application',
    text: 'Writer',
    children: [
      {
        role: 'Frame',
        text: 'Untitled 1',
        bounds: rect(0, 0, 1280, 800),
        children: [
          { role: 'MenuBar', text: '', bounds: rect(0, 19, 1280, 20), children: [{ role: 'Menu', text: 'Format', bounds: rect(181, 19, 58, 19) }] },
          { role: 'MenuBar', text: '', bounds: rect(0, 44, 1280, 0), children: [{ role: 'Menu', text: 'Format', bounds: rect(165, 44, 58, 19), children: [{ role: 'MenuItem', text: 'Paragraph…', bounds: rect(165, 63, 120, 19) }] }] },
          { role: 'PushButton', text: 'Print', bounds: rect(177, 46, 33, 35) },
        ],
      },
    ],
  });
  const seen = applyWindowFacts(snapshot(elements), [window(7, 'Untitled 1', rect(0, 0, 1280, 800), 0)], SCREEN).elements;
  const formats = seen.filter((el) => el.text === 'Format');
  assert.deepEqual(formats.map((el) => [el.bounds?.y, el.visible]), [[19, true], [44, false]]);
  assert.equal(byText(seen, 'Paragraph…').visible, false, 'nor anything inside it');
  assert.equal(byText(seen, 'Print').visible, true);
  assert.equal(chooseElement(seen, { text: 'Format' }).element.bounds?.y, 19, 'a click on "Format" goes to the real menu');
});
