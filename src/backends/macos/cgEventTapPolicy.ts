// What the input guard's event tap does with one event. Pure, so the rule that decides whether a
// person is locked out is unit-tested on Linux; the tap worker (cgEventTapWorker.ts) only calls it.

import { CGEventFlag, CGEventType } from '../../../native/macos/macNative.js';
import { HELD_MODIFIER_MASK } from './macKeys.js';

/** Tandem's marker in kCGEventSourceUserData (field 42): "TANDEM" in ASCII. */
export const TANDEM_EVENT_MARKER = 0x54414e44454dn;

const KEYCODE_ESCAPE = 0x35;
/** kVK_Return and kVK_ANSI_KeypadEnter (HIToolbox Events.h): the person's yes to a question the overlay asks. */
const KEYCODES_ENTER: ReadonlySet<number> = new Set([0x24, 0x4c]);
/**
 * Modifiers that make an Enter no plain answer. Fn is left out: on Apple laptops fn+Return is how
 * keypad Enter is typed. Caps Lock (maskAlphaShift) and maskNumericPad — set on every keypad key,
 * keypad Enter included — are states of the key, not modifiers held with it.
 */
const ENTER_MODIFIER_MASK = CGEventFlag.shift | CGEventFlag.control | CGEventFlag.alternate | CGEventFlag.command;
/**
 * kCGEventSourceStateHIDSystemState: the state table of "all hardware event sources posting from
 * the HID system" (CGEventSourceStateID). Another process's posted Return carries its own source
 * state (combined session or private) and must not answer for the person.
 */
export const HID_SYSTEM_SOURCE_STATE = 1n;
/**
 * kCGEventSourceUnixProcessID of the keyboard's own events: no process posted them. A program
 * allowed to post events may also create its source on the HID system state table (key-posting
 * tools do), but its events still name it as their poster, so the state alone is no proof.
 */
export const HARDWARE_SOURCE_PID = 0n;

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
  /** kCGKeyboardEventAutorepeat non-zero: a held key repeating, not a new press (key downs only). */
  autorepeat?: boolean;
  /** kCGEventSourceStateID (key downs only): HID_SYSTEM_SOURCE_STATE for the keyboard's own events. */
  sourceStateId?: bigint;
  /** kCGEventSourceUnixProcessID (key downs only): HARDWARE_SOURCE_PID for the keyboard's own events. */
  sourcePid?: bigint;
}

export type TapDecision =
  | { action: 'pass' }
  /** One of Tandem's own events (it carries the marker): passes, and is counted when `counted`. */
  | { action: 'pass-ours'; counted: boolean }
  | { action: 'reenable' }
  | { action: 'escape' }
  /**
   * A fresh press of plain Return or keypad Enter from the keyboard itself (not a repeat of a held
   * key, not another process's posted event): swallowed like any key, and reported.
   */
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
  if (isPersonsEnter(event)) return { action: 'enter' };
  return { action: 'swallow', kind: isKey ? 'key' : 'pointer' };
}

function isPersonsEnter(event: TapEventFacts): boolean {
  return (
    event.type === CGEventType.keyDown &&
    KEYCODES_ENTER.has(event.keycode) &&
    (event.flags & ENTER_MODIFIER_MASK) === 0n &&
    event.autorepeat !== true &&
    event.sourceStateId === HID_SYSTEM_SOURCE_STATE &&
    event.sourcePid === HARDWARE_SOURCE_PID
  );
}
