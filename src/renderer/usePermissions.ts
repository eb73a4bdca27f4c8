// Permission status that stays live while a wizard step is on screen: the person flips a switch
// in System Settings and the step turns green without a click.

import { useCallback, useEffect, useState } from 'react';
import type { PermissionView } from '../shared/types.js';
import { tandem } from './api.js';

const POLL_MS = 2000;

export function usePermissions(): { view: PermissionView | null; request(id: string): Promise<void>; recheck(): Promise<void> } {
  const [view, setView] = useState<PermissionView | null>(null);
  const recheck = useCallback(async () => setView(await tandem().checkPermissions()), []);
  const request = useCallback(async (id: string) => setView(await tandem().requestPermission({ id })), []);
  useEffect(() => {
    void recheck();
    const timer = setInterval(() => void recheck(), POLL_MS);
    return () => clearInterval(timer);
  }, [recheck]);
  return { view, request, recheck };
}
