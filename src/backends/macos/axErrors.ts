// AXError codes (HIServices AXError.h) → TandemError: what failed, and a `reason` for the failures
// whose next move differs from their code's (src/mcp/errors.ts writes it). Pure: unit-tested on Linux.

import { TandemError, type ErrorCode } from '../../core/errors.js';
import type { ReasonsByCode } from '../../core/reasons.js';

export const AXErrorCode = {
  success: 0,
  failure: -25200,
  illegalArgument: -25201,
  invalidUIElement: -25202,
  invalidUIElementObserver: -25203,
  cannotComplete: -25204,
  attributeUnsupported: -25205,
  actionUnsupported: -25206,
  notificationUnsupported: -25207,
  notImplemented: -25208,
  notificationAlreadyRegistered: -25209,
  notificationNotRegistered: -25210,
  apiDisabled: -25211,
  noValue: -25212,
  parameterizedAttributeUnsupported: -25213,
  notEnoughPrecision: -25214,
} as const;

const NAMES = new Map<number, string>(Object.entries(AXErrorCode).map(([name, code]) => [code, `kAXError${name[0].toUpperCase()}${name.slice(1)}`]));

export function axErrorName(code: number): string {
  return NAMES.get(code) ?? `AXError ${code}`;
}

export interface AXErrorContext {
  /** What was being done, e.g. "pressing the button", "reading the tree of TextEdit". */
  operation: string;
  app?: string;
}

/** The domain error for a failed AX call (code must not be 0). */
export function axErrorToTandem(code: number, context: AXErrorContext): TandemError {
  const where = context.app ? ` in ${context.app}` : '';
  const what = `${context.operation}${where} failed (${axErrorName(code)})`;
  const [errorCode, fact, reason] = factsFor(code);
  return new TandemError(errorCode, `${what}: ${fact}`, reason ? { axError: code, reason } : { axError: code });
}

/** What an AXError means; `reason` keys the next move src/mcp writes for it. */
function factsFor(code: number): { [C in ErrorCode]: [C, string, ReasonsByCode[C]?] }[ErrorCode] {
  switch (code) {
    case AXErrorCode.invalidUIElement:
      return ['stale-element', 'the element no longer exists (the UI changed).'];
    case AXErrorCode.cannotComplete:
      return ['timeout', 'the app is busy or hung and did not answer in time.'];
    case AXErrorCode.apiDisabled:
      return ['permission', 'macOS refused accessibility access.', 'accessibility-off'];
    case AXErrorCode.attributeUnsupported:
    case AXErrorCode.noValue:
      return ['unsupported', 'this element does not offer that property.', 'element-property'];
    case AXErrorCode.actionUnsupported:
      return ['unsupported', 'this element does not offer that action.', 'element-action'];
    case AXErrorCode.notImplemented:
      return ['unsupported', 'the app does not implement this part of the accessibility API.', 'not-implemented'];
    case AXErrorCode.illegalArgument:
      return ['bad-input', 'the value was not accepted for this element (wrong type or out of range).', 'value-rejected'];
    case AXErrorCode.notificationUnsupported:
    case AXErrorCode.invalidUIElementObserver:
      return ['unsupported', 'the app does not send change notifications; Tandem falls back to a fixed wait.'];
    default:
      return ['internal', 'the accessibility call failed.'];
  }
}

/** Throws the mapped error when `code` is not success. */
export function checkAX(code: number, context: AXErrorContext): void {
  if (code !== AXErrorCode.success) throw axErrorToTandem(code, context);
}
