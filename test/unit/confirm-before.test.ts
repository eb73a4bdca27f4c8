// confirm_before over the scripted desktop: a press on an element the person listed waits for
// their Enter (pressed) or Esc (nothing pressed, `declined`), by name, element_index or point;
// the watchdog while waiting is a refusal too; an Esc that answered is no late Esc.

import { createRevisionDeps } from '../../src/core/revisions/revisionDeps.js';
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { ConfirmAnsweredEvent, ConfirmAskedEvent } from '../../src/core/engineApi.js';
import { confirmEntryFor, confirmTargetAtPoint, DEFAULT_CONFIRM_BEFORE, nameMatchesEntry } from '../../src/core/confirm/confirmMatch.js';
import { SettingsStore } from '../../src/core/settings.js';
import type { ElementNode } from '../../src/core/model.js';
import { ScriptedDesktop } from '../support/scriptedDesktop.js';
import { act, clickAt, clickOn, engineFixture, FINDER, START_CURSOR, type EngineFixture } from '../support/engineFixtures.js';
import { renderCallResult } from '../../src/mcp/render.js';
import { CallRecord } from '../../src/core/call/callRecord.js';
import { CallState, type TransactionOptions } from '../../src/core/call/callState.js';
import { confirmBeforePress } from '../../src/core/call/confirmPress.js';
import { GuardPolicy } from '../../src/core/guard.js';
import { createProgress } from '../../src/core/progress.js';
import { SnapshotCache } from '../../src/core/tree/elementIndex.js';
import { DEFAULT_SNAPSHOT_LIMITS } from '../../src/core/engine.js';

const MAIL = 400;

function mailDesktop(pressed: string[]): ScriptedDesktop {
  return new ScriptedDesktop({
    apps: [
      { pid: FINDER, name: 'Finder', tree: { role: 'Application', text: 'Finder', children: [{ role: 'Window', text: 'Desktop', bounds: { x: 0, y: 0, width: 1280, height: 800 } }] } },
      {
        pid: MAIL,
        name: 'Mail',
        tree: {
          role: 'Application',
          text: 'Mail',
          children: [
            {
              role: 'Window',
              text: 'Mail',
              bounds: { x: 0, y: 0, width: 400, height: 300 },
              children: [
                { role: 'PushButton', text: 'Delete', bounds: { x: 10, y: 10, width: 100, height: 30 }, onClick: () => void pressed.push('Delete') },
                { role: 'PushButton', text: 'Sender', bounds: { x: 10, y: 50, width: 100, height: 30 }, onClick: () => void pressed.push('Sender') },
              ],
            },
          ],
        },
      },
    ],
    frontmostPid: FINDER,
    cursor: START_CURSOR,
  });
}

function recordConfirmations(fixture: EngineFixture): { asked: ConfirmAskedEvent[]; answered: ConfirmAnsweredEvent[] } {
  const asked: ConfirmAskedEvent[] = [];
  const answered: ConfirmAnsweredEvent[] = [];
  fixture.engine.on('confirm-asked', (event) => asked.push(event));
  fixture.engine.on('confirm-answered', (event) => answered.push(event));
  return { asked, answered };
}

describe('confirm_before: matching names', () => {
  it('should match the word itself or the word before a non-letter, whatever the case, and never a longer word', () => {
    for (const name of ['Delete', 'delete', 'Delete…', 'Delete 3 files', 'DELETE!']) assert.ok(nameMatchesEntry(name, 'Delete'), name);
    for (const name of ['Deleted items', 'Undelete', 'Sender', '']) assert.equal(confirmEntryFor(name, DEFAULT_CONFIRM_BEFORE), null, name);
    assert.equal(confirmEntryFor('Send now', DEFAULT_CONFIRM_BEFORE), 'Send');
    assert.ok(nameMatchesEntry('Move to Trash', 'move to *'));
    assert.ok(nameMatchesEntry('Undelete', '*delete*'));
    assert.ok(!nameMatchesEntry('Undo', '*delete*'));
  });

  it('should find the matching element a point lands in, even through an unnamed child', () => {
    const node = (index: number, text: string, x: number, width: number, depth: number): ElementNode =>
      ({ index, parentIndex: null, depth, role: 'PushButton', text, bounds: { x, y: 0, width, height: 20 }, visible: true, enabled: true, focused: false, actionable: true }) as ElementNode;
    const elements = [node(0, 'Window', 0, 400, 0), node(1, 'Delete', 10, 100, 1), node(2, '', 20, 10, 2)];
    assert.equal(confirmTargetAtPoint(elements, { x: 25, y: 5 }, ['Delete'])?.index, 1);
    assert.equal(confirmTargetAtPoint(elements, { x: 200, y: 5 }, ['Delete']), null);
  });
});

describe('confirm_before: the setting', () => {
  it('should read the list from the environment, comma-separated, and show it in the report', () => {
    const store = new SettingsStore({ env: { TANDEM_CONFIRM_BEFORE: 'Send, Archive ,' } });
    assert.deepEqual(store.current().confirm_before, ['Send', 'Archive']);
    assert.equal(store.report().settings.confirm_before.source, 'environment');
    assert.deepEqual(new SettingsStore().current().confirm_before, [...DEFAULT_CONFIRM_BEFORE]);
  });

  it('should refuse a change through set_config, naming where the person can make it, and change nothing else of it', async () => {
    const store = new SettingsStore();
    await assert.rejects(store.update({ confirm_before: [], inline: true }), (error: Error & { code?: string; details?: { reason?: string } }) => {
      assert.equal(error.code, 'permission');
      assert.equal(error.details?.reason, 'person-only');
      assert.match(error.message, /only by the person/);
      assert.match(error.message, /TANDEM_CONFIRM_BEFORE/);
      return true;
    });
    assert.deepEqual(store.current().confirm_before, [...DEFAULT_CONFIRM_BEFORE]);
    assert.equal(store.current().inline, false);
    assert.equal((await store.update({ inline: true })).settings.inline.value, true, 'other settings still change');
  });
});

describe('confirm_before: the person answers', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should press on the person\'s Enter and say so in the answer and the file', async () => {
    const pressed: string[] = [];
    fixture = await engineFixture(mailDesktop(pressed));
    const seen = recordConfirmations(fixture);
    fixture.engine.on('confirm-asked', () => setTimeout(() => fixture.desktop.human.pressEnter(), 1));
    const result = await fixture.engine.act(act(MAIL, clickOn('Delete')));
    assert.equal(result.status, 'ok');
    assert.deepEqual(pressed, ['Delete']);
    assert.deepEqual(result.confirmed, [{ step: 0, element: '[PushButton] "Delete"', allowed: true, by: 'enter' }]);
    assert.deepEqual(seen.asked.map(({ element, role, app }) => ({ element, role, app })), [{ element: 'Delete', role: 'PushButton', app: 'Mail' }]);
    assert.deepEqual(seen.answered.map(({ allowed, by }) => ({ allowed, by })), [{ allowed: true, by: 'enter' }]);
    assert.match(await fixture.artifactText(), /# confirmed: step 1 \[PushButton\] "Delete": allowed by the person \(Enter\)/);
    const text = (renderCallResult(result).content[0] as { text: string }).text;
    assert.match(text, /^confirmed: step 1 \[PushButton\] "Delete": the person allowed it/m);
  });

  it("should not ask about a listed button under the point when the click aims at an element drawn over it", async () => {
    // Chromium's open <select> list is drawn over the form's "Submit order": a click on its option
    // "Medium" presses the option; asking the person about "Submit order" would be the wrong question.
    const pressed: string[] = [];
    const desktop = mailDesktop(pressed);
    fixture = await engineFixture(desktop, { watchdogMs: 2_000 });
    const { asked } = recordConfirmations(fixture);
    const window = desktop.find(MAIL, 'Mail').children[0];
    const combo = window.append({ role: 'ComboBox', text: 'Size', bounds: { x: 150, y: 10, width: 100, height: 24 } });
    const list = combo.append({ role: 'Menu', text: '', bounds: { x: 0, y: 12, width: 120, height: 24 } });
    list.append({ role: 'MenuItem', text: 'Medium', bounds: { x: 15, y: 14, width: 90, height: 20 }, onClick: () => void pressed.push('Medium') });
    const result = await fixture.engine.act(act(MAIL, clickOn('Medium')));
    assert.equal(result.status, 'ok', JSON.stringify(result.error));
    assert.deepEqual(asked, [], 'no question about "Delete", which only lies under the option');
    assert.deepEqual(pressed, ['Medium']);
  });

  it('should press nothing on Esc, answer declined, and not refuse the next call as a late Esc', async () => {
    const pressed: string[] = [];
    fixture = await engineFixture(mailDesktop(pressed), { graceMs: 200 });
    fixture.engine.on('confirm-asked', () => setTimeout(() => fixture.desktop.human.pressEscape(), 1));
    const result = await fixture.engine.act(act(MAIL, clickAt(60, 25)));
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'declined');
    assert.equal(result.error?.reason, 'esc');
    assert.deepEqual(pressed, []);
    assert.ok(!fixture.desktop.calls.some((call) => call.startsWith('click')), 'no click was sent');
    assert.deepEqual(result.confirmed, [{ step: 0, element: '[PushButton] "Delete"', allowed: false, by: 'esc' }]);
    assert.equal(fixture.desktop.guardEngaged, false, 'the guard is down');
    const rendered = renderCallResult(result);
    assert.match((rendered.content[0] as { text: string }).text, /error: declined: .*nothing was pressed/);
    assert.match(result.error?.message ?? '', /its name matches "Delete" on the person's confirm_before list/, 'which entry asked');
    // The next call is not refused: the Esc answered the question, it cancelled nothing.
    const next = await fixture.engine.act(act(MAIL, clickOn('Sender')));
    assert.equal(next.status, 'ok');
    assert.deepEqual(pressed, ['Sender']);
    assert.equal(next.confirmed, undefined, 'a name not on the list asks nothing');
  });

  it("should not take the person's other keys as an answer: they are held back, only Enter allows", async () => {
    const pressed: string[] = [];
    fixture = await engineFixture(mailDesktop(pressed));
    fixture.engine.on('confirm-asked', () =>
      setTimeout(() => {
        fixture.desktop.human.input('key');
        setTimeout(() => fixture.desktop.human.pressEnter(), 5);
      }, 1),
    );
    const result = await fixture.engine.act(act(MAIL, { kind: 'element-action', query: { text: 'Delete' }, action: 'press' }));
    assert.equal(result.status, 'ok');
    assert.equal(result.humanInputBlocked, 1);
    assert.deepEqual(result.confirmed?.map((c) => c.by), ['enter']);
  });

  it('should answer declined when the watchdog fires while the person says nothing', async () => {
    const pressed: string[] = [];
    fixture = await engineFixture(mailDesktop(pressed), { watchdogMs: 300 });
    const result = await fixture.engine.act(act(MAIL, clickOn('Delete')));
    assert.equal(result.error?.code, 'declined');
    assert.equal(result.error?.reason, 'watchdog');
    assert.deepEqual(pressed, []);
    assert.deepEqual(result.confirmed?.map((c) => c.by), ['watchdog']);
    assert.equal(fixture.desktop.guardEngaged, false);
  });

  it('should ask nothing when the person emptied the list', async () => {
    const pressed: string[] = [];
    fixture = await engineFixture(mailDesktop(pressed), { settings: new SettingsStore({ env: { TANDEM_CONFIRM_BEFORE: ' , ' } }) });
    const result = await fixture.engine.act(act(MAIL, clickOn('Delete')));
    assert.equal(result.status, 'ok');
    assert.deepEqual(pressed, ['Delete']);
  });
});

describe('confirm_before: a call that holds no guard (background)', () => {
  async function stateWithoutGuard(pressed: string[]) {
    const desktop = mailDesktop(pressed);
    const events: string[] = [];
    const record = new CallRecord(1, 'press', undefined, {
      emit: (event, payload) => {
        if (event !== 'log') events.push(event === 'guard-released' ? `${event} ${(payload as { reason: string }).reason}` : event);
      },
      now: Date.now,
      artifacts: async () => assert.fail('no files here'),
    });
    const options = { watchdogMs: 5_000, graceMs: 0, settle: {} as TransactionOptions['settle'], snapshotLimits: DEFAULT_SNAPSHOT_LIMITS, now: Date.now, describeSteps: () => '', confirmBefore: DEFAULT_CONFIRM_BEFORE };
    const state = new CallState({ desktop, guard: new GuardPolicy(desktop, 5_000), snapshots: new SnapshotCache(), ...createRevisionDeps(), options }, { record }, { tool: 'press', pid: MAIL, steps: [] });
    state.progress = createProgress({ timeoutMs: 5_000 });
    state.appName = 'Mail';
    const element = { index: 1, parentIndex: 0, depth: 1, role: 'PushButton', text: 'Delete', bounds: null, visible: true, enabled: true, focused: false, actionable: true } as ElementNode;
    return { desktop, events, state, element };
  }

  for (const [key, allowed] of [['Enter', true], ['Esc', false]] as const) {
    it(`should hold the person's input just for the question and give it back after their ${key}`, async () => {
      const { desktop, events, state, element } = await stateWithoutGuard([]);
      const asking = confirmBeforePress(state, 0, element);
      while (!events.includes('confirm-asked')) await new Promise((resolve) => setTimeout(resolve, 2));
      assert.equal(desktop.guardEngaged, true, 'the guard holds while the question is up');
      if (allowed) {
        desktop.human.pressEnter();
        await asking;
      } else {
        desktop.human.pressEscape();
        await assert.rejects(asking, (error: Error & { code?: string }) => error.code === 'declined');
      }
      assert.equal(desktop.guardEngaged, false, 'given back after the answer');
      assert.deepEqual(events, ['guard-engaged', 'confirm-asked', 'confirm-answered', `guard-released ${allowed ? 'done' : 'error'}`]);
      assert.deepEqual(state.confirmations, [{ step: 0, element: '[PushButton] "Delete"', allowed, by: allowed ? 'enter' : 'esc' }]);
    });
  }
});
