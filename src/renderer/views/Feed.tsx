// The live feed: one card per tool call, newest first, filterable by client session.

import { useEffect, useMemo, useState } from 'react';
import type { AppStateView, FeedCall } from '../../shared/types.js';
import { tandem } from '../api.js';
import { FailureNote } from '../components/FailureNote.js';
import { FeedCard } from '../components/FeedCard.js';
import { useFailure } from '../useFailure.js';

/** Cards kept in the window (main keeps its own, larger history). */
export const FEED_LIMIT = 100;

function upsert(calls: FeedCall[], card: FeedCall): FeedCall[] {
  const next = calls.filter((call) => call.callId !== card.callId);
  next.push(card);
  next.sort((a, b) => a.callId - b.callId);
  return next.slice(-FEED_LIMIT);
}

export function Feed() {
  const [calls, setCalls] = useState<FeedCall[]>([]);
  const [state, setState] = useState<AppStateView | null>(null);
  const [client, setClient] = useState<string>('');
  // One per call: a later success of another call must not hide this one's failure.
  const history = useFailure();
  const reading = useFailure();
  const pausing = useFailure();

  useEffect(() => {
    const api = tandem();
    const stops = [api.onFeedCall((card) => setCalls((previous) => upsert(previous, card))), api.onAppState(setState)];
    void history.attempt('The earlier calls could not be loaded', () => api.listFeed()).then((list) => list && setCalls((previous) => list.reduce(upsert, previous)));
    void reading.attempt('The app state could not be read', () => api.getState()).then((view) => view && setState(view));
    return () => stops.forEach((stop) => stop());
  }, [history.attempt, reading.attempt]);

  const togglePause = async (paused: boolean) => {
    const view = await pausing.attempt(paused ? 'Pausing failed' : 'Resuming failed', () => tandem().setPaused({ paused }));
    if (view) setState(view);
  };

  const clients = useMemo(() => [...new Set(calls.map((call) => call.clientId).filter((id): id is string => Boolean(id)))], [calls]);
  const shown = calls.filter((call) => !client || call.clientId === client).reverse();

  return (
    <main className="feed">
      <header className="feed-header">
        <div>
          <h1>Live feed</h1>
          <div className={`status ${state?.paused ? 'paused' : state?.current ? 'acting' : 'idle'}`} data-status>
            <span className="status-dot" /> {state?.status ?? '…'}
          </div>
        </div>
        <div className="feed-controls">
          <label>
            <span className="muted">Client</span>{' '}
            <select value={client} onChange={(event) => setClient(event.target.value)} aria-label="Filter by client">
              <option value="">All clients</option>
              {clients.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </label>
          {state && (
            <button type="button" className={`button ${state.paused ? 'primary' : ''}`} onClick={() => void togglePause(!state.paused)} data-action="pause">
              {state.paused ? 'Resume agent control' : 'Pause agent control'}
            </button>
          )}
        </div>
      </header>
      <FailureNote error={pausing.error} />
      <FailureNote error={history.error} />
      <FailureNote error={reading.error} />
      {shown.length === 0 ? (
        <p className="empty muted">No tool calls yet. When an AI client uses Tandem, each call shows up here.</p>
      ) : (
        <div className="cards">
          {shown.map((call) => (
            <FeedCard key={call.callId} call={call} />
          ))}
        </div>
      )}
    </main>
  );
}
