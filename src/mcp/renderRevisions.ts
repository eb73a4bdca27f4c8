// The revision facts of an answer in words: the tree's revision, the changes the agent did not
// make (outside_changes), and the person's Esc or held-back input in an earlier call, said once.

import type { CallResult } from '../core/call/result.js';
import type { PersonNote } from '../core/revisions/personNote.js';
import type { CallResultOutput } from './outputSchemas.js';

/** Outside changes listed in the text; structuredContent carries all the answer has. */
const MAX_OUTSIDE_LINES = 12;

export function personText(note: PersonNote): string {
  const during = `during ${note.tool} (call ${note.callId})`;
  const held = `was held back ${note.heldBack === 1 ? 'once' : `${note.heldBack} times`}`;
  if (note.escapePressed) return `pressed Esc ${during}${note.heldBack ? `, and ${held}` : ''}: they took back control then; do not redo that on your own`;
  return `${held} ${during}: they were using the keyboard or mouse then; ask before anything they might be in the middle of`;
}

/** `revision:`, `outside_changes:` (with its lines) and `person:` lines, in reading order. */
export function revisionLines(result: CallResult): string[] {
  const lines: string[] = [];
  if (result.revision !== undefined) lines.push(`revision: ${result.revision}`);
  const outside = result.outsideChanges;
  if (outside?.count) {
    lines.push(`outside_changes: ${outside.count} change${outside.count === 1 ? '' : 's'} since your last read of this app that this call did not make (the person or the app did; not in the diff):`);
    const shown = outside.lines.slice(0, MAX_OUTSIDE_LINES);
    lines.push(...shown.map((line) => `  ${line}`));
    if (outside.count > shown.length) lines.push(`  … ${outside.count - shown.length} more (refresh_traversal shows the whole tree)`);
  }
  if (result.person) lines.push(`person: ${personText(result.person)}`);
  return lines;
}

export function structuredRevisions(result: CallResult): Pick<CallResultOutput, 'revision' | 'outside_changes' | 'person'> {
  return {
    ...(result.revision !== undefined ? { revision: result.revision } : {}),
    ...(result.outsideChanges?.count ? { outside_changes: { lines: result.outsideChanges.lines, count: result.outsideChanges.count } } : {}),
    ...(result.person
      ? { person: { call: result.person.callId, tool: result.person.tool, escape_pressed: result.person.escapePressed, held_back: result.person.heldBack, text: personText(result.person) } }
      : {}),
  };
}
