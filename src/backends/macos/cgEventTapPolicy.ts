// What the input guard's event tap does with one event. Pure, so the rule that decides whether a
// person is locked out is unit-tested on Linux; the tap worker (cgEventTapWorker.ts) only calls it.

import { CGEventType } from '../../../native/macos/macNative.js';
import { HELD_MODIFIER_MASK } from './macKeys.js';

/** Tandem's marker in kCGEventSourceUserData (field 42): "TANDEM" in ASCII. */
export const TANDEM_EVENT_MARKER = 0x54414e44454dn;

const KEYCODE_ESCAPE = 0x35;
/** kVK_Return and kVK_ANSI_KeypadEnter (HIToolbox Events.h): the person's yes to a question the overlay asks. */
const KEYCODES_ENTER: ReadonlySet<number> = new Set([0x24, 0x4c]);

const KEY_EVENTS = new Set<number>([CGEventType.keyDown, CGEventType.keyUp, CGEventType.flagsChanged]);
const POINTER_EVENTS = new Set<number>([
  CGEventType.leftMouseDown,
  CGEventType.leftMouseUp,
  CGEventType.rightMouseDown,
  CGEventType.rightMouseUp,
  CGEventType.mouseMoved,
  CGEventType.leftMouseDragged,
  CGEventType.rightMouseDragged,
  CGEventType.scrollWheel,
  CGEventType.otherMouseDown,
  CGEventType.otherMouseUp,
  CGEventType.otherMouseDragged,
]);

/**
 * Tandem's own events the tap counts as they pass (the first half of the paced-input barrier,
 * macBarrier.ts). Moves and drags are left out: the window server may coalesce consecutive ones,
 * so a count of them could never add up.
 */
export const COUNTED_OWN_EVENT_TYPES: ReadonlySet<number> = new Set<number>([
  CGEventType.keyDown,
  CGEventType.keyUp,
  CGEventType.leftMouseDown,
  CGEventType.leftMouseUp,
  CGEventType.rightMouseDown,
  CGEventType.rightMouseUp,
  CGEventType.otherMouseDown,
  CGEventType.otherMouseUp,
  CGEventType.scrollWheel,
]);

/** The event types the tap listens to (CGEventMaskBit of each), 64-bit. */
export const GUARDED_EVENT_MASK: bigint = [...KEY_EVENTS, ...POINTER_EVENTS].reduce((mask, type) => mask | (1n << BigInt(type)), 0n);

export interface TapEventFacts {
  type: number;
  /** kCGKeyboardEventKeycode (only meaningful for key events). */
  keycode: number;
  flags: bigint;
  /** kCGEventSourceUserData. */
  userData: bigint;
}

export type TapDecision =
  | { action: 'pass' }
  /** One of Tandem's own events (it carries the marker): passes, and is counted when `counted`. */
  | { action: 'pass-ours'; counted: boolean }
  | { action: 'reenable' }
  | { action: 'escape' }
  /** Plain Return or keypad Enter from the person: swallowed like any key, and reported. */
  | { action: 'enter' }
  | { action: 'swallow'; kind: 'key' | 'pointer' };

export function decideTapEvent(event: TapEventFacts, marker: bigint = TANDEM_EVENT_MARKER): TapDecision {
  if (event.type === CGEventType.tapDisabledByTimeout || event.type === CGEventType.tapDisabledByUserInput) {
    return { action: 'reenable' };
  }
  const isKey = KEY_EVENTS.has(event.type);
  if (!isKey && !POINTER_EVENTS.has(event.type)) return { action: 'pass' };
  if (event.userData === marker) return { action: 'pass-ours', counted: COUNTED_OWN_EVENT_TYPES.has(event.type) };
  if (event.type === CGEventType.keyDown && event.keycode === KEYCODE_ESCAPE && (event.flags & HELD_MODIFIER_MASK) === 0n) {
    return { action: 'escape' };
  }
  if (event.type === CGEventType.keyDown && KEYCODES_ENTER.has(event.keycode) && (event.flags & HELD_MODIFIER_MASK) === 0n) {
    return { action: 'enter' };
  }
  return { action: 'swallow', kind: isKey ? 'key' : 'pointer' };
}
