// One tool call in the live feed: what was asked, how it went, what changed.

import { useEffect, useState } from 'react';
import type { FeedCall, FeedDecision } from '../../shared/types.js';
import { tandem } from '../api.js';
import { useFailure } from '../useFailure.js';
import { DiffView } from './DiffView.js';
import { FailureNote } from './FailureNote.js';
import { formatArgs } from '../formatArgs.js';
import { RevisionNotes } from './RevisionNotes.js';

const STATE_TEXT: Record<FeedCall['state'], string> = {
  running: 'Running',
  ok: 'Done',
  cancelled: 'Cancelled',
  watchdog: 'Watchdog',
  error: 'Error',
};

const DECISION_TEXT: Record<FeedDecision['answer'], string> = {
  waiting: 'waiting for your Enter (allow) or Esc (refuse)',
  enter: 'you allowed it (Enter)',
  esc: 'you refused it (Esc): nothing was pressed',
  watchdog: 'no answer before the watchdog: nothing was pressed',
};

function Decisions({ decisions }: { decisions: FeedDecision[] }) {
  return (
    <ul className="decisions">
      {decisions.map((decision) => (
        <li key={decision.step} className={`decision decision-${decision.answer}`} data-decision={decision.answer}>
          Asked you before pressing “{decision.element}”: {DECISION_TEXT[decision.answer]}
        </li>
      ))}
    </ul>
  );
}

function duration(ms: number | undefined): string {
  if (ms === undefined) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function Screenshot({ callId, open }: { callId: number; open(target: 'screenshot'): void }) {
  const [url, setUrl] = useState<string | null>(null);
  const { error, attempt } = useFailure();
  useEffect(() => {
    let live = true;
    void attempt('No thumbnail', () => tandem().getScreenshot({ callId })).then((data) => live && data && setUrl(data));
    return () => {
      live = false;
    };
  }, [callId, attempt]);
  if (!url) return <div className="thumb placeholder">{error && <FailureNote error={error} />}</div>;
  return (
    <button type="button" className="thumb" onClick={() => open('screenshot')} title="Show the screenshot file">
      <img src={url} alt="Screenshot after the call" />
    </button>
  );
}

export function FeedCard({ call }: { call: FeedCall }) {
  const args = formatArgs(call.args);
  const opening = useFailure();
  const open = (target: 'screenshot' | 'file' | 'folder'): void => {
    void opening.attempt(target === 'folder' ? 'The folder could not be opened' : 'The file could not be shown', () => tandem().openArtifact({ callId: call.callId, target }));
  };
  return (
    <article className={`card state-${call.state}`} data-call-id={call.callId} data-state={call.state}>
      <header className="card-head">
        <span className="tool">{call.tool}</span>
        {call.app && <span className="muted">in {call.app}</span>}
        <span className="spacer" />
        {call.revision !== undefined && <span className="badge badge-revision" title="The app's revision after this call">rev {call.revision}</span>}
        {call.background && (
          <span className="badge badge-background" title="Ran through accessibility alone: your keyboard, pointer and front window stayed yours">
            background
          </span>
        )}
        {call.handoff && <span className="badge badge-handoff">→ {call.handoff.app}</span>}
        {call.watchdogFired && call.state !== 'watchdog' && <span className="badge badge-watchdog">watchdog</span>}
        <span className={`badge badge-state-${call.state}`}>{STATE_TEXT[call.state]}</span>
        <span className="muted duration">{duration(call.durationMs)}</span>
      </header>
      <div className="card-meta muted">
        {new Date(call.startedAt).toLocaleTimeString()}
        {call.clientId && <> · {call.clientId}</>}
        {call.state === 'running' && call.currentStep && <> · {call.currentStep}…</>}
        {Boolean(call.humanInputBlocked) && <> · {call.humanInputBlocked} of your inputs held back</>}
      </div>
      {args && <pre className="args">{args}</pre>}
      {call.decisions?.length ? <Decisions decisions={call.decisions} /> : null}
      {call.summary && <p className="summary">{call.summary}</p>}
      {call.error && <p className={call.state === 'error' ? 'error-text' : 'notice-text'}>{call.error.message}</p>}
      <RevisionNotes call={call} />
      <div className="card-body">
        {call.diff && <DiffView diff={call.diff} />}
        {call.hasScreenshot && <Screenshot callId={call.callId} open={open} />}
      </div>
      {call.state !== 'running' && (call.file || call.hasScreenshot) && (
        <footer className="card-actions">
          {call.file && (
            <button type="button" className="button small quiet" onClick={() => open('file')}>
              Show file
            </button>
          )}
          <button type="button" className="button small quiet" onClick={() => open('folder')}>
            Open folder
          </button>
          <FailureNote error={opening.error} />
        </footer>
      )}
    </article>
  );
}
