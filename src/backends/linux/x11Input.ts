// Synthetic pointer and keyboard input over XTEST. The XTEST devices are not the human's, so
// this input passes while the guard (xinputGuard.ts) holds the human's devices.
//
// Input is paced (core/input/inputPacing.ts): a few events at a time, each batch followed by a
// _NET_WM_PING to the client receiving it (x11WmPing.ts), the next batch only once all but a
// small window has been handled. So an `ok` means the app handled everything, a cancel leaves
// nothing behind, and a server killed mid-typing leaves no backlog in the X server or the app.

import type { XTestExtension } from 'x11';
import type { ClickOptions, DragOptions, MouseButton } from '../../core/desktop.js';
import { dragPath } from '../../core/input/dragPath.js';
import { TandemError } from '../../core/errors.js';
import { DEFAULT_PACING, InputPacer, type ConsumptionBarrier, type InsertionCounter, type PacingOptions } from '../../core/input/inputPacing.js';
import { normalizeKey } from '../../core/input/keys.js';
import type { Modifier, Point } from '../../core/model.js';
import { sleep, throwIfAborted, type Progress } from '../../core/progress.js';
import type { X11Connection } from '../../../native/linux/x11Connection.js';
import {
  KEYSYM_SHIFT_L,
  Keymap,
  keysymForKey,
  modifierKeycode,
  planRemap,
  insertsCharacter,
  segmentsForSpareKeycodes,
  textToKeysyms,
  type KeyStroke,
  type RemapBatch,
} from './x11Keys.js';
import { XkbKeyEditor, keyBorrowing } from './x11KeyBorrowing.js';
import { X11WmPing, type ReceiverGroup } from './x11WmPing.js';
import type { X11Windows } from './x11Windows.js';

const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
const SCROLL_BUTTONS = { up: 4, down: 5, left: 6, right: 7 } as const;

/**
 * Without a ping answer to wait for (fixed pace), clients learn a changed keymap asynchronously:
 * typing before they did yields the old symbols…
 */
const REMAP_SETTLE_MS = 30;
/** …and they translate keys lazily, so the borrowed keycodes stay mapped a little after typing. */
const RESTORE_DELAY_MS = 50;
/**
 * Two single clicks at the same spot closer together than this are one double click to the
 * app (GTK's default double-click time is 400 ms, 5 px): a click of the next call on the same
 * field would select a word instead of placing the caret. The second click waits it out.
 */
const DOUBLE_CLICK_MS = 500;
const DOUBLE_CLICK_DISTANCE = 5;
/** A click that moves focus to another client needs this long before keys reach it (the window manager moves the X focus). */
const FOCUS_SETTLE_MS = 20;
/**
 * Keystrokes per batch. With DEFAULT_PACING's three batches in flight, at most 24 characters
 * are ever on their way; a GTK 3 entry takes in 8 characters in ~10 ms, longer than the ping's
 * round trip, so the app never waits for us.
 */
const KEYS_PER_BATCH = 8;
/** Wheel clicks per batch. */
const WHEEL_CLICKS_PER_BATCH = 5;
/** Core MappingNotify: sent to every client when the keyboard mapping changes. */
const MAPPING_NOTIFY = 34;

type Stroke = KeyStroke & { shiftKeycode: number | null };

export class X11Input {
  private lastClickAt = 0;
  private lastClickPoint: Point | null = null;
  private cachedKeymap: Promise<Keymap> | null = null;
  private readonly ping: X11WmPing;
  /** XKB key editing on its own connection, opened on the first text that needs it. */
  private xkbEditor: Promise<XkbKeyEditor | null> | null = null;

  constructor(
    private readonly connection: X11Connection,
    private readonly xtest: XTestExtension,
    windows: X11Windows,
    private readonly pacing: PacingOptions = DEFAULT_PACING,
  ) {
    this.ping = new X11WmPing(connection, windows);
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
    const modifiers = options.modifiers.length ? this.modifierKeycodes(await this.keymap(), options.modifiers, progress) : [];
    const pacer = this.pacer(await this.ping.pointerReceivers(point), progress, 1);
    await this.waitOutDoubleClick(point, progress);
    // One batch: the modifiers are pressed and released around the click whatever happens next.
    await pacer.send(1, () =>
      this.withModifiers(modifiers, () => {
        this.moveTo(point);
        for (let press = 0; press < options.count; press++) {
          this.xtest.FakeInput(this.xtest.ButtonPress, button, 0, this.connection.root, 0, 0);
          this.xtest.FakeInput(this.xtest.ButtonRelease, button, 0, this.connection.root, 0, 0);
        }
      }),
    );
    this.lastClickAt = Date.now();
    this.lastClickPoint = point;
    await pacer.finish();
  }

  /**
   * Press at `from`, motion along core's dragPath, release at `to` (the contract in
   * core/desktop.ts), each motion its own paced batch. Once the button is down, whatever ends the
   * drag early — Esc, the watchdog, an app that stops answering, an error — the finally block
   * releases it and the modifiers where the pointer is, on the spot (not behind a drain), then
   * waits, bounded and whatever the abort signal says, for the receiver to have handled it.
   */
  async drag(from: Point, to: Point, options: DragOptions, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    const button = BUTTONS[options.button];
    const modifiers = options.modifiers.length ? this.modifierKeycodes(await this.keymap(), options.modifiers, progress) : [];
    const path = dragPath(from, to, options.durationMs);
    const receivers = await this.ping.pointerReceivers(from);
    const pacer = this.pacer(receivers, progress, path.points.length + 2);
    // A press where the last click was, moments after it, would be its second click.
    await this.waitOutDoubleClick(from, progress);
    const { KeyPress, KeyRelease, ButtonPress, ButtonRelease } = this.xtest;
    const root = this.connection.root;
    let held = false;
    let at = from;
    const release = (): void => {
      this.xtest.FakeInput(ButtonRelease, button, 0, root, 0, 0);
      for (const keycode of [...modifiers].reverse()) this.xtest.FakeInput(KeyRelease, keycode, 0, root, 0, 0);
      held = false;
      this.lastClickAt = Date.now();
      this.lastClickPoint = at;
    };
    try {
      await pacer.send(1, () => {
        this.moveTo(from);
        for (const keycode of modifiers) this.xtest.FakeInput(KeyPress, keycode, 0, root, 0, 0);
        this.xtest.FakeInput(ButtonPress, button, 0, root, 0, 0);
        held = true;
      });
      for (const point of path.points) {
        if (path.intervalMs > 0) await sleep(path.intervalMs, progress);
        await pacer.send(1, () => {
          this.moveTo(point);
          at = point;
        });
      }
      await pacer.send(1, release);
      await pacer.finish();
    } finally {
      if (held) {
        release();
        progress.log(`the drag stopped early: the ${options.button} button was released at ${at.x},${at.y}`);
        await this.handledWithin(this.ping.barrier(receivers), this.pacing.drainCapMs);
      }
    }
  }

  /**
   * Waits, at most `ms` and deaf to the abort signal, for what was sent to be handled (a
   * release after a cancel must not be left behind). A lost connection ends the wait too.
   */
  private async handledWithin(barrier: ConsumptionBarrier, ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([barrier.mark(1).catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  private async waitOutDoubleClick(point: Point, progress: Progress): Promise<void> {
    const last = this.lastClickPoint;
    if (!last || Math.abs(last.x - point.x) > DOUBLE_CLICK_DISTANCE || Math.abs(last.y - point.y) > DOUBLE_CLICK_DISTANCE) return;
    const since = Date.now() - this.lastClickAt;
    if (since < DOUBLE_CLICK_MS) await sleep(DOUBLE_CLICK_MS - since, progress);
  }

  async pressKey(key: string, modifiers: Modifier[], progress: Progress): Promise<void> {
    throwIfAborted(progress);
    const keysym = keysymForKey(normalizeKey(key));
    const keymap = await this.keymap();
    await this.waitForFocus(progress);
    const pacer = this.pacer(await this.ping.keyReceivers(), progress, 1);
    const held = this.modifierKeycodes(keymap, modifiers, progress);
    await this.typeSegments(keymap, [[keysym]], pacer, progress, async (_segment, strokeFor) => {
      await pacer.send(1, () => this.withModifiers(held, () => this.tap(strokeFor(keysym))));
    });
  }

  /** `insertions`: the receiving app's count of inserted characters, a second bound on pacing. */
  async typeText(text: string, progress: Progress, insertions?: InsertionCounter): Promise<void> {
    throwIfAborted(progress);
    const keysyms = textToKeysyms(text);
    if (!keysyms.length) return;
    const keymap = await this.keymap();
    await this.waitForFocus(progress);
    const pacer = this.pacer(await this.ping.keyReceivers(), progress, keysyms.length, insertions);
    const segments = segmentsForSpareKeycodes(keymap, keysyms, Math.max(1, keymap.spareKeycodes().length));
    await this.typeSegments(keymap, segments, pacer, progress, async (segment, strokeFor) => {
      for (let start = 0; start < segment.length; start += KEYS_PER_BATCH) {
        const batch = segment.slice(start, start + KEYS_PER_BATCH);
        await pacer.send(
          batch.length,
          () => {
            for (const keysym of batch) this.tap(strokeFor(keysym));
          },
          batch.filter(insertsCharacter).length,
        );
      }
    });
  }

  /** Positive deltaY scrolls content down (wheel towards the user); positive deltaX right. */
  async scroll(point: Point, deltaX: number, deltaY: number, progress: Progress): Promise<void> {
    throwIfAborted(progress);
    const clicks = (count: number, positive: number, negative: number): Array<{ button: number; count: number }> =>
      count === 0 ? [] : [{ button: count > 0 ? positive : negative, count: Math.abs(Math.round(count)) }];
    // Counted, never expanded into one entry per click: the amount is bounded at the MCP
    // boundary, but nothing here is allocated in proportion to it.
    const runs = [...clicks(deltaY, SCROLL_BUTTONS.down, SCROLL_BUTTONS.up), ...clicks(deltaX, SCROLL_BUTTONS.right, SCROLL_BUTTONS.left)];
    const total = runs.reduce((sum, run) => sum + run.count, 0);
    const pacer = this.pacer(await this.ping.pointerReceivers(point), progress, total);
    await pacer.send(0, () => this.moveTo(point));
    for (const run of runs) {
      for (let done = 0; done < run.count; done += WHEEL_CLICKS_PER_BATCH) {
        const batch = Math.min(WHEEL_CLICKS_PER_BATCH, run.count - done);
        await pacer.send(batch, () => {
          for (let i = 0; i < batch; i++) {
            this.xtest.FakeInput(this.xtest.ButtonPress, run.button, 0, this.connection.root, 0, 0);
            this.xtest.FakeInput(this.xtest.ButtonRelease, run.button, 0, this.connection.root, 0, 0);
          }
        });
      }
    }
    await pacer.finish();
  }

  /** A paced stream to `receivers`; where none answers pings, a fixed pace, said once in the log. */
  private pacer(receivers: ReceiverGroup[], progress: Progress, total: number, insertions?: InsertionCounter): InputPacer & { confirmed: boolean } {
    const confirmed = receivers.length > 0;
    if (!confirmed) progress.log('the window receiving the input does not answer _NET_WM_PING: input is sent at a fixed pace, not paced by what the app has taken in');
    return Object.assign(new InputPacer(this.ping.barrier(receivers), progress, total, this.pacing, insertions), { confirmed });
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

  private tap(stroke: Stroke): void {
    const { KeyPress, KeyRelease } = this.xtest;
    const root = this.connection.root;
    const shift = stroke.shift ? stroke.shiftKeycode : null;
    if (shift) this.xtest.FakeInput(KeyPress, shift, 0, root, 0, 0);
    this.xtest.FakeInput(KeyPress, stroke.keycode, 0, root, 0, 0);
    this.xtest.FakeInput(KeyRelease, stroke.keycode, 0, root, 0, 0);
    if (shift) this.xtest.FakeInput(KeyRelease, shift, 0, root, 0, 0);
  }

  /** Keycodes of the modifiers this keyboard has (one without a key is logged and left out). */
  private modifierKeycodes(keymap: Keymap, modifiers: readonly Modifier[], progress: Progress): number[] {
    const keycodes: number[] = [];
    for (const modifier of modifiers) {
      const keycode = modifierKeycode(keymap, modifier);
      if (keycode === null) progress.log(`The ${modifier} modifier has no key on X11; sent without it.`);
      else keycodes.push(keycode);
    }
    return keycodes;
  }

  /** Writes the modifier presses, `act`'s events, then the releases in reverse order, in one go. */
  private withModifiers(keycodes: readonly number[], act: () => void): void {
    const { KeyPress, KeyRelease } = this.xtest;
    const root = this.connection.root;
    for (const keycode of keycodes) this.xtest.FakeInput(KeyPress, keycode, 0, root, 0, 0);
    try {
      act();
    } finally {
      for (const keycode of [...keycodes].reverse()) this.xtest.FakeInput(KeyRelease, keycode, 0, root, 0, 0);
    }
  }

  /**
   * Types segment after segment (segmentsForSpareKeycodes), each with the characters the layout
   * lacks put on spare keycodes by one mapping change, and gives the borrowed keycodes back in
   * one change at the end whatever happened. A segment's keys are all handled (the pacer's
   * finish) before the next mapping replaces theirs, and before the restore: an app translates
   * a keycode when it handles the key, so it must never see the mapping change under it.
   */
  private async typeSegments(
    keymap: Keymap,
    segments: readonly number[][],
    pacer: InputPacer & { confirmed: boolean },
    progress: Progress,
    typeSegment: (segment: readonly number[], strokeFor: (keysym: number) => Stroke) => Promise<void>,
  ): Promise<void> {
    const shiftKeycode = keymap.lookup(KEYSYM_SHIFT_L)?.keycode ?? null;
    const batches = segments.map((segment) => {
      try {
        return planRemap(keymap, segment)[0] as RemapBatch | undefined;
      } catch (error) {
        throw new TandemError('unsupported', `Cannot type these characters: ${(error as Error).message}`);
      }
    });
    const borrowing = batches.some(Boolean) ? keyBorrowing(await this.editor(), this.connection, keymap.spareKeycodes()) : null;
    try {
      for (const [index, segment] of segments.entries()) {
        const batch = batches[index];
        if (batch && borrowing) {
          // The keys follow the mapping change (a round trip has made sure of it), so the app sees
          // the change first; only a fixed pace (no ping answers) needs to give it time.
          await borrowing.borrow(batch);
          if (!pacer.confirmed) await sleep(REMAP_SETTLE_MS, progress);
        }
        const strokeFor = (keysym: number): Stroke => {
          const keycode = batch?.assigned.get(keysym);
          if (keycode !== undefined) return { keycode, shift: false, shiftKeycode };
          const stroke = keymap.lookup(keysym);
          if (!stroke) throw new TandemError('unsupported', `No key produces keysym 0x${keysym.toString(16)} on this keyboard layout.`);
          return { ...stroke, shiftKeycode };
        };
        await typeSegment(segment, strokeFor);
        await pacer.finish();
      }
    } finally {
      if (borrowing) {
        // Restoring must happen even when cancelled: wait without the abort signal.
        if (!pacer.confirmed) await sleep(RESTORE_DELAY_MS);
        await borrowing.restore();
      }
    }
  }

  /** The XKB editor, opened once (null without XKB, or when it cannot be opened: core requests then). */
  private editor(): Promise<XkbKeyEditor | null> {
    this.xkbEditor ??= XkbKeyEditor.open(this.connection.name).catch((error: unknown) => {
      console.error(`[x11] XKB unavailable, typing uses core keymap changes: ${(error as Error).message}`);
      return null;
    });
    return this.xkbEditor;
  }

  async close(): Promise<void> {
    const editor = await this.xkbEditor;
    this.xkbEditor = null;
    await editor?.close();
  }



  private async waitForFocus(progress: Progress): Promise<void> {
    const since = Date.now() - this.lastClickAt;
    if (since < FOCUS_SETTLE_MS) await sleep(FOCUS_SETTLE_MS - since, progress);
  }
}
