// Steps are what a disruptive call does between guard engage and settle. A tool call carries one
// or more; they run in order inside one transaction with a cancellation checkpoint before and
// after each (call/callLifecycle.ts; checked in stepNormalize.ts, run by call/stepRunners/).

import type { Modifier, Point } from '../model.js';
import type { MouseButton } from '../desktop.js';

/** Finds an element in the target app's current tree (query.ts). */
export interface ElementQuery {
  /** Case-insensitive substring of the element's text. */
  text?: string;
  /** Role filter, case-insensitive: matches a role that starts with or contains it ("button" matches "PushButton"). */
  role?: string;
  /** element_index from the latest snapshot of this pid. */
  index?: number;
}

/**
 * Where a click lands: a screen point (the space the tree prints, one for every tool), an
 * element, or a pixel of the app's last zoom image (zoom.ts).
 */
export type ClickTarget = { point: Point } | { query: ElementQuery } | { zoomPixel: Point };

export interface ClickStep {
  kind: 'click';
  target: ClickTarget;
  button: MouseButton;
  count: 1 | 2;
  modifiers: Modifier[];
}

export interface TypeStep {
  kind: 'type';
  text: string;
}

export interface PressStep {
  kind: 'press';
  key: string;
  modifiers: Modifier[];
  /** Times the key is pressed (1 when absent, at most LIMITS.keyRepeat); a cancel between two presses stops the rest. */
  count?: number;
}

/**
 * How text reaches its field: 'insert' through the accessibility API (at the caret, replacing the
 * selection, like a paste: one edit, nothing paced), 'keys' as paced keystrokes, 'auto' inserting
 * where the element takes it and typing keys otherwise.
 */
export type TextEntryMode = 'auto' | 'insert' | 'keys';

/** Text for a field: the focused one, or the element `query` names (see TextEntryMode). */
export interface TypeTextStep {
  kind: 'type-text';
  text: string;
  query?: ElementQuery;
  mode: TextEntryMode;
  /** The text replaces everything the field holds, not only its selection. */
  replace?: boolean;
}

export interface ScrollStep {
  kind: 'scroll';
  /** Where the wheel turns: a screen point, over an element (its centre), or a pixel of the last zoom. */
  target: ClickTarget;
  /** Lines; positive = content moves up (wheel down), like the reference server's deltaY. */
  deltaY: number;
  deltaX: number;
}

/** The time a drag takes when the caller does not say: slow enough for apps that follow the pointer. */
export const DEFAULT_DRAG_MS = 300;

/**
 * Press a button at `from`, move with it held to `to` over `durationMs`, release it there: a
 * slider's knob, a text selection, a file onto a folder. Each end is a pointer target like a
 * click's.
 */
export interface DragStep {
  kind: 'drag';
  from: ClickTarget;
  to: ClickTarget;
  button: MouseButton;
  modifiers: Modifier[];
  durationMs: number;
}

export interface WaitStep {
  kind: 'wait';
  ms: number;
}

/** Accessibility-action path, for apps that ignore synthetic input. */
export interface ElementActionStep {
  kind: 'element-action';
  query: ElementQuery;
  action: string;
}

export interface SetValueStep {
  kind: 'set-value';
  query: ElementQuery;
  value: string;
}

export interface SetSelectedStep {
  kind: 'set-selected';
  query: ElementQuery;
  selected: boolean;
}

export type Step =
  | ClickStep
  | TypeStep
  | TypeTextStep
  | PressStep
  | ScrollStep
  | DragStep
  | WaitStep
  | ElementActionStep
  | SetValueStep
  | SetSelectedStep;

/** A short human-readable label for the overlay and the feed ("Clicking", "Typing"…). */
export function stepVerb(step: Step): string {
  switch (step.kind) {
    case 'click':
      return step.count === 2 ? 'Double-clicking' : step.button === 'right' ? 'Right-clicking' : 'Clicking';
    case 'type':
    case 'type-text':
      return 'Typing';
    case 'press':
      return 'Pressing keys';
    case 'scroll':
      return 'Scrolling';
    case 'drag':
      return 'Dragging';
    case 'wait':
      return 'Waiting';
    case 'element-action':
      return 'Pressing';
    case 'set-value':
      return 'Setting a value';
    case 'set-selected':
      return 'Selecting';
  }
}
