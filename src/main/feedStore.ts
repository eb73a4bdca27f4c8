// The live feed's memory: one card per tool call, built from the engine's events, the last N
// kept. Main owns the artifact paths; the renderer only ever gets a callId to ask about, so it
// can never name a file for main to read or open.

import { INSPECTION } from '../core/engine.js';
import type { EngineEventMap, TandemEngine } from '../core/engineApi.js';
import type { CallResult } from '../core/call/result.js';
import type { FeedCall, FeedDecision } from '../shared/types.js';
import { describeStepDone } from '../mcp/renderSteps.js';

export const DEFAULT_FEED_LIMIT = 100;
/** Inspection reads the app makes for itself (the wizard's permission checks) are not an agent's calls. */
const INSPECTION_TOOLS: ReadonlySet<string> = new Set(Object.values(INSPECTION));
/** A diff bigger than this is cut for the UI (the full diff is in the artifact file). */
const MAX_DIFF_LINES = 400;

interface Artifacts {
  file?: string;
  screenshot?: string;
}

function cutDiff(diff: string | undefined): string | undefined {
  if (!diff) return undefined;
  const lines = diff.split('\n');
  if (lines.length <= MAX_DIFF_LINES) return diff;
  return [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more lines in the file`].join('\n');
}

/** The revision, the outside changes and a `changed` refusal's diff, for the card. */
function revisionFacts(result: CallResult): Pick<FeedCall, 'revision' | 'outsideChanges' | 'changedSince'> {
  const details = result.error?.code === 'changed' ? result.error.details : undefined;
  const lines = Array.isArray(details?.diff) ? details.diff.filter((line): line is string => typeof line === 'string') : [];
  return {
    ...(result.revision !== undefined ? { revision: result.revision } : {}),
    ...(result.outsideChanges?.count ? { outsideChanges: result.outsideChanges } : {}),
    ...(details && typeof details.since === 'number' ? { changedSince: { revision: details.since, lines, count: typeof details.diffLines === 'number' ? details.diffLines : lines.length } } : {}),
  };
}

function finishedCard(card: FeedCall, result: CallResult): FeedCall {
  return {
    ...card,
    state: result.status,
    durationMs: result.durationMs,
    app: result.app || card.app,
    pid: result.pid || card.pid,
    summary: result.summary,
    diff: cutDiff(result.diff),
    file: result.file,
    hasScreenshot: Boolean(result.screenshot),
    handoff: result.appSwitch ? { pid: result.appSwitch.pid, app: result.appSwitch.app } : undefined,
    steps: result.stepsDone.map(describeStepDone),
    currentStep: undefined,
    humanInputBlocked: result.humanInputBlocked,
    watchdogFired: result.watchdogFired,
    error: result.error,
    ...revisionFacts(result),
  };
}

export class FeedStore {
  private readonly cards = new Map<number, FeedCall>();
  private readonly artifacts = new Map<number, Artifacts>();
  private readonly listeners = new Set<(card: FeedCall) => void>();
  private readonly unsubscribe: Array<() => void>;

  constructor(
    engine: TandemEngine,
    private readonly limit = DEFAULT_FEED_LIMIT,
  ) {
    this.unsubscribe = [
      engine.on('call-started', (event) => this.started(event)),
      engine.on('step', (event) => this.step(event)),
      engine.on('confirm-asked', (event) => this.decided(event.callId, { step: event.step, element: event.element, answer: 'waiting' })),
      engine.on('confirm-answered', (event) => this.decided(event.callId, { step: event.step, element: event.element, answer: event.by })),
      engine.on('call-finished', (event) => this.finished(event)),
    ];
  }

  /** Oldest first. */
  list(): FeedCall[] {
    return [...this.cards.values()];
  }

  artifactsOf(callId: number): Artifacts | undefined {
    return this.artifacts.get(callId);
  }

  onChange(listener: (card: FeedCall) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    for (const stop of this.unsubscribe) stop();
    this.listeners.clear();
  }

  private isOwnInspection(tool: string, clientId: string | undefined): boolean {
    return clientId === undefined && INSPECTION_TOOLS.has(tool);
  }

  private started(event: EngineEventMap['call-started']): void {
    if (this.isOwnInspection(event.tool, event.clientId)) return;
    this.put({
      callId: event.callId,
      tool: event.tool,
      clientId: event.clientId,
      args: event.args,
      state: 'running',
      startedAt: event.startedAt,
      pid: event.pid,
      hasScreenshot: false,
      steps: [],
      ...(event.background ? { background: true } : {}),
    });
  }

  private step(event: EngineEventMap['step']): void {
    const card = this.cards.get(event.callId);
    if (card) this.put({ ...card, currentStep: event.label });
  }

  /** The person was asked before a press, or answered: one entry per step, updated in place. */
  private decided(callId: number, decision: FeedDecision): void {
    const card = this.cards.get(callId);
    if (!card) return;
    const others = (card.decisions ?? []).filter((known) => known.step !== decision.step);
    this.put({ ...card, decisions: [...others, decision].sort((a, b) => a.step - b.step) });
  }

  private finished(event: EngineEventMap['call-finished']): void {
    if (this.isOwnInspection(event.result.tool, event.clientId)) return;
    const card =
      this.cards.get(event.callId) ??
      // A call that finished without a start event (engine emitted only the result) still gets a card.
      ({ callId: event.callId, tool: event.result.tool, clientId: event.clientId, args: {}, state: 'running', startedAt: Date.now() - event.result.durationMs, hasScreenshot: false, steps: [] } satisfies FeedCall);
    this.artifacts.set(event.callId, { file: event.result.file, screenshot: event.result.screenshot });
    this.put(finishedCard(card, event.result));
  }

  private put(card: FeedCall): void {
    // Map.set keeps an existing key's position: cards stay in start order as they update.
    this.cards.set(card.callId, card);
    while (this.cards.size > this.limit) {
      const oldest = this.cards.keys().next().value as number;
      this.cards.delete(oldest);
      this.artifacts.delete(oldest);
    }
    for (const listener of this.listeners) listener(card);
  }
}
