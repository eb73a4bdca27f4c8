// A card's revision facts: what changed in the app that the agent did not do (the person, or
// the app itself), and a call refused because the app had changed since the revision it named.

import type { FeedCall } from '../../shared/types.js';
import { DiffView } from './DiffView.js';

function more(count: number, shown: number): string {
  return count > shown ? `\n… ${count - shown} more` : '';
}

export function RevisionNotes({ call }: { call: FeedCall }) {
  const { outsideChanges, changedSince } = call;
  if (!outsideChanges && !changedSince) return null;
  return (
    <div className="revision-notes">
      {changedSince && (
        <section className="changed-since" data-changed-since={changedSince.revision}>
          <p className="notice-text">Not done: the app changed since revision {changedSince.revision}, which the agent expected.</p>
          {changedSince.lines.length > 0 && <DiffView diff={changedSince.lines.join('\n') + more(changedSince.count, changedSince.lines.length)} />}
        </section>
      )}
      {outsideChanges && (
        <section className="outside-changes" data-outside-changes={outsideChanges.count}>
          <p className="muted">
            Changed outside the agent's calls since its last look ({outsideChanges.count}): not counted as its own
          </p>
          <DiffView diff={outsideChanges.lines.join('\n') + more(outsideChanges.count, outsideChanges.lines.length)} />
        </section>
      )}
    </div>
  );
}
