// One tool call's record, the same for every call, read-only or acting: its id, the
// call-started and call-finished events, its log lines, its files and the framing of its result
// (duration, the finish event). The engine opens one per call (engine.ts); a read (open,
// refresh) or a transaction (call/callLifecycle.ts) fills it in. Events go to the engine's listeners
// (feed, overlay, tray) and to the caller's own (MCP progress notifications) alike.

import type { ArtifactStore, WrittenCall } from '../artifacts/artifacts.js';
import type { EngineEventMap, EngineEventName } from '../engineApi.js';
import type { CallResult } from './result.js';

export type EmitEvent = <K extends EngineEventName>(event: K, payload: EngineEventMap[K]) => void;

export interface CallRecordDeps {
  emit: EmitEvent;
  now: () => number;
  artifacts: () => Promise<Pick<ArtifactStore, 'writeCall'>>;
}

type FileContent = Parameters<ArtifactStore['writeCall']>[1];

export class CallRecord {
  readonly startedAt: number;
  /** The app acted on or read, once known (the tray names it). */
  app: string | undefined;
  private started = false;
  private finished = false;

  constructor(
    readonly callId: number,
    readonly tool: string,
    readonly clientId: string | undefined,
    private readonly deps: CallRecordDeps,
  ) {
    this.startedAt = deps.now();
  }

  readonly log = (message: string): void => {
    this.deps.emit('log', { callId: this.callId, message });
  };

  /** Any event of this call (its callId is the caller's to set). */
  readonly emit: EmitEvent = (event, payload) => this.deps.emit(event, payload);

  /**
   * The call is under way: call-started, once. A call refused before this (bad input, an
   * unknown pid: nothing was touched) emits no events and leaves no files.
   */
  start(pid: number | undefined, args: Record<string, unknown>, background = false): void {
    if (this.started) return;
    this.started = true;
    this.deps.emit('call-started', { callId: this.callId, tool: this.tool, pid, clientId: this.clientId, args, startedAt: this.startedAt, ...(background ? { background } : {}) });
  }

  /** Writes one set of files (a tree or diff, and a screenshot) under `tool` (default: the call's own). */
  async writeFiles(content: FileContent, tool = this.tool): Promise<WrittenCall> {
    return (await this.deps.artifacts()).writeCall(tool, content);
  }

  /** The result with its duration; call-finished for a started call, once. */
  finish(result: Omit<CallResult, 'durationMs'>): CallResult {
    const framed: CallResult = { ...result, durationMs: Math.max(0, this.deps.now() - this.startedAt) };
    if (this.started && !this.finished) {
      this.finished = true;
      this.deps.emit('call-finished', { callId: this.callId, clientId: this.clientId, result: framed });
    }
    return framed;
  }
}
