// Core's side of two guard facts a backend can report: a gap in the hold (the OS switched the
// guard off and it came back on, so the person's input went through) is counted into the
// answer, and a guard lost because secure input hides Esc stops the call with guard-lost whose
// reason says so (its next move differs: get the person out of the password field).
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { GuardListener } from '../../src/core/desktop.js';
import { COUNTER, act, clickOn, engineFixture, press, typeText, type EngineFixture } from '../support/engineFixtures.js';

describe('guard gaps and secure input, as core reports them', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  async function withListener(): Promise<{ fixture: EngineFixture; listener: () => GuardListener }> {
    fixture = await engineFixture();
    const { desktop } = fixture;
    let current: GuardListener | undefined;
    const engage = desktop.engageGuard.bind(desktop);
    desktop.engageGuard = async (listener, progress) => {
      current = listener;
      return engage(listener, progress);
    };
    return { fixture, listener: () => current! };
  }

  it('should count each gap in the hold into the answer, and carry on', async () => {
    const { fixture: f, listener } = await withListener();
    f.desktop.when('click', () => {
      listener().onInputLeaked?.();
      listener().onInputLeaked?.();
    }, { once: true });
    const result = await f.engine.act(act(COUNTER, clickOn('Name'), typeText('abc')));
    assert.equal(result.status, 'ok');
    assert.equal(result.inputLeaked, 2);
    assert.equal(result.stepsDone.length, 2, 'a gap that closed again does not stop the call');
  });

  it('should leave inputLeaked out when the hold never had a gap', async () => {
    const { fixture: f } = await withListener();
    const result = await f.engine.act(act(COUNTER, clickOn('Name')));
    assert.equal(result.inputLeaked, undefined);
  });

  it('should stop with guard-lost, reason secure-input, when secure input hid Esc mid-call', async () => {
    const { fixture: f, listener } = await withListener();
    f.desktop.when('click', () => listener().onLost('secure keyboard entry is on', 'secure-input'), { once: true });
    const result = await f.engine.act(act(COUNTER, clickOn('Name'), typeText('abc'), press('Return')));
    assert.equal(result.error?.code, 'guard-lost');
    assert.equal(result.error?.reason, 'secure-input');
    assert.match(result.error?.message ?? '', /secure keyboard entry is on/);
    assert.equal(result.stepsDone.length, 1, 'nothing sent after the loss');
  });
});
