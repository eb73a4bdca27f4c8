// D-Bus failures of AT-SPI calls mapped onto Tandem's error codes, with a message that says what
// failed (the next move for the model is src/mcp's to write). Pure: unit-tested without a bus.

import { TandemError } from '../../core/errors.js';

/** What a failing call was about, for the message. */
export interface DbusCallContext {
  /** e.g. "press the element", "read the accessibility tree of mousepad (pid 42)". */
  what: string;
}

/** The parts of a DbusCallError (or any error carrying a D-Bus error name) we read. */
interface DbusErrorLike {
  type?: unknown;
  text?: unknown;
  message?: unknown;
}

export function dbusErrorName(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const type = (error as DbusErrorLike).type;
  return typeof type === 'string' ? type : undefined;
}

function dbusErrorText(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { text, message } = error as DbusErrorLike;
  if (typeof text === 'string' && text.length > 0) return text;
  if (typeof message === 'string') return message;
  return String(error);
}

const STALE = new Set([
  'org.freedesktop.DBus.Error.UnknownObject',
  // GTK4 answers a destroyed widget's path this way.
  'org.freedesktop.DBus.Error.UnknownInterface.Defunct',
]);
const UNSUPPORTED = new Set([
  'org.freedesktop.DBus.Error.UnknownMethod',
  'org.freedesktop.DBus.Error.UnknownInterface',
  'org.freedesktop.DBus.Error.UnknownProperty',
  'org.freedesktop.DBus.Error.NotSupported',
  'org.freedesktop.DBus.Error.PropertyReadOnly',
]);
const TIMEOUT = new Set([
  'org.freedesktop.DBus.Error.NoReply',
  'org.freedesktop.DBus.Error.Timeout',
  'org.freedesktop.DBus.Error.TimedOut',
]);
const APP_GONE = new Set([
  'org.freedesktop.DBus.Error.ServiceUnknown',
  'org.freedesktop.DBus.Error.NameHasNoOwner',
  'org.freedesktop.DBus.Error.Disconnected',
  'org.freedesktop.DBus.Error.NoServer',
]);
const PERMISSION = new Set([
  'org.freedesktop.DBus.Error.AccessDenied',
  'org.freedesktop.DBus.Error.AuthFailed',
]);

/** Maps any error thrown by an AT-SPI D-Bus call to a TandemError. TandemErrors pass through. */
export function mapAtspiError(error: unknown, context: DbusCallContext): TandemError {
  if (error instanceof TandemError) return error;
  const name = dbusErrorName(error);
  const text = dbusErrorText(error);
  if (name === undefined) {
    return new TandemError('internal', `Could not ${context.what}: ${text}`);
  }
  if (STALE.has(name)) {
    return new TandemError('stale-element', `Could not ${context.what}: the element is gone.`, {
      dbusError: name,
    });
  }
  if (TIMEOUT.has(name)) {
    return new TandemError('timeout', `Could not ${context.what}: the app did not answer in time (it may be busy or frozen).`, { dbusError: name });
  }
  if (APP_GONE.has(name)) {
    return new TandemError('app-gone', `Could not ${context.what}: the app has quit or left the accessibility bus.`, { dbusError: name });
  }
  if (UNSUPPORTED.has(name)) {
    return new TandemError('unsupported', `Could not ${context.what}: the element does not support it (${text}).`, { dbusError: name });
  }
  if (PERMISSION.has(name)) {
    return new TandemError('permission', `Could not ${context.what}: the accessibility bus refused access (${text}).`, { dbusError: name });
  }
  return new TandemError('internal', `Could not ${context.what}: ${name}: ${text}`, { dbusError: name });
}
