// What the engine keeps for revisions across calls, created once per engine.

import { PersonNotes } from './personNote.js';
import { RevisionStore } from './revisionStore.js';

export interface RevisionDeps {
  revisions: RevisionStore;
  personNotes: PersonNotes;
}

export function createRevisionDeps(): RevisionDeps {
  return { revisions: new RevisionStore(), personNotes: new PersonNotes() };
}
