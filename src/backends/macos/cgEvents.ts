// Synthetic input through CoreGraphics events. Every event carries Tandem's marker in
// kCGEventSourceUserData (so the guard's tap lets it through) and explicit flags (so a modifier
// the person happens to hold does not leak into a click or a keystroke (?)). Events are posted
// at the HID tap location so they travel through the session-level guard tap like hardware
// input would (?).

import type { ClickOptions, KeyName, MouseButton } from '../../core/desktop.js';
import type { Modifier, Point } from '../../core/model.js';
import { TandemError } from '../../core/errors.js';
import type { MacNative, NullableRef, Ref } from '../../../native/macos/macNative.js';
import { CGEventField, CGEventTapLocation, CGEventType, CGMouseButton, kCGScrollEventUnitLine } from '../../../native/macos/macNative.js';
import { isLayoutLetter, layoutKeyStroke, modifierFlags, NAMED_KEYCODES, requireKeyStroke } from './macKeys.js';
import { COUNTED_OWN_EVENT_TYPES, TANDEM_EVENT_MARKER } from './cgEventTapPolicy.js';

/** CGEventKeyboardSetUnicodeString keeps at most 20 UTF-16 units per event. */
export const MAX_UNICODE_UNITS = 20;
/** Apps treat large wheel deltas unpredictably: at most this many lines per scroll event. */
export const MAX_LINES_PER_SCROLL_EVENT = 10;

/** Splits text into chunks of ≤ maxUnits UTF-16 code units, never between a surrogate pair. */
export function chunkUtf16(text: string, maxUnits = MAX_UNICODE_UNITS): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const codePoint of text) {
    if (current.length + codePoint.length > maxUnits) {
      chunks.push(current);
      current = '';
    }
    current += codePoint;
  }
  if (current) chunks.push(current);
  return chunks;
}

export type TextPiece = { kind: 'text'; text: string } | { kind: 'key'; key: 'return' | 'tab' };

/**
 * Typing plan: line breaks become Return key presses (apps ignore a unicode "\n"), tabs Tab
 * presses; the rest goes as unicode chunks.
 */
export function planText(text: string, maxUnits = MAX_UNICODE_UNITS): TextPiece[] {
  const pieces: TextPiece[] = [];
  for (const part of text.split(/(\r\n|\r|\n|\t)/)) {
    if (part === '') continue;
    if (part === '\t') pieces.push({ kind: 'key', key: 'tab' });
    else if (part === '\n' || part === '\r' || part === '\r\n') pieces.push({ kind: 'key', key: 'return' });
    else for (const chunk of chunkUtf16(part, Math.min(maxUnits, MAX_UNICODE_UNITS))) pieces.push({ kind: 'text', text: chunk });
  }
  return pieces;
}

/** Characters (code points) a piece types: what paced input counts and reports. */
export function pieceUnits(piece: TextPiece): number {
  return piece.kind === 'key' ? 1 : [...piece.text].length;
}

const BUTTONS: Record<MouseButton, { down: number; up: number; dragged: number; button: number }> = {
  left: { down: CGEventType.leftMouseDown, up: CGEventType.leftMouseUp, dragged: CGEventType.leftMouseDragged, button: CGMouseButton.left },
  right: { down: CGEventType.rightMouseDown, up: CGEventType.rightMouseUp, dragged: CGEventType.rightMouseDragged, button: CGMouseButton.right },
  middle: { down: CGEventType.otherMouseDown, up: CGEventType.otherMouseUp, dragged: CGEventType.otherMouseDragged, button: CGMouseButton.center },
};

/** Wheel deltas for a scroll of (deltaX, deltaY) lines, split into events of ≤ 10 lines. */
export function planScroll(deltaX: number, deltaY: number): Array<{ wheel1: number; wheel2: number }> {
  // Desktop.scroll: positive deltaY scrolls content down (wheel towards the user) = a negative
  // wheel1 in CoreGraphics; positive deltaX scrolls right = negative wheel2 (?).
  let y = -Math.round(deltaY) || 0; // never -0
  let x = -Math.round(deltaX) || 0;
  const steps: Array<{ wheel1: number; wheel2: number }> = [];
  while (y !== 0 || x !== 0) {
    const stepY = Math.max(-MAX_LINES_PER_SCROLL_EVENT, Math.min(MAX_LINES_PER_SCROLL_EVENT, y));
    const stepX = Math.max(-MAX_LINES_PER_SCROLL_EVENT, Math.min(MAX_LINES_PER_SCROLL_EVENT, x));
    steps.push({ wheel1: stepY, wheel2: stepX });
    y -= stepY;
    x -= stepX;
  }
  return steps;
}

export class CGEventInput {
  /** Own events posted whose types the guard's tap counts (COUNTED_OWN_EVENT_TYPES): the barrier compares. */
  countedPosted = 0;

  constructor(
    private readonly native: Pick<MacNative, 'cf' | 'cg'> & Partial<Pick<MacNative, 'hiToolbox'>>,
    private readonly marker: bigint = TANDEM_EVENT_MARKER,
  ) {}

  /** Tags, flags, posts and releases one event (created +1 by the caller). */
  private post(created: NullableRef, flags: bigint, what: string): void {
    if (created === null) throw new TandemError('internal', `macOS refused to create a ${what} event.`);
    const event: Ref = created;
    try {
      const { cg } = this.native;
      cg.CGEventSetIntegerValueField(event, CGEventField.eventSourceUserData, this.marker);
      cg.CGEventSetFlags(event, flags);
      cg.CGEventPost(CGEventTapLocation.hid, event);
      if (COUNTED_OWN_EVENT_TYPES.has(cg.CGEventGetType(event))) this.countedPosted++;
    } finally {
      this.native.cf.CFRelease(event);
    }
  }

  private mouse(type: number, point: Point, button: number, flags: bigint, clickState?: number): void {
    const created = this.native.cg.CGEventCreateMouseEvent(null, type, { x: point.x, y: point.y }, button);
    if (created !== null && clickState !== undefined) {
      this.native.cg.CGEventSetIntegerValueField(created, CGEventField.mouseEventClickState, BigInt(clickState));
    }
    this.post(created, flags, 'mouse');
  }

  moveTo(point: Point): void {
    this.mouse(CGEventType.mouseMoved, point, CGMouseButton.left, 0n);
  }

  /** Double click = a second down/up pair whose click state is 2 (that is what apps count). */
  click(point: Point, options: ClickOptions): void {
    const spec = BUTTONS[options.button];
    const flags = modifierFlags(options.modifiers);
    this.moveTo(point);
    for (let clickState = 1; clickState <= options.count; clickState++) {
      this.mouse(spec.down, point, spec.button, flags, clickState);
      this.mouse(spec.up, point, spec.button, flags, clickState);
    }
  }

  /**
   * The parts of a drag (MacDesktop.drag paces them): the button pressed at a point, "dragged"
   * events while it is held (apps ignore plain moves then, and a bare down/up pair drags
   * nothing), released at a point. The modifiers go in every event's flags.
   */
  pressButton(point: Point, button: MouseButton, modifiers: readonly Modifier[]): void {
    this.moveTo(point);
    this.mouse(BUTTONS[button].down, point, BUTTONS[button].button, modifierFlags(modifiers), 1);
  }

  dragTo(point: Point, button: MouseButton, modifiers: readonly Modifier[]): void {
    this.mouse(BUTTONS[button].dragged, point, BUTTONS[button].button, modifierFlags(modifiers));
  }

  releaseButton(point: Point, button: MouseButton, modifiers: readonly Modifier[]): void {
    this.mouse(BUTTONS[button].up, point, BUTTONS[button].button, modifierFlags(modifiers), 1);
  }

  private keyEvent(keycode: number, down: boolean, flags: bigint): void {
    this.post(this.native.cg.CGEventCreateKeyboardEvent(null, keycode, down), flags, 'keyboard');
  }

  pressKey(key: KeyName, modifiers: readonly Modifier[]): void {
    // The layout is read for letters only: named keys and digits keep their kVK codes, and the
    // Text Input Source calls (main thread only, TextInputSources.h) are not made for them.
    const layout = isLayoutLetter(key) ? this.native.hiToolbox?.keyboardLayoutKeys?.() : undefined;
    const stroke = layoutKeyStroke(key, layout) ?? requireKeyStroke(key);
    const flags = modifierFlags(modifiers) | (stroke.shift ? modifierFlags(['shift']) : 0n);
    this.keyEvent(stroke.keycode, true, flags);
    this.keyEvent(stroke.keycode, false, flags);
  }

  /** One key down/up pair carrying up to 20 UTF-16 units of text, no modifiers. */
  private unicodeChunk(chunk: string): void {
    const utf16 = Buffer.from(chunk, 'utf16le');
    for (const down of [true, false]) {
      const created = this.native.cg.CGEventCreateKeyboardEvent(null, 0, down);
      if (created !== null) this.native.cg.CGEventKeyboardSetUnicodeString(created, utf16);
      this.post(created, 0n, 'text');
    }
  }

  /** One piece of a typing plan (planText): a named key press or a unicode chunk. */
  typePiece(piece: TextPiece): void {
    if (piece.kind === 'key') {
      const keycode = NAMED_KEYCODES[piece.key];
      this.keyEvent(keycode, true, 0n);
      this.keyEvent(keycode, false, 0n);
    } else {
      this.unicodeChunk(piece.text);
    }
  }

  typeText(text: string): void {
    for (const piece of planText(text)) this.typePiece(piece);
  }

  /** Scrolls at `point`: the wheel goes to the window under the pointer, so move there first. */
  scroll(point: Point, deltaX: number, deltaY: number): void {
    this.moveTo(point);
    for (const step of planScroll(deltaX, deltaY)) this.scrollStep(step);
  }

  /** One wheel event of a scroll plan (planScroll), at the pointer. */
  scrollStep(step: { wheel1: number; wheel2: number }): void {
    this.post(this.native.cg.CGEventCreateScrollWheelEvent2(null, kCGScrollEventUnitLine, 2, step.wheel1, step.wheel2, 0), 0n, 'scroll');
  }

  cursorPosition(): Point {
    const { cg, cf } = this.native;
    const event = cg.CGEventCreate(null);
    if (event === null) throw new TandemError('internal', 'macOS refused to create an event to read the cursor position.');
    try {
      const location = cg.CGEventGetLocation(event);
      return { x: location.x, y: location.y };
    } finally {
      cf.CFRelease(event);
    }
  }

  /** Moves the pointer without posting an event (the guard never sees it). */
  warp(point: Point): void {
    const error = this.native.cg.CGWarpMouseCursorPosition({ x: point.x, y: point.y });
    if (error !== 0) throw new TandemError('internal', `Moving the pointer failed (CGError ${error}).`);
  }
}
