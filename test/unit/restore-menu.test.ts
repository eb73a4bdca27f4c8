// A call that opens a menu while another app was in front: putting that app back takes the focus
// that kept the menu open, so the answer says the menu's items are gone (agent-seat audit: a
// <select> list shown as visible, closed by the restore, its item stale in the next call).
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { renderCallResult } from '../../src/mcp/render.js';
import { COUNTER, act, clickOn, engineFixture, type EngineFixture } from '../support/engineFixtures.js';

describe('restore after a call that opened a menu', () => {
  let fixture: EngineFixture | undefined;
  afterEach(async () => fixture?.cleanup());

  it('should say the menu the call opened closes when the previous app comes back to the front', async () => {
    fixture = await engineFixture();
    const { engine, desktop } = fixture;
    const window = desktop.find(COUNTER, 'Counter').children[0];
    window.append({
      role: 'ComboBox',
      text: 'Size',
      bounds: { x: 200, y: 100, width: 120, height: 24 },
      onClick: () => {
        const menu = window.append({ role: 'Menu', text: '', bounds: { x: 200, y: 124, width: 120, height: 48 } });
        for (const [k, size] of ['Small', 'Large'].entries()) menu.append({ role: 'MenuItem', text: size, bounds: { x: 200, y: 124 + k * 24, width: 120, height: 24 } });
      },
    });
    await engine.refresh(COUNTER);
    const opened = await engine.act(act(COUNTER, clickOn('Size')));
    assert.equal(opened.status, 'ok', JSON.stringify(opened.error));
    assert.equal(opened.restore.frontmost, 'restored');
    assert.equal(opened.restore.menuClosed, true);
    const text = (renderCallResult(opened).content[0] as { text: string }).text;
    assert.match(text, /^restore: .*previous app brought back to the front, which closes the menu or list this call opened/m);
    assert.equal((renderCallResult(opened).structuredContent as { restore: { menu_closed?: boolean } }).restore.menu_closed, true);

    const plain = await engine.act(act(COUNTER, clickOn('Count: 0')));
    assert.equal(plain.restore.frontmost, 'restored');
    assert.equal(plain.restore.menuClosed, undefined, 'a click that opened no menu says nothing of one');
  });
});
