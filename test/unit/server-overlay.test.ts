// The server-drawn overlay follows the guard: up on engage with what is being done where,
// updated per step, down on release — and only for the call that engaged it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EngineEventMap, EngineEventName } from '../../src/core/engineApi.js';
import { TypedEmitter } from '../../src/core/events.js';
import { overlayText } from '../../src/core/overlay/overlayText.js';
import { attachServerOverlay } from '../../src/core/overlay/overlayVisibility.js';
import { parseXSettings } from '../../src/backends/linux/xsettings.js';

function harness(): { emit: <K extends EngineEventName>(event: K, payload: EngineEventMap[K]) => void; calls: string[]; detach: () => void } {
  const events = new TypedEmitter<EngineEventMap>();
  const calls: string[] = [];
  const detach = attachServerOverlay(events, {
    show: async (text) => void calls.push(`show ${text}`),
    hide: async () => void calls.push('hide'),
  });
  return { emit: (event, payload) => events.emit(event, payload), calls, detach };
}

describe('server overlay', () => {
  it('should show what is done in which app on engage, follow the steps, and hide on release', () => {
    const { emit, calls } = harness();
    emit('guard-engaged', { callId: 7, tool: 'click_and_traverse', label: '', verb: 'Clicking', app: 'Mousepad' });
    emit('step', { callId: 7, index: 1, label: 'Type "x"', verb: 'Typing' });
    emit('step', { callId: 8, index: 0, label: 'other', verb: 'Scrolling' });
    emit('guard-released', { callId: 8, reason: 'done' });
    emit('guard-released', { callId: 7, reason: 'cancelled' });
    assert.deepEqual(calls, [
      'show Tandem is clicking in Mousepad — press Esc to take back control',
      'show Tandem is typing in Mousepad — press Esc to take back control',
      'hide',
    ]);
  });

  it('should ask the person before a confirm_before press, and say again what is done once they allowed it', () => {
    const { emit, calls } = harness();
    emit('guard-engaged', { callId: 3, tool: 'click', label: '', verb: 'Clicking', app: 'Mail' });
    emit('confirm-asked', { callId: 4, step: 0, element: 'Send', role: 'PushButton', app: 'Other' });
    emit('confirm-asked', { callId: 3, step: 0, element: 'Delete', role: 'PushButton', app: 'Mail' });
    emit('confirm-answered', { callId: 3, step: 0, element: 'Delete', allowed: true, by: 'enter' });
    emit('confirm-asked', { callId: 3, step: 1, element: 'Send now', role: 'PushButton', app: 'Mail' });
    emit('confirm-answered', { callId: 3, step: 1, element: 'Send now', allowed: false, by: 'esc' });
    emit('guard-released', { callId: 3, reason: 'error' });
    assert.deepEqual(calls, [
      'show Tandem is clicking in Mail — press Esc to take back control',
      'show Tandem wants to press "Delete" in Mail — Enter to allow, Esc to refuse',
      'show Tandem is clicking in Mail — press Esc to take back control',
      'show Tandem wants to press "Send now" in Mail — Enter to allow, Esc to refuse',
      'hide',
    ]);
  });

  it('should take the overlay down when detached mid-call', () => {
    const { emit, calls, detach } = harness();
    emit('guard-engaged', { callId: 1, tool: 't', label: '', verb: 'Waiting', app: '' });
    detach();
    assert.deepEqual(calls, ['show Tandem is waiting in an app — press Esc to take back control', 'hide']);
    assert.equal(overlayText('Pressing keys', 'gedit'), 'Tandem is pressing keys in gedit — press Esc to take back control');
  });
});

describe('server overlay: what it says and when it gives up waiting', () => {
  it('should keep a long app name from pushing "press Esc" off the label', () => {
    const text = overlayText('Typing', 'Q'.repeat(300));
    assert.match(text, /^Tandem is typing in Q{39}… — press Esc to take back control$/);
    assert.equal(overlayText('Clicking', '  '), 'Tandem is clicking in an app — press Esc to take back control');
  });

  it('should hide when a call ends and no release event ever comes', async () => {
    const events = new TypedEmitter<EngineEventMap>();
    const calls: string[] = [];
    attachServerOverlay(events, { show: async () => void calls.push('show'), hide: async () => void calls.push('hide') }, 20);
    events.emit('guard-engaged', { callId: 3, tool: 't', label: '', verb: 'Typing', app: 'x' });
    events.emit('call-finished', { callId: 3, result: {} as EngineEventMap['call-finished']['result'] });
    assert.deepEqual(calls, ['show'], 'not at once: a grace period may still hold the guard');
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.deepEqual(calls, ['show', 'hide']);
  });
});

describe('XSETTINGS', () => {
  it('should read integers, strings and colours in either byte order', () => {
    const build = (big: boolean): Buffer => {
      const parts: Buffer[] = [];
      const u16 = (n: number): Buffer => {
        const b = Buffer.alloc(2);
        if (big) b.writeUInt16BE(n);
        else b.writeUInt16LE(n);
        return b;
      };
      const u32 = (n: number): Buffer => {
        const b = Buffer.alloc(4);
        if (big) b.writeUInt32BE(n);
        else b.writeUInt32LE(n);
        return b;
      };
      const name = (text: string): Buffer[] => { const raw = Buffer.from(text, 'latin1'); return [u16(raw.length), raw, Buffer.alloc((4 - (raw.length % 4)) % 4)]; };
      parts.push(Buffer.from([big ? 1 : 0, 0, 0, 0]), u32(5), u32(3));
      parts.push(Buffer.from([0, 0]), ...name('Gtk/EnableAnimations'), u32(1), u32(0));
      parts.push(Buffer.from([1, 0]), ...name('Net/ThemeName'), u32(2), u32(7), Buffer.from('Adwaita\0', 'utf8'));
      parts.push(Buffer.from([2, 0]), ...name('Net/Colour'), u32(3), u16(1), u16(2), u16(3), u16(4));
      return Buffer.concat(parts);
    };
    for (const big of [false, true]) {
      const settings = parseXSettings(build(big));
      assert.equal(settings.get('Gtk/EnableAnimations'), 0);
      assert.equal(settings.get('Net/ThemeName'), 'Adwaita');
      assert.deepEqual(settings.get('Net/Colour'), [1, 2, 3, 4]);
    }
    assert.equal(parseXSettings(Buffer.alloc(3)).size, 0, 'a truncated property reads as no settings');
  });
});
