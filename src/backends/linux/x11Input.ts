// Synthetic pointer and keyboard input over XTEST. The XTEST devices are not the human's, so
// this input passes while the guard (xinputGuard.ts) holds the human's devices.

import type { XTestExtension } from 'x11';
import type { ClickOptions, MouseButton } from '../../core/desktop.js';
import { TandemError } from '../../core/errors.js';
import { normalizeKey } from '../../core/keys.js';
import type { Modifier, Point } from '../../core/model.js';
import { sleep, throwIfAborted, type Progress } from '../../core/progress.js';
import type { X11Connection } from '../../../native/linux/x11Connection.js';
import {
  KEYSYM_SHIFT_L,
  Keymap,
  keysymForKey,
  modifierKeycode,
  planRemap,
  segmentsForSpareKeycodes,
  textToKeysyms,
  type KeymapChange,
  type KeyStroke,
  type RemapBatch,
} from './x11Keys.js';

const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
const SCROLL_BUTTONS = { up: 4, down: 5, left: 6, right: 7 } as const;

/** Clients learn a changed keymap asynchronously: typing before they did yields the old symbols. */
const REMAP_SETTLE_MS = 30;
/** …and they translate keys lazily, so the borrowed keycodes stay mapped a little after typing. */
const RESTORE_DELAY_MS = 50;
/** A click that moves focus needs this long before keys reach the new focus owner. */
const FOCUS_SETTLE_MS = 20;
/** Keys sent between two abort checks (and round trips). */
const CHUNK = 16;
/** Core MappingNotify: sent to every client when the keyboard mapping changes. */
const MAPPING_NOTIFY = 34;

export class X11Input {
  private lastClickAt = 0;
  private cachedKeymap: Promise<Keymap> | null = null;

  constructor(
    private readonly connection: X11Connection,
    private readonly xtest: XTestExtension,
  ) {
    connection.onEvent((event) => {
      if ((event.type & 0x7f) === MAPPING_NOTIFY) this.cachedKeymap = null;
    });
  }

  moveTo(point: Point): void {
    this.xtest.FakeInput(this.xtest.MotionNotify, 0, 0, this.connection.root, Math.round(point.x), Math.round(point.y));
  }

  async click(point: Point, options: ClickOptions, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    const button = BUTTONS[options.button];
    const keymap = options.modifiers.length ? await this.keymap() : null;
    await this.withModifiers(keymap, options.modifiers, progress, async () => {
      this.moveTo(point);
      for (let press = 0; press < options.count; press++) {
        this.xtest.FakeInput(this.xtest.ButtonPress, button, 0, this.connection.root, 0, 0);
        this.xtest.FakeInput(this.xtest.ButtonRelease, button, 0, this.connection.root, 0, 0);
      }
    });
    this.lastClickAt = Date.now();
  }

  async pressKey(key: string, modifiers: Modifier[], progress: Progress): Promise<void> {
    throwIfAborted(progress);
    const keysym = keysymForKey(normalizeKey(key));
    const keymap = await this.keymap();
    await this.waitForFocus(progress);
    await this.withRemap(keymap, [keysym], progress, async (strokeFor) => {
      await this.withModifiers(keymap, modifiers, progress, async () => this.tap(strokeFor(keysym)));
    });
  }

  async typeText(text: string, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    const keysyms = textToKeysyms(text);
    if (!keysyms.length) return;
    const keymap = await this.keymap();
    await this.waitForFocus(progress);
    const spareCount = keymap.spareKeycodes().length;
    for (const segment of segmentsForSpareKeycodes(keymap, keysyms, Math.max(1, spareCount))) {
      await this.withRemap(keymap, segment, progress, async (strokeFor) => {
        for (let start = 0; start < segment.length; start += CHUNK) {
          throwIfAborted(progress);
          for (const keysym of segment.slice(start, start + CHUNK)) this.tap(strokeFor(keysym));
          await this.connection.sync();
        }
      });
    }
  }

  /** Positive deltaY scrolls content down (wheel towards the user); positive deltaX right. */
  async scroll(point: Point, deltaX: number, deltaY: number, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    this.moveTo(point);
    const steps: number[] = [
      ...new Array<number>(Math.abs(Math.round(deltaY))).fill(deltaY > 0 ? SCROLL_BUTTONS.down : SCROLL_BUTTONS.up),
      ...new Array<number>(Math.abs(Math.round(deltaX))).fill(deltaX > 0 ? SCROLL_BUTTONS.right : SCROLL_BUTTONS.left),
    ];
    for (const button of steps) {
      throwIfAborted(progress);
      this.xtest.FakeInput(this.xtest.ButtonPress, button, 0, this.connection.root, 0, 0);
      this.xtest.FakeInput(this.xtest.ButtonRelease, button, 0, this.connection.root, 0, 0);
      await this.connection.sync();
    }
    await this.connection.sync();
  }

  /** The keyboard mapping, cached until the server announces a change (MappingNotify). */
  async keymap(): Promise<Keymap> {
    const pending = (this.cachedKeymap ??= this.fetchKeymap());
    try {
      return await pending;
    } catch (error) {
      if (this.cachedKeymap === pending) this.cachedKeymap = null;
      throw error;
    }
  }

  private async fetchKeymap(): Promise<Keymap> {
    const { min_keycode: min, max_keycode: max } = this.connection.display;
    const rows = await this.connection.request<number[][]>((callback) => this.connection.client.GetKeyboardMapping(min, max - min + 1, callback));
    return new Keymap(min, rows);
  }

  private tap(stroke: KeyStroke & { shiftKeycode: number | null }): void {
    const { KeyPress, KeyRelease } = this.xtest;
    const root = this.connection.root;
    const shift = stroke.shift ? stroke.shiftKeycode : null;
    if (shift) this.xtest.FakeInput(KeyPress, shift, 0, root, 0, 0);
    this.xtest.FakeInput(KeyPress, stroke.keycode, 0, root, 0, 0);
    this.xtest.FakeInput(KeyRelease, stroke.keycode, 0, root, 0, 0);
    if (shift) this.xtest.FakeInput(KeyRelease, shift, 0, root, 0, 0);
  }

  /** Presses the modifiers, runs `act`, then releases them in reverse order whatever happened. */
  private async withModifiers(keymap: Keymap | null, modifiers: readonly Modifier[], progress: Progress, act: () => Promise<void> | void): Promise<void> {
    const keycodes: number[] = [];
    for (const modifier of modifiers) {
      const keycode = keymap ? modifierKeycode(keymap, modifier) : null;
      if (keycode === null) {
        progress.log(`The ${modifier} modifier has no key on X11; sent without it.`);
        continue;
      }
      keycodes.push(keycode);
    }
    const { KeyPress, KeyRelease } = this.xtest;
    const root = this.connection.root;
    try {
      for (const keycode of keycodes) this.xtest.FakeInput(KeyPress, keycode, 0, root, 0, 0);
      await act();
    } finally {
      for (const keycode of [...keycodes].reverse()) this.xtest.FakeInput(KeyRelease, keycode, 0, root, 0, 0);
      await this.connection.sync();
    }
  }

  /**
   * Runs `act` with every keysym of `keysyms` reachable: characters the layout lacks are put on
   * spare keycodes in one batch, given time to reach the clients, and the layout is restored
   * afterwards whatever happened.
   */
  private async withRemap(
    keymap: Keymap,
    keysyms: readonly number[],
    progress: Progress,
    act: (strokeFor: (keysym: number) => KeyStroke & { shiftKeycode: number | null }) => Promise<void>,
  ): Promise<void> {
    let batch: RemapBatch | undefined;
    try {
      [batch] = planRemap(keymap, keysyms);
    } catch (error) {
      throw new TandemError('unsupported', `Cannot type these characters: ${(error as Error).message}`);
    }
    const shiftKeycode = keymap.lookup(KEYSYM_SHIFT_L)?.keycode ?? null;
    const strokeFor = (keysym: number): KeyStroke & { shiftKeycode: number | null } => {
      const borrowed = batch?.assigned.get(keysym);
      if (borrowed !== undefined) return { keycode: borrowed, shift: false, shiftKeycode };
      const stroke = keymap.lookup(keysym);
      if (!stroke) throw new TandemError('unsupported', `No key produces keysym 0x${keysym.toString(16)} on this keyboard layout.`);
      return { ...stroke, shiftKeycode };
    };
    if (!batch) {
      await act(strokeFor);
      return;
    }
    this.changeKeymap(batch.apply);
    try {
      await this.connection.sync();
      await sleep(REMAP_SETTLE_MS, progress);
      await act(strokeFor);
    } finally {
      // Restoring must happen even when cancelled: wait without the abort signal.
      await sleep(RESTORE_DELAY_MS);
      this.changeKeymap(batch.restore);
      await this.connection.sync().catch(() => {});
    }
  }

  private changeKeymap(changes: readonly KeymapChange[]): void {
    for (const change of changes) {
      this.connection.client.ChangeKeyboardMapping(change.firstKeycode, change.keysymsPerKeycode, change.keysyms);
    }
  }

  private async waitForFocus(progress: Progress): Promise<void> {
    const since = Date.now() - this.lastClickAt;
    if (since < FOCUS_SETTLE_MS) await sleep(FOCUS_SETTLE_MS - since, progress);
  }
}
