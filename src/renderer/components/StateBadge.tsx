import type { PermissionStateView } from '../../shared/types.js';

const TEXT: Record<PermissionStateView, string> = {
  granted: 'Granted',
  denied: 'Not granted',
  unknown: 'Unknown',
  'not-applicable': 'Not needed',
};

export function StateBadge({ state }: { state: PermissionStateView }) {
  return (
    <span className={`badge badge-${state}`} data-state={state}>
      {TEXT[state]}
    </span>
  );
}
