// Background calls over the scripted desktop: element steps go through accessibility with no
// guard, no activation and no pointer; a step that needs real input is refused before anything
// is done; the background_default setting applies only where every step allows it.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { SettingsStore } from '../../src/core/settings.js';
import { isTandemError } from '../../src/core/errors.js';
import type { Step } from '../../src/core/call/steps.js';
import { COUNTER, FINDER, START_CURSOR, clickAt, clickOn, engineFixture, eventNames, press, type EngineFixture } from '../support/engineFixtures.js';

const setName: Step = { kind: 'set-value', query: { text: 'Name', role: 'text' }, value: 'Ada' };
const insertIntoName: Step = { kind: 'type-text', query: { text: 'Name', role: 'text' }, text: ' Lovelace', mode: 'auto' };

/** What the call did to the desktop: the guard, the front, the pointer and the input sent. */
function disturbances(actions: string[]): string[] {
  return actions.filter((call) => /^(guard:|activate|click|move-cursor|type|key|scroll|drag)/.test(call));
}

describe('transaction: background calls', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  it('should press, set and insert through accessibility without the guard, the front or the pointer', async () => {
    fixture = await engineFixture();
    const { engine, desktop, events } = fixture;
    const result = await engine.act({ tool: 'run_steps', pid: COUNTER, steps: [clickOn('Count: 0'), setName, insertIntoName], background: true });

    assert.equal(result.status, 'ok', JSON.stringify(result.error));
    assert.equal(result.background, true);
    assert.deepEqual(disturbances(desktop.actions()), [], `nothing held, raised or moved: ${desktop.actions().join(', ')}`);
    assert.ok(desktop.actions().includes('action press "Count: 0"'), 'the click became the button\'s default action');
    assert.equal(desktop.find(COUNTER, 'Count: 1').text, 'Count: 1');
    assert.equal(desktop.find(COUNTER, 'Name').value, 'Ada Lovelace');
    assert.equal(desktop.frontmostPid, FINDER, 'the person\'s app stayed in front');
    assert.deepEqual(desktop.cursor, START_CURSOR);
    assert.deepEqual(result.restore, { cursor: true, frontmost: 'not-needed' });
    assert.deepEqual(eventNames(events, 'guard-engaged', 'guard-released'), [], 'no guard, so no overlay');
    const started = events.find((e) => e.event === 'call-started')!.payload as { background?: boolean };
    assert.equal(started.background, true, 'the feed learns the call runs in the background');
  });

  for (const { name, steps, index, kind } of [
    { name: 'a click at a point', steps: [setName, clickAt(50, 25)], index: 1, kind: 'click' },
    { name: 'a key press', steps: [press('return')], index: 0, kind: 'press' },
    { name: 'a right click on an element', steps: [{ ...clickOn('Count: 0'), button: 'right' as const }], index: 0, kind: 'click' },
    { name: 'text into the focused field', steps: [{ kind: 'type-text' as const, text: 'x', mode: 'auto' as const }], index: 0, kind: 'type-text' },
  ]) {
    it(`should refuse ${name} before anything is done, naming the step`, async () => {
      fixture = await engineFixture();
      const { engine, desktop } = fixture;
      await assert.rejects(engine.act({ tool: 'run_steps', pid: COUNTER, steps, background: true }), (error: unknown) => {
        assert.ok(isTandemError(error, 'unsupported'), String(error));
        assert.equal(error.details?.reason, 'background-needs-input');
        assert.equal(error.details?.step, index);
        assert.match(error.message, new RegExp(`^Step ${index + 1} \\(${kind}\\)`));
        return true;
      });
      assert.deepEqual(desktop.actions(), [], 'nothing was done');
      assert.equal(desktop.find(COUNTER, 'Name').value ?? '', '', 'the earlier step did not run either');
    });
  }

  it('should not type keys where a field takes no insertion', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const result = await engine.act({ tool: 'type_text', pid: COUNTER, steps: [{ kind: 'type-text', query: { text: 'Status: idle' }, text: 'x', mode: 'auto' }], background: true });
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'unsupported');
    assert.deepEqual(disturbances(desktop.actions()), []);
  });

  it('should stop a hung background step at the watchdog with nothing to release', async () => {
    fixture = await engineFixture(undefined, { watchdogMs: 80 });
    const { engine, desktop } = fixture;
    desktop.behave('performAction', { hang: 'ignore-abort' });
    const result = await engine.act({ tool: 'click', pid: COUNTER, steps: [clickOn('Count: 0')], background: true });
    assert.equal(result.status, 'watchdog');
    assert.equal(result.watchdogFired, true);
    assert.deepEqual(disturbances(desktop.actions()), []);
  });

  it('should stop when the client cancels, with nothing to release', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const client = new AbortController();
    desktop.behave('performAction', { hang: true });
    desktop.when('action', () => client.abort(), { once: true });
    const result = await engine.act({ tool: 'click', pid: COUNTER, steps: [clickOn('Count: 0')], background: true }, { signal: client.signal });
    assert.equal(result.status, 'cancelled');
    assert.equal(result.cancelledBy, 'caller');
    assert.deepEqual(disturbances(desktop.actions()), []);
  });

  it('should put the person\'s app back in front when the target took it during the call', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    // The app raised its own window when its button was pressed.
    desktop.when('action', () => (desktop.frontmostPid = COUNTER), { once: true });
    const result = await engine.act({ tool: 'click', pid: COUNTER, steps: [clickOn('Count: 0')], background: true });
    assert.equal(result.status, 'ok', JSON.stringify(result.error));
    assert.equal(result.restore.frontmost, 'restored');
    assert.equal(desktop.frontmostPid, FINDER);
  });

  describe('background_default', () => {
    const withDefault = async (): Promise<EngineFixture> => engineFixture(undefined, { settings: new SettingsStore({ env: { TANDEM_BACKGROUND_DEFAULT: 'on' } }) });

    it('should run a call that does not say in the background when every step allows it', async () => {
      fixture = await withDefault();
      const result = await fixture.engine.act({ tool: 'set_value', pid: COUNTER, steps: [setName] });
      assert.equal(result.background, true);
      assert.deepEqual(disturbances(fixture.desktop.actions()), []);
    });

    it('should run a call with a step that needs input in the foreground, without an error', async () => {
      fixture = await withDefault();
      const result = await fixture.engine.act({ tool: 'run_steps', pid: COUNTER, steps: [setName, press('return')] });
      assert.equal(result.status, 'ok', JSON.stringify(result.error));
      assert.equal(result.background, undefined);
      assert.ok(fixture.desktop.actions().includes('guard:engage'));
    });

    it('should run in the foreground when the call sends background: false', async () => {
      fixture = await withDefault();
      const result = await fixture.engine.act({ tool: 'set_value', pid: COUNTER, steps: [setName], background: false });
      assert.equal(result.background, undefined);
      assert.ok(fixture.desktop.actions().includes('guard:engage'));
    });
  });

  describe('a press on the confirm_before list', () => {
    const asking = () => engineFixture(undefined, { settings: new SettingsStore({ env: { TANDEM_CONFIRM_BEFORE: 'Count*' } }) });
    for (const [key, pressed] of [['Esc', false], ['Enter', true]] as const) {
      it(`should hold the input just for the question, and ${pressed ? 'press after the person\'s Enter' : 'press nothing after the person\'s Esc'}`, async () => {
        fixture = await asking();
        const { engine, desktop } = fixture;
        engine.on('confirm-asked', () => setTimeout(() => (key === 'Esc' ? desktop.human.pressEscape() : desktop.human.pressEnter()), 1));
        const result = await engine.act({ tool: 'click', pid: COUNTER, steps: [clickOn('Count: 0')], background: true });
        if (pressed) {
          assert.equal(result.status, 'ok', JSON.stringify(result.error));
          assert.ok(desktop.actions().includes('action press "Count: 0"'));
          assert.equal(desktop.find(COUNTER, 'Count: 1').text, 'Count: 1');
        } else {
          assert.equal(result.error?.code, 'declined', JSON.stringify(result.error));
          assert.ok(!desktop.actions().some((call) => call.startsWith('action press')), desktop.actions().join(', '));
          assert.equal(desktop.find(COUNTER, 'Count: 0').text, 'Count: 0');
        }
        const actions = desktop.actions();
        assert.ok(actions.includes('guard:engage'), 'the guard held the input for the question');
        assert.deepEqual(actions.filter((call) => /^(activate|click|move-cursor|type|key)/.test(call)), [], 'still no front, pointer or keys');
      });
    }
  });
});
