// The transaction: the contract of one disruptive tool call (docs/architecture.md, "The engine and one call"), written once for every OS.
//
//   validate → resolve app → snapshot before (frontmost, cursor, tree) → guard engage →
//   activate target → steps (checkpoint before and after each) → settle (quiet, then any
//   process the steps launched) → handoff check → screenshot (encoded in the background) →
//   tree after (read again if the app changed meanwhile) → the new window's tree → diff →
//   restore cursor and frontmost (always) → artifacts → CallResult, while the guard stays up
//   until the grace period after the last step has passed (a late Esc still counts: it
//   releases the guard at once and the next action is refused).
//
// Errors before the guard is engaged are thrown (nothing was disturbed). From guard engage on,
// failures are returned as a CallResult whose status says what happened, because the restore
// facts and the artifacts still matter to the model and the person.

import type { CallRecord } from './callRecord.js';
import type { ClickOptions, Desktop, SnapshotLimits } from './desktop.js';
import { diffTrees, formatDiff, summarizeDiff, textChanges, type TreeDiff } from './diff.js';
import { SnapshotCache, refind, resolveIndexed, staleIndexError } from './elementIndex.js';
import type { ActRequest } from './engineApi.js';
import type { DescribeSteps, DoneAt, ScrolledInto, StepDone } from './stepsDone.js';
import { TandemError, errorFacts, isTandemError, toTandemError, type ErrorDetails } from './errors.js';
import { abortable, abortReason, type GuardPolicy, type GuardReleaseReason, type GuardSession } from './guard.js';
import { DEFAULT_PACING } from './inputPacing.js';
import { LIMITS, checkPid, checkWindowId } from './limits.js';
import { normalizeKey, normalizeModifiers } from './keys.js';
import type { ElementNode, Frontmost, Point, Rect, Screenshot, TreeSnapshot } from './model.js';
import { chooseWindow } from './windowChoice.js';
import { screenPointOf, type ZoomView } from './zoom.js';
import { createProgress, sleep, throwIfAborted, type Progress } from './progress.js';
import { chooseElement, elementAtPoint, findElement, type ElementPurpose } from './query.js';
import { explainMissingApp, explainUnreadable } from './readability.js';
import { areasCovered, describeStep, movesFocus, predictDestinations, redactStep, secureAreas, secureForEvents, shownText, type Destination } from './redact.js';
import type { AppSwitch, CallResult, CallStatus, ChoiceCandidate, ElementChoice, KeysReason, TextEntry } from './result.js';
import { settle, waitForLaunches, type LaunchOutcome, type SettleOptions } from './settle.js';
import { centreOf, estimateBounds, scrollIntoView } from './scrollIntoView.js';
import { overlayText } from './overlayText.js';
import { DEFAULT_DRAG_MS, stepVerb, type ClickStep, type ClickTarget, type ElementQuery, type Step, type TypeTextStep } from './steps.js';
import { formatElementLabel, formatTree } from './treeFormat.js';
import { pngWithCrosshair } from './crosshair.js';

export interface TransactionOptions {
  watchdogMs: number;
  graceMs: number;
  settle: SettleOptions;
  snapshotLimits: SnapshotLimits;
  now: () => number;
  /** The words for the steps done, in the call's file and a late Esc's message (src/mcp/renderSteps.ts). */
  describeSteps: DescribeSteps;
}

export interface TransactionDeps {
  desktop: Desktop;
  guard: GuardPolicy;
  snapshots: SnapshotCache;
  options: TransactionOptions;
  /** The last zoom image of a pid, for clicks given in its pixels. */
  zoomView?: (pid: number) => ZoomView | undefined;
}

/** A result before the call record frames it (its duration). */
type UnframedResult = Omit<CallResult, 'durationMs'>;

export interface CallInfo {
  /** The call's record: its id, events, files and result framing (callRecord.ts). */
  record: CallRecord;
  signal?: AbortSignal;
}

/**
 * How long an interrupted step may still finish — so that it is reported as done, and so that
 * an input step can drain what it had in flight (DEFAULT_PACING.drainCapMs) before the answer:
 * after a `cancelled` answer, nothing more reaches the app.
 */
const INTERRUPTED_STEP_MS = DEFAULT_PACING.drainCapMs + 250;

/** Longest any restore/cleanup primitive may take once the action itself is over. */
const CLEANUP_TIMEOUT_MS = 5_000;

/** How long a launched process's window may wait for its app to join the accessibility bus. */
const HANDOFF_REGISTER_MS = 2_000;
const HANDOFF_REGISTER_POLL_MS = 25;

/** Times a tree is read again because the app changed while it was being read. */
export const MAX_REREADS = 2;

// — validation (throws before anything is disturbed) —

/** Where a pointer step went, as a fact: the point, and the element there by its tree label. */
function doneAt({ point, element }: { point: Point; element: ElementNode | null }): DoneAt {
  return element ? { point, element: formatElementLabel(element) } : { point };
}

function bad(message: string, details?: ErrorDetails<'bad-input'>): TandemError {
  return new TandemError('bad-input', message, details);
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function within(value: number, limit: number): boolean {
  return Math.abs(value) <= limit;
}

function checkPoint(point: unknown, what: string): Point {
  const p = point as Point | undefined;
  if (!p || !finite(p.x) || !finite(p.y)) throw bad(`${what} needs a point {x, y} in screen coordinates (numbers).`);
  if (!within(p.x, LIMITS.coordinate) || !within(p.y, LIMITS.coordinate)) throw bad(`${what}: x and y must be within ±${LIMITS.coordinate} screen points.`);
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

function checkLength(text: string, limit: number, what: string): string {
  if (text.length > limit) throw bad(`${what} is ${text.length} characters long; at most ${limit} are taken at once.`);
  return text;
}

function checkQuery(query: unknown, what: string): ElementQuery {
  const q = (query ?? {}) as ElementQuery;
  const hasText = typeof q.text === 'string' && q.text !== '';
  const hasRole = typeof q.role === 'string' && q.role.trim() !== '';
  const hasIndex = q.index !== undefined;
  if (hasIndex && (!Number.isInteger(q.index) || q.index! < 0 || q.index! > LIMITS.elementIndex)) throw bad(`${what}: element_index must be a whole number from 0 to ${LIMITS.elementIndex}, from the latest tree.`);
  if (hasText) checkLength(q.text!, LIMITS.queryChars, `${what}: the element text`);
  if (hasRole) checkLength(q.role!, LIMITS.queryChars, `${what}: the role`);
  if (!hasText && !hasRole && !hasIndex) throw bad(`${what}: no element was named (no text, role or element_index).`, { reason: 'no-query' });
  return { ...(hasText ? { text: q.text } : {}), ...(hasRole ? { role: q.role } : {}), ...(hasIndex ? { index: q.index } : {}) };
}

/** Checks one step and puts its key and modifier names in canonical form. */
export function normalizeStep(step: Step, position: number): Step {
  const what = `step ${position + 1} (${(step as { kind?: unknown })?.kind ?? 'no kind'})`;
  switch (step?.kind) {
    case 'click': {
      if (step.button !== 'left' && step.button !== 'right' && step.button !== 'middle') throw bad(`${what}: button must be left, right or middle.`);
      if (step.count !== 1 && step.count !== 2) throw bad(`${what}: count must be 1 (single) or 2 (double).`);
      const target = clickTarget(step.target, what);
      return { ...step, target, modifiers: normalizeModifiers(step.modifiers) };
    }
    case 'type':
      if (typeof step.text !== 'string' || step.text.length === 0) throw bad(`${what}: text must be a non-empty string.`);
      checkLength(step.text, LIMITS.typedChars, `${what}: the text`);
      return step;
    case 'press': {
      const count = step.count ?? 1;
      if (!Number.isInteger(count) || count < 1 || count > LIMITS.keyRepeat) throw bad(`${what}: count must be a whole number from 1 to ${LIMITS.keyRepeat}.`);
      return { ...step, key: normalizeKey(step.key), modifiers: normalizeModifiers(step.modifiers), ...(count > 1 ? { count } : {}) };
    }
    case 'type-text': {
      if (typeof step.text !== 'string' || step.text.length === 0) throw bad(`${what}: text must be a non-empty string.`);
      checkLength(step.text, LIMITS.typedChars, `${what}: the text`);
      if (step.mode !== 'auto' && step.mode !== 'insert' && step.mode !== 'keys') throw bad(`${what}: mode must be auto, insert or keys.`);
      return { kind: 'type-text', text: step.text, mode: step.mode, ...(step.query !== undefined ? { query: checkQuery(step.query, what) } : {}) };
    }
    case 'scroll': {
      const target = clickTarget(step.target, what);
      const deltaX = step.deltaX ?? 0;
      if (!finite(step.deltaY) || !finite(deltaX)) throw bad(`${what}: deltaY and deltaX must be numbers of lines.`);
      if (step.deltaY === 0 && deltaX === 0) throw bad(`${what}: deltaY or deltaX must not be 0.`);
      if (!within(step.deltaY, LIMITS.scrollLines) || !within(deltaX, LIMITS.scrollLines)) throw bad(`${what}: scroll at most ${LIMITS.scrollLines} lines either way per step.`);
      return { ...step, target, deltaX: Math.round(deltaX), deltaY: Math.round(step.deltaY) };
    }
    case 'drag': {
      if (step.button !== 'left' && step.button !== 'right' && step.button !== 'middle') throw bad(`${what}: button must be left, right or middle.`);
      const durationMs = step.durationMs ?? DEFAULT_DRAG_MS;
      if (!finite(durationMs) || durationMs < 0 || durationMs > LIMITS.dragMs) throw bad(`${what}: durationMs must be a number of milliseconds from 0 to ${LIMITS.dragMs}.`);
      return { ...step, from: clickTarget(step.from, `${what} from`), to: clickTarget(step.to, `${what} to`), modifiers: normalizeModifiers(step.modifiers), durationMs: Math.round(durationMs) };
    }
    case 'wait':
      if (!finite(step.ms) || step.ms < 0 || step.ms > LIMITS.waitMs) throw bad(`${what}: ms must be a number of milliseconds from 0 to ${LIMITS.waitMs}.`);
      return step;
    case 'element-action':
      if (typeof step.action !== 'string' || !step.action) throw bad(`${what}: action must be a name such as "press".`);
      return { ...step, query: checkQuery(step.query, what) };
    case 'set-value':
      if (typeof step.value !== 'string') throw bad(`${what}: value must be a string.`);
      checkLength(step.value, LIMITS.valueChars, `${what}: the value`);
      return { ...step, query: checkQuery(step.query, what) };
    case 'set-selected':
      if (typeof step.selected !== 'boolean') throw bad(`${what}: selected must be true or false.`);
      return { ...step, query: checkQuery(step.query, what) };
    default:
      throw bad(`${what}: unknown step kind.`, { reason: 'step-kind' });
  }
}

function clickTarget(target: ClickStep['target'] | undefined, what: string): ClickStep['target'] {
  if (target && 'point' in target) return { point: checkPoint(target.point, what) };
  if (target && 'zoomPixel' in target) return { zoomPixel: checkPoint(target.zoomPixel, what) };
  if (target && 'windowPoint' in target) {
    const windowId = target.windowId;
    checkWindowId(windowId, what);
    return { windowPoint: checkPoint(target.windowPoint, what), ...(windowId !== undefined ? { windowId } : {}) };
  }
  return { query: checkQuery((target as { query?: unknown } | undefined)?.query, what) };
}

/** The element queries a step aims at (a drag has two ends), in the order it resolves them. */
function queriesOf(step: Step): ElementQuery[] {
  const ofTarget = (target: ClickTarget): ElementQuery[] => ('query' in target ? [target.query] : []);
  switch (step.kind) {
    case 'click':
    case 'scroll':
      return ofTarget(step.target);
    case 'drag':
      return [...ofTarget(step.from), ...ofTarget(step.to)];
    case 'element-action':
    case 'set-value':
    case 'set-selected':
      return [step.query];
    case 'type-text':
      return step.query ? [step.query] : [];
    default:
      return [];
  }
}

function focusedIn(elements: readonly ElementNode[]): ElementNode | null {
  return elements.find((el) => el.focused) ?? null;
}

function candidateOf(element: ElementNode): ChoiceCandidate {
  return { index: element.index, role: element.role, name: element.text };
}

function hasIndex(query: ElementQuery | undefined): query is ElementQuery & { index: number } {
  return query?.index !== undefined;
}

/** Races cleanup work against a timer, so a wedged backend cannot hold the result back. */
function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TandemError('timeout', `${what} did not finish within ${ms} ms`)), ms);
    }),
  ]);
}

function statusOf(error: TandemError): CallStatus {
  if (error.code === 'cancelled') return 'cancelled';
  if (error.code === 'watchdog') return 'watchdog';
  return 'error';
}

function releaseReason(status: CallStatus): GuardReleaseReason {
  return status === 'ok' ? 'done' : status;
}

// — the transaction —

interface Before {
  frontmost: Frontmost | null;
  cursor: Point;
  snapshot: TreeSnapshot;
}

export async function runTransaction(deps: TransactionDeps, call: CallInfo, request: ActRequest): Promise<CallResult> {
  return new Transaction(deps, call, request).run();
}

class Transaction {
  private readonly desktop: Desktop;
  private readonly options: TransactionOptions;
  private readonly record: CallRecord;
  private steps: Step[] = [];
  private appName = '';
  private before!: Before;
  /**
   * Elements resolved before the guard (element_index pins and the first step's queries), by
   * the query object itself: a drag has two, one per end.
   */
  private readonly resolvedBefore = new Map<ElementQuery, ElementNode>();
  private destinations = new Map<number, Destination>();
  /** Queries that matched several elements sharing a label: the facts of the choice, by query. */
  private readonly choices = new Map<ElementQuery, ElementChoice>();
  /** How each type-text step's text went in (inserted or typed as keys, and why). */
  private readonly textEntries: TextEntry[] = [];
  private readonly abort = new AbortController();
  private session: GuardSession | null = null;
  private progress!: Progress;

  // state while running
  private current!: TreeSnapshot;
  private treeIsStale = false;
  private lastClickTarget: ElementNode | null = null;
  private clickPoint: Point | undefined;
  private readonly stepsDone: StepDone[] = [];
  private after: TreeSnapshot | null = null;
  private diff: TreeDiff | null = null;
  private appExited = false;
  private handoff: { frontmost: Frontmost; snapshot: TreeSnapshot | null } | null = null;
  /** Processes the steps started that showed no window (named in the answer). */
  private launchedWithoutWindow: LaunchOutcome['running'] = [];
  private screenshot: Screenshot | undefined;
  /** The screenshot as a PNG with the crosshair, encoding since it was captured. */
  private screenshotPng: Promise<Buffer> | undefined;
  /** Screen rectangles (password fields) painted over in screenshotPng. */
  private screenshotCovered: Rect[] = [];
  /** The step being run (for input progress events). */
  private currentStep = 0;
  /** When the late-Esc grace period after the last step ends (epoch ms; 0 before the steps ended). */
  private graceEndsAt = 0;

  constructor(
    private readonly deps: TransactionDeps,
    private readonly call: CallInfo,
    private readonly request: ActRequest,
  ) {
    this.desktop = deps.desktop;
    this.options = deps.options;
    this.record = call.record;
  }

  private get callId(): number {
    return this.record.callId;
  }

  private log = (message: string): void => this.record.log(message);

  async run(): Promise<CallResult> {
    try {
      await this.prepare();
    } catch (error) {
      if (this.call.signal?.aborted) throw new TandemError('cancelled', 'The call was cancelled before it started: the client went away.', { by: 'caller' });
      throw error;
    }
    // A finished call's grace period may still hold the guard: wait for it, and if the person
    // pressed Esc in it, this action must not run.
    await this.deps.guard.refuseAfterLateEscape();
    this.record.app = this.appName;
    const args = { pid: this.request.pid, steps: this.steps.map((step, i) => redactStep(step, secureForEvents(this.destinations.get(i)))) };
    this.record.start(this.request.pid, args);
    const outcome = await this.guarded();
    return this.record.finish(await this.finish(outcome));
  }

  /** Everything that may throw: validation, app, before-snapshot, element_index and first query. */
  private async prepare(): Promise<void> {
    const { pid, steps } = this.request;
    checkPid(pid);
    if (!Array.isArray(steps) || steps.length === 0) throw bad('No steps were sent.', { reason: 'no-steps' });
    if (steps.length > LIMITS.steps) throw bad(`${steps.length} steps: at most ${LIMITS.steps} run in one call.`);
    this.steps = steps.map((step, i) => normalizeStep(step, i));
    const waited = this.steps.reduce((sum, step) => sum + (step.kind === 'wait' ? step.ms : step.kind === 'drag' ? step.durationMs : 0), 0);
    if (waited >= this.options.watchdogMs) {
      throw bad(`The wait steps and drags add up to ${waited} ms, longer than the ${this.options.watchdogMs} ms watchdog allows one call.`, { reason: 'wait-too-long' });
    }
    const readProgress = createProgress({ signal: this.call.signal, timeoutMs: this.options.watchdogMs, log: this.log });
    const app = await this.desktop.appForPid(pid, readProgress);
    if (!app) throw await explainMissingApp(this.desktop, pid, readProgress);
    this.appName = app.name;
    const [frontmost, cursor, snapshot] = await Promise.all([
      this.desktop.frontmost(readProgress),
      this.desktop.cursorPosition(),
      this.desktop.snapshot(pid, this.options.snapshotLimits, readProgress),
    ]);
    this.before = { frontmost, cursor, snapshot };
    this.current = snapshot;

    for (const step of this.steps) {
      for (const query of queriesOf(step)) if (hasIndex(query)) this.resolvedBefore.set(query, resolveIndexed(this.deps.snapshots, snapshot, query));
    }
    for (const firstQuery of queriesOf(this.steps[0])) {
      if (this.resolvedBefore.has(firstQuery)) continue;
      try {
        this.resolvedBefore.set(firstQuery, this.choose(snapshot.elements, firstQuery, 0));
      } catch (error) {
        // Not found because the app exposes nothing at all: that is the answer, not "not found".
        if (isTandemError(error, 'not-found')) throw (await explainUnreadable(this.desktop, pid, snapshot, readProgress)) ?? error;
        throw error;
      }
    }

    this.destinations = predictDestinations(this.steps, snapshot, (step, i) => this.predictTarget(step, i));
  }

  /** Best guess, from the tree before the call, of the element a step acts on. */
  private predictTarget(step: Step, index: number): ElementNode | null {
    if (step.kind === 'click' && 'point' in step.target) return elementAtPoint(this.before.snapshot.elements, step.target.point);
    const [query] = queriesOf(step);
    if (!query) return null;
    const known = this.resolvedBefore.get(query);
    if (known) return known;
    try {
      return findElement(this.before.snapshot.elements, query, this.purposeOf(index));
    } catch {
      return null;
    }
  }

  /** From guard engage to the end of the grace period. Never throws: returns the failure. */
  private async guarded(): Promise<TandemError | null> {
    const external = this.call.signal;
    const onExternalAbort = (): void => {
      this.abort.abort(new TandemError('cancelled', 'The call was cancelled: the client went away.', { by: 'caller' }));
    };
    if (external?.aborted) onExternalAbort();
    external?.addEventListener('abort', onExternalAbort, { once: true });
    this.progress = createProgress({
      signal: this.abort.signal,
      timeoutMs: this.options.watchdogMs,
      log: this.log,
      now: this.options.now,
      reportInput: (done, total) => this.record.emit('input-progress', { callId: this.callId, index: this.currentStep, done, total }),
    });
    try {
      const label = overlayText(stepVerb(this.steps[0]), this.appName);
      this.session = await this.deps.guard.engage(this.progress, {
        onEngaged: () => this.record.emit('guard-engaged', { callId: this.callId, tool: this.request.tool, label, verb: stepVerb(this.steps[0]), app: this.appName }),
        onReleased: (reason) => this.record.emit('guard-released', { callId: this.callId, reason }),
        log: this.log,
      }, this.options.watchdogMs);
      const session = this.session;
      if (session.signal.aborted) this.abort.abort(session.signal.reason);
      else session.signal.addEventListener('abort', () => this.abort.abort(session.signal.reason), { once: true });

      if (this.before.frontmost?.pid !== this.request.pid) {
        const confirmed = await this.step(this.desktop.activate(this.request.pid, undefined, this.progress));
        if (!confirmed) this.log(`could not confirm that ${this.appName} came to the front; continuing`);
      }
      const stepsStartedAt = this.options.now();
      for (let i = 0; i < this.steps.length; i++) {
        throwIfAborted(this.progress);
        // Input goes to whatever has focus: once the target is gone, the next key would land in
        // another app. Check it is still there before every step after the first.
        if (i > 0) await this.ensureTargetAlive(i);
        this.currentStep = i;
        this.record.emit('step', { callId: this.callId, index: i, label: describeStep(this.steps[i], secureForEvents(this.destinations.get(i))), verb: stepVerb(this.steps[i]) });
        this.stepsDone.push(await this.runReported(this.runStep(this.steps[i], i)));
        throwIfAborted(this.progress);
      }
      // A late Esc (the person saw something go wrong at the last moment) counts for graceMs
      // after the last step: the guard stays up that long, beyond the answer if need be.
      this.graceEndsAt = this.options.now() + this.options.graceMs;
      await this.step(settle(this.desktop, this.request.pid, this.options.settle, this.progress, this.current));
      // A window another process is opening (the steps launched it) is the next thing the
      // model must see: wait for it before looking for a handoff. Paced input means the app has
      // handled the steps' input by now, so a busy app's click handler has run.
      const launches = await this.step(waitForLaunches(this.desktop, this.request.pid, stepsStartedAt, this.options.settle, this.progress));
      if (launches.kind === 'cap') this.launchedWithoutWindow = launches.running;
      await this.checkHandoff(launches);
      // The screenshot first: the app is settled, and its PNG is encoded (in sharp's threads)
      // while the trees are read. The reads run one after the other: they are bound by the CPU
      // the app, the display server and we share (in parallel they took longer than in a row).
      await this.captureScreenshot(this.progress);
      await this.readAfter();
      await this.readHandoffTree();
      session.fireWatchdogIfDue();
      throwIfAborted(this.progress);
      return null;
    } catch (error) {
      return this.abort.signal.aborted ? abortReason(this.abort.signal) : toTandemError(error);
    } finally {
      external?.removeEventListener('abort', onExternalAbort);
    }
  }

  private async ensureTargetAlive(nextStep: number): Promise<void> {
    const app = await this.step(this.desktop.appForPid(this.request.pid, this.progress));
    if (app) return;
    this.appExited = true;
    const left = this.steps.length - nextStep;
    throw new TandemError(
      'app-gone',
      `${this.appName} (pid ${this.request.pid}) exited during the call; the remaining ${left} step${left === 1 ? ' was' : 's were'} not run so that no input reached another app.`,
    );
  }

  /** Runs a primitive so that an abort (Esc, watchdog, disconnect) ends the wait even if it hangs. */
  private step<T>(promise: Promise<T>): Promise<T> {
    return abortable(promise, this.abort.signal);
  }

  /**
   * Awaits a step like step(), but when an abort interrupts it, gives the step a moment to
   * finish: a click that happened while Esc was pressed is reported as done, honestly.
   */
  private async runReported(running: Promise<StepDone>): Promise<StepDone> {
    try {
      return await this.step(running);
    } catch (error) {
      if (this.abort.signal.aborted) {
        const late = await bounded(running, INTERRUPTED_STEP_MS, 'the interrupted step').catch(() => null);
        if (late !== null) this.stepsDone.push(late);
      }
      throw error;
    }
  }

  /**
   * The target's tree, read again while the app reported changes during the read (at most
   * MAX_REREADS times, each after the app went quiet again): a tree read half before and half
   * after a change would mislead the diff.
   */
  private async readSettled(settleFirst: boolean): Promise<TreeSnapshot> {
    if (settleFirst) await this.step(settle(this.desktop, this.request.pid, this.options.settle, this.progress, this.current));
    for (let reread = 0; ; reread++) {
      const tree = await this.step(this.desktop.snapshot(this.request.pid, this.options.snapshotLimits, this.progress));
      if (!tree.changedWhileReading || reread >= MAX_REREADS) return tree;
      this.log(`${this.appName} changed while it was being read: reading it again once it is quiet`);
      await this.step(settle(this.desktop, this.request.pid, this.options.settle, this.progress, this.current));
    }
  }

  private async readAfter(): Promise<void> {
    try {
      this.after = await this.readSettled(false);
    } catch (error) {
      if (!isTandemError(error, 'app-gone')) throw error;
      this.appExited = true;
      this.after = { pid: this.request.pid, app: this.appName, elements: [], elapsedMs: 0 };
    }
    this.diff = diffTrees(this.before.snapshot.elements, this.after.elements);
  }

  /**
   * Another process in front now (a launched app, another process's dialog) is a handoff; so is
   * a window a launched process has mapped that the window manager has not made active yet.
   */
  private async checkHandoff(launches: LaunchOutcome): Promise<void> {
    const now = await this.step(this.desktop.frontmost(this.progress));
    if (now && now.pid !== this.request.pid && now.pid !== this.before.frontmost?.pid) {
      this.log(`${now.app} (pid ${now.pid}) took the front: reading its tree`);
      this.handoff = { frontmost: now, snapshot: null };
      return;
    }
    if (launches.window) {
      const { pid, app, windowId } = launches.window;
      this.log(`${app} (pid ${pid}), started by the action, mapped a window that is not in front yet: reading its tree`);
      this.handoff = { frontmost: { pid, app, windowId }, snapshot: null };
    }
  }

  /** A window can map a moment before its app has joined the accessibility bus: wait for it, briefly. */
  private async waitUntilReadable(pid: number): Promise<void> {
    const giveUpAt = Math.min(this.options.now() + HANDOFF_REGISTER_MS, this.progress.deadline);
    while (!(await this.step(this.desktop.appForPid(pid, this.progress))) && this.options.now() < giveUpAt) {
      await sleep(HANDOFF_REGISTER_POLL_MS, this.progress);
    }
  }

  private async readHandoffTree(): Promise<void> {
    if (!this.handoff) return;
    const { pid } = this.handoff.frontmost;
    try {
      await this.waitUntilReadable(pid);
      this.handoff.snapshot = await this.step(this.desktop.snapshot(pid, this.options.snapshotLimits, this.progress));
    } catch (error) {
      if (this.abort.signal.aborted) throw error;
      this.log(`could not read the tree of pid ${pid}: ${toTandemError(error).message}`);
    }
  }

  private async captureScreenshot(progress: Progress): Promise<void> {
    if (this.screenshot) return;
    const target = this.handoff ? { pid: this.handoff.frontmost.pid, windowId: this.handoff.frontmost.windowId } : { pid: this.request.pid };
    try {
      this.screenshot = await bounded(this.desktop.screenshot(target, progress), CLEANUP_TIMEOUT_MS, 'screenshot');
      // Password fields known so far are painted over (their dots count the secret); a field
      // that only the trees read after this show is painted over when the files are written.
      this.screenshotCovered = this.handoff ? [] : secureAreas(this.before.snapshot.elements, this.current.elements);
      this.screenshotPng = pngWithCrosshair(this.screenshot, this.clickPoint, this.screenshotCovered);
      // Awaited when the files are written; a failure there is logged, never unhandled.
      this.screenshotPng.catch(() => {});
    } catch (error) {
      if (progress.signal.aborted && progress === this.progress) throw error;
      this.log(`no screenshot: ${toTandemError(error).message}`);
    }
  }

  /** The screenshot's PNG to write: encoded again when a tree read after the capture shows a password field it left uncovered. */
  private screenshotPngToWrite(): Promise<Buffer> | undefined {
    if (!this.screenshot || !this.screenshotPng) return this.screenshotPng;
    const areas = this.handoff ? secureAreas(this.handoff.snapshot?.elements) : secureAreas(this.after?.elements);
    if (areasCovered(areas, this.screenshotCovered)) return this.screenshotPng;
    return pngWithCrosshair(this.screenshot, this.clickPoint, [...this.screenshotCovered, ...areas]);
  }

  // — steps —

  /** The tree may have changed since the last read: read it again before resolving a query. */
  private async freshTree(): Promise<TreeSnapshot> {
    if (this.treeIsStale) {
      this.current = await this.readSettled(true);
      this.treeIsStale = false;
    }
    return this.current;
  }

  private async locate(query: ElementQuery, index: number): Promise<ElementNode> {
    const pinned = this.resolvedBefore.get(query);
    if (pinned && !this.treeIsStale) return pinned;
    const tree = await this.freshTree();
    if (pinned) {
      const again = refind(tree.elements, pinned);
      if (!again) throw hasIndex(query) ? staleIndexError(query.index) : new TandemError('not-found', `${formatElementLabel(pinned)} is no longer in the tree.`);
      return again;
    }
    return this.choose(tree.elements, query, index);
  }

  /** Typing after a click, or setting a value, needs a field: a label sharing its name will not do. */
  private purposeOf(index: number): ElementPurpose {
    const step = this.steps[index];
    if (step.kind === 'set-value' || step.kind === 'type-text') return 'editable';
    if (step.kind !== 'click') return 'any';
    const next = this.steps.slice(index + 1).find((later) => later.kind !== 'wait');
    return next?.kind === 'type' ? 'editable' : 'any';
  }

  /**
   * Picks step `index`'s element. When another element with the same label matched too (a label
   * and the field it labels, two "Save" buttons), the choice is kept for the answer to explain.
   */
  private choose(elements: readonly ElementNode[], query: ElementQuery, index: number): ElementNode {
    const choice = chooseElement(elements, query, this.purposeOf(index));
    const { element, runnerUp, reason } = choice;
    if (runnerUp && reason && runnerUp.text.toLowerCase() === element.text.toLowerCase()) {
      const candidate = (el: ElementNode): ElementChoice['chosen'] => ({ index: el.index, role: el.role, name: el.text });
      this.choices.set(query, { step: index, chosen: candidate(element), over: candidate(runnerUp), reason, matched: choice.others + 1 });
    } else {
      this.choices.delete(query);
    }
    return element;
  }

  private async isSecureDestination(index: number): Promise<boolean> {
    const predicted = this.destinations.get(index);
    if (predicted === 'secure') return true;
    let mover = -1;
    for (let j = index - 1; j >= 0; j--) {
      if (movesFocus(this.steps[j])) {
        mover = j;
        break;
      }
    }
    if (mover >= 0 && this.steps[mover].kind === 'click') {
      if (this.lastClickTarget) return this.lastClickTarget.secure;
      return predicted !== 'plain';
    }
    if (predicted === 'unknown') {
      const focused = (await this.freshTree()).elements.find((el) => el.focused);
      return focused ? focused.secure : true;
    }
    return false;
  }

  /** Where a pointer step (a scroll, a drag's end) aims, on the screen, and the element there when known. */
  private async pointerAt(target: ClickStep['target'], index: number, mustShow = false): Promise<{ point: Point; element: ElementNode | null }> {
    if ('query' in target) {
      const element = await this.locate(target.query, index);
      // A drag presses the button where the element is: pressed on a guessed place off screen, it
      // would grab whatever is there instead (another row, another window).
      if (mustShow && (!element.visible || !element.bounds)) {
        throw new TandemError('unsupported', `${formatElementLabel(element)} is not on screen.`, { reason: 'not-on-screen', index: element.index });
      }
      const bounds = element.bounds ?? estimateBounds(this.current.elements, element);
      if (!bounds) throw new TandemError('unsupported', `${formatElementLabel(element)} has no position on screen.`, { reason: 'no-position', index: element.index });
      return { point: centreOf(bounds), element };
    }
    return { point: await this.screenPointOf(target), element: null };
  }

  /** A target given as a point (on the screen, in a window, in the last zoom) on the screen. */
  private async screenPointOf(target: Exclude<ClickStep['target'], { query: ElementQuery }>): Promise<Point> {
    if ('windowPoint' in target) return this.windowToScreen(target);
    if ('zoomPixel' in target) return this.zoomToScreen(target.zoomPixel);
    return target.point;
  }

  /** A point relative to one of the app's windows (its frontmost unless one is named), on the screen. */
  private async windowToScreen(target: { windowPoint: Point; windowId?: number }): Promise<Point> {
    const window = chooseWindow(await this.desktop.windows(this.request.pid, this.progress), this.request.pid, target.windowId);
    return { x: Math.round(window.bounds.x + target.windowPoint.x), y: Math.round(window.bounds.y + target.windowPoint.y) };
  }

  /** A pixel of the app's last zoom image, on the screen. */
  private zoomToScreen(pixel: Point): Point {
    const view = this.deps.zoomView?.(this.request.pid);
    if (!view) throw new TandemError('not-found', `There is no zoom image of pid ${this.request.pid} to click in.`, { reason: 'no-zoom' });
    return screenPointOf(view, pixel);
  }

  private async runStep(step: Step, index: number): Promise<StepDone> {
    const progress = this.progress;
    switch (step.kind) {
      case 'click': {
        let element: ElementNode | null;
        let point: Point;
        if ('query' in step.target) {
          element = await this.locate(step.target.query, index);
          // Toolkits give no geometry for rows scrolled out of view (GTK3 answers INT_MIN): aim
          // where its laid-out siblings say it must be, and let scroll-into-view bring it in.
          const bounds = element.bounds ?? estimateBounds(this.current.elements, element);
          if (!bounds) throw new TandemError('unsupported', `${formatElementLabel(element)} has no position on screen.`, { reason: 'no-position', index: element.index });
          point = centreOf(bounds);
        } else {
          point = await this.screenPointOf(step.target);
          element = elementAtPoint((await this.freshTree()).elements, point);
        }
        const reached = await this.clickAt(element, point, { button: step.button, count: step.count, modifiers: step.modifiers });
        return { kind: 'click', button: step.button, count: step.count, at: doneAt(reached), modifiers: step.modifiers, ...(reached.scrolled ? { scrolled: reached.scrolled } : {}) };
      }
      case 'type': {
        const secure = await this.isSecureDestination(index);
        // Never log typed text, secure or not: log lines go to stderr and the feed. Into a secure
        // field not even how much: no count in the log, no input progress.
        progress.log(secure ? 'typing into a secure field' : `typing ${[...step.text].length} characters`);
        await this.desktop.typeText(step.text, secure ? { ...progress, secretInput: true } : progress);
        this.treeIsStale = true;
        return { kind: 'type', text: shownText(step.text, secure) };
      }
      case 'type-text':
        return this.typeTextStep(step, index);
      case 'press': {
        const keys = [...step.modifiers, step.key].join('+');
        const count = step.count ?? 1;
        let pressed = 0;
        try {
          // A checkpoint between presses: a cancel stops the repeats that are left.
          for (; pressed < count; pressed++) {
            throwIfAborted(progress);
            await this.desktop.pressKey(step.key, step.modifiers, progress);
            this.treeIsStale = true;
          }
        } catch (error) {
          // Said honestly when some presses went in before the stop (the step is then reported as done that far).
          if (!progress.signal.aborted || pressed === 0) throw error;
          return { kind: 'press', keys, count, pressed };
        }
        return { kind: 'press', keys, count, pressed: count };
      }
      case 'scroll': {
        const { point, element } = await this.pointerAt(step.target, index);
        await this.desktop.scroll(point, step.deltaX, step.deltaY, progress);
        this.treeIsStale = true;
        return { kind: 'scroll', deltaX: step.deltaX, deltaY: step.deltaY, at: doneAt({ point, element }) };
      }
      case 'drag': {
        // Both ends from the same tree, before anything moves: the drag itself changes the app.
        const from = await this.pointerAt(step.from, index, true);
        const to = await this.pointerAt(step.to, index, true);
        await this.desktop.drag(from.point, to.point, { button: step.button, modifiers: step.modifiers, durationMs: step.durationMs }, progress);
        this.clickPoint = to.point;
        this.treeIsStale = true;
        return { kind: 'drag', from: doneAt(from), to: doneAt(to), durationMs: step.durationMs, button: step.button, modifiers: step.modifiers };
      }
      case 'wait':
        await sleep(step.ms, progress);
        return { kind: 'wait', ms: step.ms };
      case 'element-action': {
        const element = await this.locate(step.query, index);
        await this.desktop.performAction({ element, action: step.action }, progress);
        this.treeIsStale = true;
        return { kind: 'element-action', action: step.action, element: formatElementLabel(element) };
      }
      case 'set-value': {
        const element = await this.locate(step.query, index);
        const secure = element.secure || this.destinations.get(index) === 'secure';
        await this.desktop.setValue(element, step.value, progress);
        this.treeIsStale = true;
        return { kind: 'set-value', element: formatElementLabel(element), value: shownText(step.value, secure) };
      }
      case 'set-selected': {
        const element = await this.locate(step.query, index);
        await this.desktop.setSelected(element, step.selected, progress);
        this.treeIsStale = true;
        return { kind: 'set-selected', selected: step.selected, element: formatElementLabel(element) };
      }
    }
  }

  /** Clicks `point` (on `element` when known), scrolled into view first; the tree is stale after it. */
  private async clickAt(element: ElementNode | null, point: Point, options: ClickOptions): Promise<{ point: Point; element: ElementNode | null; note?: string; scrolled?: ScrolledInto }> {
    const progress = this.progress;
    const reached = await scrollIntoView(
      {
        desktop: this.desktop,
        pid: this.request.pid,
        limits: this.options.snapshotLimits,
        progress,
        settle: async () => void (await settle(this.desktop, this.request.pid, this.options.settle, progress, this.current)),
      },
      this.current,
      { element, point },
    );
    if (reached.lines) {
      this.current = reached.snapshot;
      this.log(reached.note!);
    }
    await this.desktop.click(reached.point, options, progress);
    this.clickPoint = reached.point;
    this.lastClickTarget = reached.element;
    this.treeIsStale = true;
    return reached;
  }

  /**
   * type_text: insert the text through accessibility where the element takes it (one edit, at its
   * caret), else — or when asked — type it as paced keys. The target is the element the query
   * names, else the focused one. How it went in is kept as a fact for the answer.
   */
  private async typeTextStep(step: TypeTextStep, index: number): Promise<StepDone> {
    const progress = this.progress;
    let target = step.query ? await this.locate(step.query, index) : focusedIn(this.current.elements);
    if (!step.query && !target) {
      // Activating the app (it was not in front) gives its focus widget the focus only now.
      this.treeIsStale = true;
      target = focusedIn((await this.freshTree()).elements);
    }
    const secure = target ? target.secure || this.destinations.get(index) === 'secure' : await this.isSecureDestination(index);
    const label = target ? formatElementLabel(target) : 'the keyboard focus';
    const count = secure ? '' : ` ${[...step.text].length} characters`;
    let reason: KeysReason = 'mode';
    if (step.mode !== 'keys') {
      // A disabled or read-only field takes no typing from a person: nothing is inserted there either.
      const takesText = target !== null && target.editable !== false && target.enabled;
      reason = !target ? 'no-target' : !takesText ? 'not-editable' : 'no-editable-text';
      if (target && takesText) {
        // A one-line field would take a line break as a character (GTK shows a glyph; on Enter a
        // person's field would have submitted instead): refused before anything is inserted.
        if (target.singleLine && /[\r\n]/.test(step.text)) {
          throw new TandemError('bad-input', `${label} holds one line and the text has line breaks.`, { reason: 'line-breaks-in-single-line', index: target.index });
        }
        try {
          progress.log(`inserting${count} into ${label}`);
          await this.desktop.insertText(target, step.text, progress);
          this.treeIsStale = true;
          this.textEntries.push({ step: index, method: 'insertion', element: candidateOf(target) });
          return { kind: 'insert', text: shownText(step.text, secure), into: label };
        } catch (error) {
          // Refused before anything went in (no such interface, or the value not taken: macOS
          // maps that to bad-input): typing keys can still do it. Anything else is a real failure.
          const refused = isTandemError(error, 'unsupported') || (isTandemError(error, 'bad-input') && error.details?.reason === 'value-rejected');
          if (!refused) throw error;
          this.log(`${label} takes no text insertion: ${toTandemError(error).message}`);
        }
      }
      if (step.mode === 'insert') {
        throw new TandemError('unsupported', `${label} takes no text insertion.`, { reason, ...(target ? { index: target.index } : {}) });
      }
    }
    // Keys go to the focus: an element named by the query that does not have it is clicked first.
    let clicked: (DoneAt & { scrolled?: ScrolledInto }) | undefined;
    if (target && step.query && !target.focused) {
      const bounds = target.bounds ?? estimateBounds(this.current.elements, target);
      if (!bounds) throw new TandemError('unsupported', `${label} has no position on screen to click before typing.`, { reason: 'no-position-to-type', index: target.index });
      const reached = await this.clickAt(target, centreOf(bounds), { button: 'left', count: 1, modifiers: [] });
      clicked = { point: reached.point, element: label, ...(reached.scrolled ? { scrolled: reached.scrolled } : {}) };
    }
    progress.log(secure ? 'typing into a secure field' : `typing${count}`);
    await this.desktop.typeText(step.text, secure ? { ...progress, secretInput: true } : progress);
    this.treeIsStale = true;
    this.textEntries.push({ step: index, method: 'keys', reason, ...(target ? { element: candidateOf(target) } : {}) });
    return { kind: 'type-keys', text: shownText(step.text, secure), ...(clicked ? { clicked } : target ? { into: label } : {}) };
  }

  // — release, restore, persist —

  private async finish(failure: TandemError | null): Promise<UnframedResult> {
    const status: CallStatus = failure ? statusOf(failure) : 'ok';
    const cleanup = createProgress({ timeoutMs: CLEANUP_TIMEOUT_MS, log: this.log, now: this.options.now });
    let restore: CallResult['restore'] = { cursor: true, frontmost: 'not-needed' };
    try {
      const graceLeft = this.graceEndsAt - this.options.now();
      if (this.session && status === 'ok' && graceLeft > 0) {
        // The answer does not wait for the grace period: the guard outlives the call instead.
        this.deps.guard.linger(this.session, graceLeft, `${this.request.tool}: ${this.options.describeSteps(this.stepsDone)}`);
      } else if (this.session) {
        await this.session.release(releaseReason(status));
      }
      if (failure && this.session && failure.code !== 'app-gone') {
        await this.readAfterFailure(cleanup);
        await this.captureScreenshot(cleanup);
      }
    } finally {
      restore = await this.restore(cleanup);
    }
    // element_index refers to trees handed out as tree text (open, refresh, a handoff tree),
    // never to an action's after-tree: the model only saw its diff.
    if (this.handoff?.snapshot) this.deps.snapshots.set(this.handoff.snapshot);
    return this.buildResult(status, failure, restore);
  }

  /** After a failure the person and the model still want to know what changed: best effort. */
  private async readAfterFailure(cleanup: Progress): Promise<void> {
    if (this.after) return;
    try {
      this.after = await bounded(this.desktop.snapshot(this.request.pid, this.options.snapshotLimits, cleanup), CLEANUP_TIMEOUT_MS, 'tree after');
      this.diff = diffTrees(this.before.snapshot.elements, this.after.elements);
    } catch (error) {
      this.log(`could not read the tree after the failure: ${toTandemError(error).message}`);
    }
  }

  /** Cursor back where the person left it; their frontmost app back unless a handoff happened. */
  private async restore(cleanup: Progress): Promise<CallResult['restore']> {
    let cursor = false;
    try {
      const now = await bounded(this.desktop.cursorPosition(), CLEANUP_TIMEOUT_MS, 'reading the cursor');
      if (now.x !== this.before.cursor.x || now.y !== this.before.cursor.y) {
        await bounded(this.desktop.moveCursor(this.before.cursor), CLEANUP_TIMEOUT_MS, 'moving the cursor back');
      }
      cursor = true;
    } catch (error) {
      this.log(`could not restore the cursor: ${toTandemError(error).message}`);
    }
    if (this.handoff) return { cursor, frontmost: 'skipped-handoff' };
    const original = this.before.frontmost;
    if (!original) return { cursor, frontmost: 'not-needed' };
    try {
      const now = await bounded(this.desktop.frontmost(cleanup), CLEANUP_TIMEOUT_MS, 'reading the frontmost app');
      if (now?.pid === original.pid) return { cursor, frontmost: 'not-needed' };
      const took = await bounded(this.desktop.activate(original.pid, original.windowId, cleanup), CLEANUP_TIMEOUT_MS, 'reactivating the frontmost app');
      if (!took) this.log(`${original.app} (pid ${original.pid}) did not come back to the front`);
      return { cursor, frontmost: took ? 'restored' : 'failed' };
    } catch (error) {
      this.log(`could not restore the frontmost app: ${toTandemError(error).message}`);
      return { cursor, frontmost: 'failed' };
    }
  }

  private summary(status: CallStatus): string {
    const changes = this.appExited ? `${this.appName} exited` : this.diff ? summarizeDiff(this.diff) : 'changes unknown (the tree could not be read again)';
    if (status === 'ok') return changes;
    const done = `${this.stepsDone.length} of ${this.steps.length} step${this.steps.length === 1 ? '' : 's'}`;
    const what = status === 'cancelled' ? 'cancelled' : status === 'watchdog' ? 'stopped by the watchdog' : 'failed';
    return `${what} after ${done}; ${changes}`;
  }

  private artifactText(status: CallStatus, summary: string): string {
    const lines = [
      `# ${this.request.tool}  pid: ${this.request.pid}  app: ${this.appName}  status: ${status}`,
      `# steps: ${this.options.describeSteps(this.stepsDone) || '(none completed)'}`,
      `# summary: ${summary}`,
    ];
    if (this.handoff) lines.push(`# app_switch: pid ${this.handoff.frontmost.pid} (${this.handoff.frontmost.app}) took the front`);
    lines.push('# diff: "+ added", "- removed", "~ changed" elements (coordinates-only moves left out)');
    if (!this.diff) return `${lines.join('\n')}\n(the tree could not be read again after the failure)\n`;
    return `${lines.join('\n')}\n${formatDiff(this.diff) || '(no changes)\n'}`;
  }

  private async buildResult(status: CallStatus, failure: TandemError | null, restore: CallResult['restore']): Promise<UnframedResult> {
    const tree = this.after ?? this.before.snapshot;
    const summary = this.summary(status);
    let file: string | undefined;
    let fileBytes: number | undefined;
    let screenshot: string | undefined;
    let appSwitch: AppSwitch | undefined;
    let handoffTree: string | undefined;
    try {
      const written = await this.record.writeFiles({ text: this.artifactText(status, summary), png: await this.screenshotPngToWrite() });
      file = written.textPath;
      fileBytes = written.textBytes;
      screenshot = written.pngPath;
    } catch (error) {
      this.log(`could not write the artifacts: ${toTandemError(error).message}`);
    }
    if (this.handoff) {
      const { pid, app } = this.handoff.frontmost;
      appSwitch = { pid, app };
      if (this.handoff.snapshot) {
        handoffTree = formatTree(this.handoff.snapshot);
        try {
          appSwitch.file = (await this.record.writeFiles({ text: handoffTree }, `${this.request.tool}_handoff`)).textPath;
        } catch (error) {
          this.log(`could not write the handoff tree: ${toTandemError(error).message}`);
        }
      }
    }
    const truncatedTree = [tree, this.handoff?.snapshot].find((s) => s?.truncated);
    const result: UnframedResult = {
      status,
      tool: this.request.tool,
      pid: this.request.pid,
      app: this.appName,
      file,
      fileBytes,
      elementCount: tree.elements.length,
      visibleElements: tree.elements.filter((el) => el.visible).length,
      screenshot,
      summary,
      textChanges: this.diff ? textChanges(this.diff) : [],
      diff: this.diff ? formatDiff(this.diff) : undefined,
      appSwitch,
      handoffTree,
      ...(this.launchedWithoutWindow.length ? { launched: this.launchedWithoutWindow.map(({ pid, name }) => ({ pid, app: name })) } : {}),
      ...(this.choices.size ? { choices: [...this.choices.values()].sort((a, b) => a.step - b.step) } : {}),
      ...(this.textEntries.length ? { textEntries: [...this.textEntries] } : {}),
      stepsDone: [...this.stepsDone],
      stepsTotal: this.steps.length,
      humanInputBlocked: this.session?.humanInputBlocked ?? 0,
      ...(this.session?.inputLeakedCount ? { inputLeaked: this.session.inputLeakedCount } : {}),
      watchdogFired: this.session?.watchdogFired ?? false,
      ...(truncatedTree?.truncated ? { truncated: { pid: truncatedTree.pid, ...truncatedTree.truncated } } : {}),
      ...(this.appExited ? { appExited: true } : {}),
      ...(status === 'cancelled' ? { cancelledBy: this.session?.escapePressed ? ('person' as const) : ('caller' as const) } : {}),
      restore,
    };
    if (failure) result.error = errorFacts(failure);
    return result;
  }
}
