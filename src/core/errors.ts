// Domain errors: facts only. A code, a message that says what happened (never which tool to call
// next), and structured details — `details.reason` names the case when the next move differs from
// the code's usual one (a closed union per code, reasons.ts). The words that tell the model what
// to do live in src/mcp/errors.ts.

import type { Reason, ReasonCode, ReasonsByCode } from './reasons.js';

export type ErrorCode =
  | 'bad-input' // the request is malformed: say what to send instead
  | 'unknown-app' // no such pid / app identifier
  | 'app-gone' // the target process exited during the call
  | 'not-responding' // the app did not take in the input it was sent (hung or far too busy); details say how much it took
  | 'guard-lost' // the input guard stopped holding the person's input during a call (worker died, tap disabled): nothing more is sent
  | 'guard-unavailable' // the input guard cannot hold the person's input now (secure input hides Esc, its thread stopped answering): nothing was sent
  | 'not-found' // element query matched nothing
  | 'not-accessible' // the app runs and shows a window, but exposes nothing readable in it (details: UnreadableApp, see readability.ts)
  | 'stale-element' // element_index no longer valid
  | 'unsupported' // the backend or the element cannot do this
  | 'permission' // OS permission missing (Accessibility, Screen Recording, DISPLAY…)
  | 'timeout' // a deadline passed
  | 'cancelled' // the human pressed Esc (or the client went away)
  | 'watchdog' // the guard watchdog fired and gave control back
  | 'declined' // the person refused a confirm_before press (Esc), or did not answer before the watchdog: nothing was pressed
  | 'paused' // the person paused agent control in the app
  | 'changed' // if_revision: the app's tree is not that revision's any more; nothing was done (details: revision now, diff lines)
  | 'busy' // reserved: the queue refused (not used while queueing is unbounded)
  | 'internal';

// Every code has its (possibly empty) set of reasons, and no other code has any.
const everyCodeHasReasons: [Exclude<ReasonCode, ErrorCode>, Exclude<ErrorCode, ReasonCode>] extends [never, never] ? true : never = true;
void everyCodeHasReasons;

/**
 * An error's structured facts. `reason` names the case, one of its code's (reasons.ts); for
 * `cancelled` the case is `by`, who cancelled.
 */
export type ErrorDetails<C extends ErrorCode = ErrorCode> = ([C] extends ['cancelled'] ? { by?: ReasonsByCode['cancelled']; reason?: never } : { reason?: ReasonsByCode[C] }) & {
  [fact: string]: unknown;
};

export class TandemError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  /** Extra facts for the summary (e.g. candidates for a failed query, running apps). */
  readonly details?: ErrorDetails<C>;

  constructor(code: C, message: string, details?: ErrorDetails<C>) {
    super(message);
    this.name = 'TandemError';
    this.code = code;
    this.details = details;
  }
}

export function isTandemError(error: unknown, code?: ErrorCode): error is TandemError {
  return error instanceof TandemError && (code === undefined || error.code === code);
}

/** The facts of a failure a CallResult carries: code, message, details and their reason key. */
export function errorFacts(error: TandemError): { code: ErrorCode; message: string; reason?: Reason; details?: Record<string, unknown> } {
  const details = error.details as { reason?: Reason; by?: Reason } | undefined;
  const reason = details?.reason ?? details?.by;
  return {
    code: error.code,
    message: error.message,
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(error.details ? { details: error.details } : {}),
  };
}

/** Any thrown value as a TandemError, keeping the message. */
export function toTandemError(error: unknown): TandemError {
  if (error instanceof TandemError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new TandemError('internal', message);
}
