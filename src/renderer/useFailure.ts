// Every call to main can fail (a check that times out, a clipboard that refuses, a file that
// is gone): the person sees what failed and why, never a button that silently does nothing or a
// view stuck on "Checking…".

import { useCallback, useState } from 'react';

/** The reason of a failed invoke, without Electron's "Error invoking remote method '…': Error:" wrapper. */
export function failureReason(failure: unknown): string {
  const message = failure instanceof Error ? failure.message : String(failure);
  return message.replace(/^Error invoking remote method '[^']+': (?:[A-Za-z]*Error: )?/, '') || 'no reason given';
}

export interface Failure {
  /** "<what> failed: <reason>", or null while the last attempt succeeded. */
  error: string | null;
  /** Runs one call to main; a failure is kept (and shown by the caller) instead of thrown. */
  attempt<T>(what: string, run: () => Promise<T>): Promise<T | undefined>;
}

export function useFailure(): Failure {
  const [error, setError] = useState<string | null>(null);
  const attempt = useCallback(async <T,>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      const value = await run();
      setError(null);
      return value;
    } catch (failure) {
      setError(`${what}: ${failureReason(failure)}`);
      return undefined;
    }
  }, []);
  return { error, attempt };
}
