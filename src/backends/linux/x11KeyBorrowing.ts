// Putting characters the keyboard layout lacks on spare keycodes for a moment, and giving the
// keycodes back. Every keyboard mapping change makes each client reload its keymap and the
// window manager rebind all its keys (openbox: ~34 ms of CPU each, holding the person's clicks
// meanwhile). So the change is made with as few requests as the server allows:
//   - XKB (every X server today): one SetMap per batch over the span of spare keycodes, the keys
//     between them written back exactly as read; one more to restore. A 140-character text in
//     five scripts: 6 requests.
//   - core ChangeKeyboardMapping (no XKB): one request per run of consecutive spare keycodes
//     (writing a key with symbols back through the core request is lossy under XKB, so only the
//     spare ones are touched). The same text: 166 requests.

import type { XkbExtension } from 'x11';
import { X11Connection } from '../../../native/linux/x11Connection.js';
import { oneLevelKey, parseXkbKeySymsReply, xkbGetKeySymsRequest, xkbSetKeySymsRequest, type XkbKeySymRange } from '../../../native/linux/xkbKeySymRequests.js';
import type { KeymapChange, RemapBatch } from './x11Keys.js';

export interface KeyBorrowing {
  /** Maps the batch's characters (on top of what an earlier batch borrowed); resolves once the server has done it. */
  borrow(batch: RemapBatch): Promise<void>;
  /** Gives every borrowed keycode back its original (empty) mapping. Never throws. */
  restore(): Promise<void>;
}

/** XKB key symbols, on a connection of their own (see XkbKeyEditor). */
class XkbKeyBorrowing implements KeyBorrowing {
  private original: XkbKeySymRange | null = null;
  private changed = false;

  constructor(
    private readonly editor: XkbKeyEditor,
    private readonly spare: readonly number[],
  ) {}

  async borrow(batch: RemapBatch): Promise<void> {
    this.original ??= await this.editor.read(Math.min(...this.spare), Math.max(...this.spare));
    const original = this.original;
    const keys = original.keys.map((key, offset) => {
      const keycode = original.firstKeycode + offset;
      const keysym = [...batch.assigned].find(([, assigned]) => assigned === keycode)?.[0];
      return keysym === undefined ? key : oneLevelKey(keysym);
    });
    this.changed = true;
    await this.editor.write({ ...original, keys });
  }

  async restore(): Promise<void> {
    if (!this.changed || !this.original) return;
    this.changed = false;
    await this.editor.write(this.original).catch((error: unknown) => console.error(`[x11] could not restore the keyboard mapping: ${(error as Error).message}`));
  }
}

/** Core requests, one per run of spare keycodes (the fallback without XKB). */
class CoreKeyBorrowing implements KeyBorrowing {
  private readonly restores: KeymapChange[] = [];

  constructor(
    private readonly connection: X11Connection,
  ) {}

  async borrow(batch: RemapBatch): Promise<void> {
    this.change(batch.apply);
    this.restores.push(...batch.restore);
    await this.connection.sync();
  }

  async restore(): Promise<void> {
    if (!this.restores.length) return;
    this.change(this.restores.splice(0));
    await this.connection.sync().catch(() => {});
  }

  private change(changes: readonly KeymapChange[]): void {
    for (const change of changes) this.connection.client.ChangeKeyboardMapping(change.firstKeycode, change.keysymsPerKeycode, change.keysyms);
  }
}

/**
 * Reads and writes XKB key symbols on its own connection: a client that initialises XKB gets
 * XKB map notifications instead of the core MappingNotify the input connection relies on. The
 * round trip after each write orders it before any key sent on the input connection afterwards.
 */
export class XkbKeyEditor {
  private constructor(
    private readonly connection: X11Connection,
    private readonly xkb: XkbExtension,
  ) {}

  /** null when the display has no XKB (then the core requests are used). */
  static async open(displayName: string): Promise<XkbKeyEditor | null> {
    const connection = await X11Connection.open(displayName);
    const xkb = await connection.request<XkbExtension>((callback) => connection.client.require('xkb', callback)).catch(() => null);
    if (xkb?.supported) return new XkbKeyEditor(connection, xkb);
    await connection.close();
    return null;
  }

  read(firstKeycode: number, lastKeycode: number): Promise<XkbKeySymRange> {
    return this.connection.requestRaw(xkbGetKeySymsRequest(this.xkb.majorOpcode, firstKeycode, lastKeycode - firstKeycode + 1), parseXkbKeySymsReply);
  }

  async write(range: XkbKeySymRange): Promise<void> {
    this.connection.sendRaw(xkbSetKeySymsRequest(this.xkb.majorOpcode, range));
    await this.connection.sync();
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

/** The cheapest way this display offers to borrow `spare` keycodes for one typing. */
export function keyBorrowing(editor: XkbKeyEditor | null, connection: X11Connection, spare: readonly number[]): KeyBorrowing {
  return editor && spare.length ? new XkbKeyBorrowing(editor, spare) : new CoreKeyBorrowing(connection);
}
