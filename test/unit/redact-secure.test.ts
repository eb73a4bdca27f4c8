import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { CallStartedEvent } from '../../src/core/engineApi.js';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { SECURE_FILL } from '../../src/core/artifacts/crosshair.js';
import { secureTextLabel } from '../../src/core/tree/redact.js';
import { COUNTER, act, clickAt, clickOn, engineFixture, press, typeText, type EngineFixture } from '../support/engineFixtures.js';
import { stepsText } from '../support/modelText.js';

const PASSWORD = 'hunter2-correct-horse';

describe('redaction of text typed into a secure field', () => {
  let fixture: EngineFixture;
  afterEach(async () => fixture?.cleanup());

  /** Everything the engine let out: events, the result, the artifact files. */
  async function everythingShown(f: EngineFixture, result: unknown): Promise<string> {
    return [JSON.stringify(f.events), JSON.stringify(result), await f.artifactText()].join('\n');
  }

  it('should type the password but show nothing of it, not its length, in events, result and artifacts', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const result = await engine.act(act(COUNTER, clickOn({ role: 'PasswordText' }), typeText(PASSWORD), press('Return')));

    assert.equal(result.status, 'ok');
    assert.equal(desktop.secretOf(desktop.find(COUNTER, 'password-field')), PASSWORD, 'the password really was typed');
    assert.equal(stepsText(result)[1], `typed [secure text]`);
    const shown = await everythingShown(fixture, result);
    assert.ok(!shown.includes(PASSWORD), 'the password appears nowhere');
    assert.ok(!shown.includes('hunter2'), 'not even in part');
    // Timings are numbers too: look for the length as a length.
    assert.doesNotMatch(shown, new RegExp(`\\b${PASSWORD.length} ?(chars?|characters|keys?|events?)\\b|length"?:\\s*${PASSWORD.length}\\b`), 'nor its length');
    assert.ok(shown.includes(secureTextLabel(PASSWORD)));
    const started = fixture.events.find((e) => e.event === 'call-started')!.payload as CallStartedEvent;
    assert.equal((started.args.steps as Array<{ text?: string }>)[1].text, `[secure text]`);
  });

  it('should show nothing of text typed when no element shows the focus: it may be going into a password field', async () => {
    fixture = await engineFixture();
    assert.equal(fixture.desktop.app(COUNTER).focusedNode(), undefined, 'nothing has the focus in this app');
    const result = await fixture.engine.act(act(COUNTER, typeText(PASSWORD)));
    assert.equal(result.status, 'ok');
    assert.equal(stepsText(result)[0], 'typed [secure text]');
    assert.ok(!(await everythingShown(fixture, result)).includes('hunter2'), 'the text appears nowhere');
  });

  it('should paint the password field over in the screenshot, leaving the rest of the window as it was', async () => {
    fixture = await engineFixture();
    const result = await fixture.engine.act(act(COUNTER, clickOn({ role: 'PasswordText' }), typeText(PASSWORD)));
    // The field is at (10,130) 200×30 points; the scripted screenshot is 0.25 pixels per point, all 0xc0 grey.
    const png = await sharp(await readFile(result.screenshot!)).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number): number => png.data[(y * png.info.width + x) * png.info.channels];
    assert.equal(at(50, 33), SECURE_FILL, 'inside the field (away from the crosshair drawn over its centre)');
    assert.equal(at(2, 32), SECURE_FILL, 'its top-left corner');
    assert.equal(at(60, 35), 0xc0, 'beside it');
    assert.equal(at(10, 20), 0xc0, 'above it');
    const read = await fixture.engine.refresh(COUNTER);
    const tree = await sharp(await readFile(read.screenshot!)).raw().toBuffer({ resolveWithObject: true });
    assert.equal(tree.data[(33 * tree.info.width + 50) * tree.info.channels], SECURE_FILL, 'a read-only call\'s screenshot too');
  });

  it('should redact when the secure field was clicked by its position', async () => {
    fixture = await engineFixture();
    const result = await fixture.engine.act(act(COUNTER, clickAt(110, 145), typeText(PASSWORD)));
    assert.equal(stepsText(result)[1], `typed [secure text]`);
    assert.ok(!(await everythingShown(fixture, result)).includes(PASSWORD));
  });

  it('should redact typing into an already focused secure field', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.find(COUNTER, 'password-field').focus();
    const result = await engine.act(act(COUNTER, typeText(PASSWORD)));
    assert.equal(desktop.secretOf(desktop.find(COUNTER, 'password-field')), PASSWORD);
    assert.deepEqual(stepsText(result), [`typed [secure text]`]);
    assert.ok(!(await everythingShown(fixture, result)).includes(PASSWORD));
  });

  it('should redact text typed after Tab moved the focus into a secure field', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    desktop.onKey = ({ key }) => {
      if (key === 'tab') desktop.find(COUNTER, 'password-field').focus();
    };
    const result = await engine.act(act(COUNTER, clickOn('Name'), typeText('alice'), press('Tab'), typeText(PASSWORD)));
    assert.equal(result.status, 'ok');
    assert.deepEqual(stepsText(result), ['clicked [Text] "Name" at 110,105', 'typed "alice"', 'pressed tab', `typed [secure text]`]);
    assert.ok(!(await everythingShown(fixture, result)).includes(PASSWORD));
  });

  it('should redact a value set on a secure field through accessibility', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const result = await engine.act(act(COUNTER, { kind: 'set-value', query: { role: 'PasswordText' }, value: PASSWORD }));
    assert.equal(result.status, 'ok');
    assert.equal(desktop.secretOf(desktop.find(COUNTER, 'password-field')), PASSWORD);
    assert.equal(stepsText(result)[0], `set [PasswordText] "" to [secure text]`);
    assert.ok(!(await everythingShown(fixture, result)).includes(PASSWORD));
  });

  it('should never put typed text in log lines, even plain text', async () => {
    fixture = await engineFixture();
    const result = await fixture.engine.act(act(COUNTER, clickOn('Name'), typeText('plain words')));
    assert.equal(stepsText(result)[1], 'typed "plain words"', 'plain text is shown to the model');
    const logs = fixture.events.filter((e) => e.event === 'log').map((e) => JSON.stringify(e.payload));
    assert.ok(logs.some((l) => l.includes('typing 11 characters')));
    assert.ok(logs.every((l) => !l.includes('plain words')));
  });
});
