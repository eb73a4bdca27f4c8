// What the person did during a call that the agent may not have read in that call's answer: they
// pressed Esc, or their keys and clicks were held back. Kept until the next answer, which carries
// it once (any call that answers with a summary), so the agent hears it even when it went on
// without reading the earlier answer closely.

import type { GuardSession } from '../guard.js';

/** The facts of one call in which the person stepped in. */
export interface PersonNote {
  callId: number;
  tool: string;
  escapePressed: boolean;
  /** Key and pointer events of the person's held back by the guard. */
  heldBack: number;
}

export class PersonNotes {
  private pending: PersonNote | undefined;

  /** After a guarded call: keeps its facts when the person stepped in (the newest call wins). */
  noteCall(callId: number, tool: string, session: Pick<GuardSession, 'escapePressed' | 'humanInputBlocked'> | null): void {
    if (!session || (!session.escapePressed && session.humanInputBlocked === 0)) return;
    this.pending = { callId, tool, escapePressed: session.escapePressed, heldBack: session.humanInputBlocked };
  }

  /** The note for this answer, once: it is cleared as it is taken. */
  take(): PersonNote | undefined {
    const note = this.pending;
    this.pending = undefined;
    return note;
  }
}
