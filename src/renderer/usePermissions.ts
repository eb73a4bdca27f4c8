// Permission status that stays live while a wizard step is on screen: the person flips a switch
// in System Settings and the step turns green without a click.

import { useCallback, useEffect, useState } from 'react';
import type { PermissionView } from '../shared/types.js';
import { tandem } from './api.js';
import { failureReason } from './useFailure.js';

const POLL_MS = 2000;

export function usePermissions(): { view: PermissionView | null; error: string | null; request(id: string): Promise<void>; recheck(): Promise<void> } {
  const [view, setView] = useState<PermissionView | null>(null);
  // A failed check is shown with its reason: a wizard that only says "Checking…" forever is
  // worse than one that says what went wrong.
  const [error, setError] = useState<string | null>(null);
  const attempt = useCallback(async (run: () => Promise<PermissionView>) => {
    try {
      setView(await run());
      setError(null);
    } catch (failure) {
      setError(failureReason(failure));
    }
  }, []);
  const recheck = useCallback(() => attempt(() => tandem().checkPermissions()), [attempt]);
  const request = useCallback((id: string) => attempt(() => tandem().requestPermission({ id })), [attempt]);
  useEffect(() => {
    void recheck();
    const timer = setInterval(() => void recheck(), POLL_MS);
    return () => clearInterval(timer);
  }, [recheck]);
  return { view, error, request, recheck };
}
