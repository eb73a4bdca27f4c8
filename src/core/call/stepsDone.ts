// What each step of an acting call did, as facts: the transaction records one StepDone per step
// that ran (in CallResult.stepsDone), and src/mcp/renderSteps.ts words it ("clicked [PushButton]
// "OK" at 10,20"). Elements are named by their tree label (formatElementLabel) and text by what
// may be shown of it (shownText: a secure field's text is never in a fact).

import type { Point } from '../model.js';

/** Where a pointer went, and the element there when known (its tree label). */
export interface DoneAt {
  point: Point;
  element?: string;
}

/** Clicking an element that was out of view scrolled it in first: how far, and what it reached. */
export interface ScrolledInto {
  lines: number;
  direction: string;
  target: string;
}

export type StepDone =
  | { kind: 'click'; button: 'left' | 'right' | 'middle'; count: number; at: DoneAt; modifiers: string[]; scrolled?: ScrolledInto }
  | { kind: 'type'; text: string }
  | { kind: 'insert'; text: string; into: string }
  /** type_text as keys: the element clicked first to give it the focus, else the element that had it. */
  | { kind: 'type-keys'; text: string; clicked?: DoneAt & { scrolled?: ScrolledInto }; into?: string; selectedAll?: string }
  /** `pressed` below `count` when a stop came between the presses. */
  | { kind: 'press'; keys: string; count: number; pressed: number }
  | { kind: 'scroll'; deltaX: number; deltaY: number; at: DoneAt }
  | { kind: 'drag'; from: DoneAt; to: DoneAt; durationMs: number; button: 'left' | 'right' | 'middle'; modifiers: string[] }
  | { kind: 'wait'; ms: number }
  /**
   * `pointMissed`: a click on the element ran as this action because the app's hit test put
   * another element (`reached`, its tree label) at the element's reported centre `point`.
   */
  | { kind: 'element-action'; action: string; element: string; pointMissed?: { point: Point; reached: string } }
  | { kind: 'set-value'; element: string; value: string }
  | { kind: 'set-selected'; selected: boolean; element: string };

/** How the facts of the steps done read, for core's own texts (the call's file, a late Esc's message). */
export type DescribeSteps = (done: readonly StepDone[]) => string;
