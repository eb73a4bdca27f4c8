// The guard overlay: a calm tint over the whole display and a centred pill saying what the agent
// is doing and how to stop it. Click-through is the window's job (main); this page only draws.

import { useEffect, useState } from 'react';
import type { OverlayState } from '../../shared/types.js';
import { tandem } from '../api.js';

export function Overlay() {
  const [state, setState] = useState<OverlayState>({ visible: false, label: '' });
  useEffect(() => tandem().onOverlayState(setState), []);
  if (!state.visible) return null;
  return (
    <div className={state.asking ? 'overlay asking' : 'overlay'} role={state.asking ? 'alertdialog' : 'status'} aria-live={state.asking ? 'assertive' : 'polite'}>
      <div className="overlay-pill">
        <span className="overlay-dot" aria-hidden="true" />
        <span className="overlay-label">{state.label || 'Tandem is working — press Esc to take back control'}</span>
      </div>
    </div>
  );
}
