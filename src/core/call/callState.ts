// The state of one acting call, shared by its lifecycle (callLifecycle.ts), the step runners
// (stepRunners/) and what runs after the steps (afterAction.ts, restore.ts, resultBuilder.ts):
// what was read before, what the steps did, and what the answer will say.

import type { CallRecord } from './callRecord.js';
import type { Desktop, SnapshotLimits } from '../desktop.js';
import type { TreeDiff } from '../tree/diff.js';
import type { SnapshotCache } from '../tree/elementIndex.js';
import type { ActRequest } from '../engineApi.js';
import { abortable, type GuardPolicy, type GuardSession } from '../guard.js';
import type { ElementNode, Frontmost, Point, Rect, Screenshot, TreeSnapshot } from '../model.js';
import type { Progress } from '../progress.js';
import { CleanupRegistry } from './cleanups.js';
import type { Destination } from '../tree/redact.js';
import type { CallResult, ChoiceCandidate, Confirmation, ElementChoice, TextEntry } from './result.js';
import { busyTreeReader } from './busyIndicators.js';
import { settle, type LaunchOutcome, type SettleOptions } from './settle.js';
import type { ElementQuery, Step } from './steps.js';
import type { ZoomView } from '../artifacts/zoom.js';
import type { DescribeSteps, StepDone } from './stepsDone.js';
import type { RevisionStore } from '../revisions/revisionStore.js';
import type { PersonNotes } from '../revisions/personNote.js';

export interface TransactionOptions {
  watchdogMs: number;
  graceMs: number;
  settle: SettleOptions;
  snapshotLimits: SnapshotLimits;
  now: () => number;
  /** The words for the steps done, in the call's file and a late Esc's message (src/mcp/renderSteps.ts). */
  describeSteps: DescribeSteps;
  /** A call that does not say runs in the background where every step allows it (background.ts). */
  backgroundDefault?: boolean;
  /** Names of elements whose press waits for the person's word (the confirm_before setting; confirm/confirmMatch.ts). */
  confirmBefore: readonly string[];
}

export interface TransactionDeps {
  desktop: Desktop;
  guard: GuardPolicy;
  snapshots: SnapshotCache;
  /** Each app's revisions: the trees handed out, numbered as they differ. */
  revisions: RevisionStore;
  /** The person's Esc or held-back input in a call, for the next answer. */
  personNotes: PersonNotes;
  options: TransactionOptions;
  /** The last zoom image of a pid, for clicks given in its pixels. */
  zoomView?: (pid: number) => ZoomView | undefined;
}

export interface CallInfo {
  /** The call's record: its id, events, files and result framing (callRecord.ts). */
  record: CallRecord;
  signal?: AbortSignal;
}

/** A result before the call record frames it (its duration). */
export type UnframedResult = Omit<CallResult, 'durationMs'>;

/** Times a tree is read again because the app changed while it was being read. */
export const MAX_REREADS = 2;

export interface Before {
  frontmost: Frontmost | null;
  cursor: Point;
  snapshot: TreeSnapshot;
}

export class CallState {
  readonly desktop: Desktop;
  readonly options: TransactionOptions;
  readonly record: CallRecord;
  steps: Step[] = [];
  /** Runs through accessibility alone: no guard, no activation, no pointer (background.ts). */
  background = false;
  appName = '';
  before!: Before;
  /**
   * Elements resolved before the guard (element_index pins and the first step's queries), by
   * the query object itself: a drag has two, one per end.
   */
  readonly resolvedBefore = new Map<ElementQuery, ElementNode>();
  destinations = new Map<number, Destination>();
  /** Queries that matched several elements sharing a label: the facts of the choice, by query. */
  readonly choices = new Map<ElementQuery, ElementChoice>();
  /** The element behind each candidate the answer names, to give it its after-tree index (indexesHandedOut.ts). */
  readonly candidateNodes = new Map<ChoiceCandidate, ElementNode>();
  /** How each type-text step's text went in (inserted or typed as keys, and why). */
  readonly textEntries: TextEntry[] = [];
  /** The person's answers before confirm_before presses (confirmPress.ts). */
  readonly confirmations: Confirmation[] = [];
  readonly abort = new AbortController();
  session: GuardSession | null = null;
  /** The guard engaged just for a question in a call that holds none (confirmPress.ts), while it waits. */
  questionGuard: GuardSession | null = null;
  progress!: Progress;
  /**
   * What must be put back whatever happens (the person's cursor and frontmost app), registered
   * where it was taken; the lifecycle runs it once the action is over (callLifecycle.ts).
   */
  readonly cleanups = new CleanupRegistry();
  /** The restore facts, written by the restore cleanup; "not restored" until it has run. */
  restored: CallResult['restore'] = { cursor: false, frontmost: 'failed' };

  // state while running
  current!: TreeSnapshot;
  treeIsStale = false;
  lastClickTarget: ElementNode | null = null;
  /** Keys typed into the text field the call's own click had just focused (textKept.ts checks they show). */
  readonly keysTypedAt: Array<{ step: number; element: ChoiceCandidate }> = [];
  readonly keysNotShown: Array<{ step: number; element: ChoiceCandidate }> = [];
  clickPoint: Point | undefined;
  readonly stepsDone: StepDone[] = [];
  after: TreeSnapshot | null = null;
  /** When the last step ended (undefined: the steps did not all run). */
  stepsEndedAt: number | undefined;
  diff: TreeDiff | null = null;
  /** What changed in the app between the tree last handed out and this call's tree-before. */
  outsideChanges: TreeDiff | null = null;
  appExited = false;
  /** The steps that had run when the target's process was found ended (appExit.ts). */
  exitedAfterStep: number | undefined;
  /** False when the app was still changing (tree or paint) when the settle bound ran out after the steps. */
  settled: boolean | undefined;
  handoff: { frontmost: Frontmost; snapshot: TreeSnapshot | null } | null = null;
  /** Processes the steps started that showed no window (named in the answer). */
  launchedWithoutWindow: LaunchOutcome['running'] = [];
  screenshot: Screenshot | undefined;
  /** The screenshot as a PNG with the crosshair, encoding since it was captured. */
  screenshotPng: Promise<Buffer> | undefined;
  /** Screen rectangles (password fields) painted over in screenshotPng. */
  screenshotCovered: Rect[] = [];
  /** The step being run (for input progress events). */
  currentStep = 0;
  /** When the late-Esc grace period after the last step ends (epoch ms; 0 before the steps ended). */
  graceEndsAt = 0;

  constructor(
    readonly deps: TransactionDeps,
    readonly call: CallInfo,
    readonly request: ActRequest,
  ) {
    this.desktop = deps.desktop;
    this.options = deps.options;
    this.record = call.record;
  }

  get callId(): number {
    return this.record.callId;
  }

  log = (message: string): void => this.record.log(message);

  /** Runs a primitive so that an abort (Esc, watchdog, disconnect) ends the wait even if it hangs. */
  step<T>(promise: Promise<T>): Promise<T> {
    return abortable(promise, this.abort.signal);
  }

  /**
   * The target's tree, read again while the app reported changes during the read (at most
   * MAX_REREADS times, each after the app went quiet again): a tree read half before and half
   * after a change would mislead the diff.
   */
  async readSettled(settleFirst: boolean): Promise<TreeSnapshot> {
    if (settleFirst) await this.step(settle(this.desktop, this.request.pid, this.options.settle, this.progress, this.current, busyTreeReader(this)));
    for (let reread = 0; ; reread++) {
      const tree = await this.step(this.desktop.snapshot(this.request.pid, this.options.snapshotLimits, this.progress));
      if (!tree.changedWhileReading || reread >= MAX_REREADS) return tree;
      this.log(`${this.appName} changed while it was being read: reading it again once it is quiet`);
      await this.step(settle(this.desktop, this.request.pid, this.options.settle, this.progress, this.current, busyTreeReader(this)));
    }
  }

  /** The tree may have changed since the last read: read it again before resolving a query. */
  async freshTree(): Promise<TreeSnapshot> {
    if (this.treeIsStale) {
      this.current = await this.readSettled(true);
      this.treeIsStale = false;
    }
    return this.current;
  }
}
