// What one tool call returns, before any protocol formatting. The MCP layer renders it as
// `key: value` text plus structuredContent; the app's live feed renders the same object.

import type { TruncationReason } from '../model.js';
import type { ChoiceReason } from '../tree/query.js';
import type { Reason } from '../reasons.js';
import type { StepDone } from './stepsDone.js';
import type { PersonNote } from '../revisions/personNote.js';

export type CallStatus = 'ok' | 'cancelled' | 'watchdog' | 'error';

export interface AppSwitch {
  pid: number;
  app: string;
  /** Tree file of the app that took the front (its tree is also in `handoffTree`). */
  file?: string;
}

/** One element a step's query could mean, as a choice names it. */
export interface ChoiceCandidate {
  /**
   * element_index in the tree the answer hands out (the after-tree, which the next call resolves
   * against); absent when the element is not in it any more.
   */
  index?: number;
  role: string;
  name: string;
}

/**
 * A step's query matched several elements with the same label: which one the step used, the
 * best of the others, and the criterion that told them apart (query.ts). Facts only: the MCP
 * layer writes the sentence.
 */
export interface ElementChoice {
  /** Position of the step in the call, 0-based. */
  step: number;
  chosen: ChoiceCandidate;
  over: ChoiceCandidate;
  reason: ChoiceReason;
  /** Elements the query matched, the chosen one included. */
  matched: number;
}

/** Why text was typed as keys rather than inserted (a fact: src/mcp words it). */
export type KeysReason = 'mode' | 'no-target' | 'not-editable' | 'no-editable-text' | 'insertion-ignored';

/** How one type_text step's text reached the app. */
export interface TextEntry {
  /** Position of the step in the call, 0-based. */
  step: number;
  method: 'insertion' | 'keys';
  /** For 'keys': why not inserted. */
  reason?: KeysReason;
  /** The element inserted into or typed at, when known (element_index in the tree read last). */
  element?: ChoiceCandidate;
  /** The text replaced everything the field held (replace was asked). */
  replaced?: boolean;
  /** replace with keys where accessibility could not empty the field: the select-all keys pressed first ("control+a"). */
  selectedAll?: string;
  /**
   * After the call the field holds the text and more it had before: only part of it was
   * replaced (a pre-selected file name stem, the caret inside its text).
   */
  keptOtherText?: boolean;
  /** After the call the field's value (known whole) does not contain the text sent. */
  textMissing?: boolean;
}

/** The person's word on a confirm_before press: the element (its tree label), and how they answered. */
export interface Confirmation {
  /** Position of the step in the call, 0-based. */
  step: number;
  element: string;
  allowed: boolean;
  /** 'enter': they allowed it; 'esc': they refused; 'watchdog': they did not answer in time (refused). */
  by: 'enter' | 'esc' | 'watchdog';
}

export interface TextChange {
  role: string;
  /** 'value' when what the element holds changed (its label in `name`); absent: the label itself changed. */
  field?: 'value';
  /** The element's label, for a value change. */
  name?: string;
  before: string;
  after: string;
}

export interface CallResult {
  status: CallStatus;
  tool: string;
  pid: number;
  app: string;
  /** Tree (open/refresh) or diff (actions) file. */
  file?: string;
  fileBytes?: number;
  elementCount: number;
  visibleElements: number;
  screenshot?: string;
  /** One-line description of what changed ("3 added, 1 removed, 2 text changes"). */
  summary: string;
  textChanges: TextChange[];
  /** Elements still there whose element_index this call changed: an index from an older tree names another element now. */
  renumbered?: number;
  /** The diff text (actions) — kept in memory for the feed; the model reads the file. */
  diff?: string;
  appSwitch?: AppSwitch;
  /** Processes the steps started that were still running without a window when the call ended. */
  launched?: Array<{ pid: number; app: string }>;
  /** Steps whose query matched several elements sharing a label: which one was used, and why. */
  choices?: ElementChoice[];
  /** type_text steps: whether their text was inserted through accessibility or typed as keys, and why. */
  textEntries?: TextEntry[];
  /** Keys typed into a field the call clicked, which the field does not show after the call (textKept.ts). */
  keysNotShown?: Array<{ step: number; element: ChoiceCandidate }>;
  /** Presses that asked the person first (confirm_before), in order, with their answers. */
  confirmed?: Confirmation[];
  /** Tree text of the app that took the front, when a handoff happened. */
  handoffTree?: string;
  /** Steps actually completed, in order, as facts of what each did (src/mcp/renderSteps.ts words them). */
  stepsDone: StepDone[];
  stepsTotal: number;
  /** Human key/pointer events swallowed while the guard was engaged. */
  humanInputBlocked: number;
  /** Times the guard stopped holding for a moment during the call (the OS switched it off and back on): the person's input then went through. */
  inputLeaked?: number;
  watchdogFired: boolean;
  /** A tree in this answer was cut short: whose, and why. */
  truncated?: { pid: number; reason: TruncationReason; detail: string };
  /** The target app exited during the call (its steps stopped there). */
  appExited?: boolean;
  /** With appExited: how many steps had run when the exit was found (the rest were not run). */
  exitedAfterStep?: number;
  /**
   * false: the app was still changing (its tree, or painting its windows) when the settle bound
   * (settle_max_ms) ran out, so the screenshot and the tree after may not show where it ends up.
   * Absent when it settled.
   */
  settled?: false;
  /**
   * The call's diff is empty: milliseconds the answer watched the app after the steps without
   * seeing a change (noEffect.ts). Not proof that nothing will change: a busy app answers later.
   */
  noEffectWithinMs?: number;
  /** A cancelled call: the person pressed Esc during it, or the caller cancelled it. */
  cancelledBy?: 'person' | 'caller';
  /** menuClosed: the call opened a menu or popup list, and the front app put back takes the focus that kept it open (openedMenu.ts). */
  restore: { cursor: boolean; frontmost: 'restored' | 'not-needed' | 'skipped-handoff' | 'failed'; menuClosed?: true };
  /** The call ran in the background (background.ts): no guard, no activation, no pointer. */
  background?: true;
  durationMs: number;
  /** The revision of the app's tree this answer hands out (revisions/revisionStore.ts). */
  revision?: number;
  /** What changed in the app between the agent's last read of it and this call's start: not the call's doing. */
  outsideChanges?: { lines: string[]; count: number };
  /** An earlier call in which the person pressed Esc or had input held back: said once, in the next answer. */
  person?: PersonNote;
  /** Set when status is not ok: the error's facts (`reason` is details.reason, when it has one). */
  error?: { code: string; message: string; reason?: Reason; details?: Record<string, unknown> };
}
