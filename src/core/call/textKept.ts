// What a type_text step's field holds after the call, against the text sent — facts read from the
// tree after the call (the field's value then) against the one before; src/mcp words them:
// - it kept other text: GTK's Save dialog pre-selects the file name's stem, so typing
//   "probe.txt" over "probe.txt" gives "probe.txt.txt";
// - the text sent is not in it at all: the keys went elsewhere, the app dropped or transformed
//   them. An answer must not read as if the text had arrived when the field does not show it.

import type { ElementNode, TreeSnapshot } from '../model.js';
import { refind } from '../tree/elementIndex.js';
import { displayValue } from '../tree/treeFormat.js';
import type { CallState } from './callState.js';

export function noteKeptText(state: CallState, after: TreeSnapshot): void {
  for (const entry of state.textEntries) {
    const text = sentText(state, entry.step);
    if (!entry.element || text === undefined) continue;
    // A later step may rightly empty the field (Return sends a chat line): then nothing is judged.
    if (laterStepsAct(state, entry.step)) continue;
    const before = state.candidateNodes.get(entry.element);
    const had = before ? displayValue(before) : undefined;
    const now = before ? refind(after.elements, before) : null;
    const holds = now ? displayValue(now) : undefined;
    // Only where both values are known, the text is there, and something else is there too. A
    // replacement in one edit leaves nothing else by design; one by select-all and keys may (the
    // key selected less than all, the app kept a part), so it is judged.
    const judged = !entry.replaced || entry.selectedAll !== undefined;
    if (judged && had && holds !== undefined && !now?.valueTruncated && holds !== text && holds.includes(text)) entry.keptOtherText = true;
    if (lacksText(now, text)) entry.textMissing = true;
  }
  for (const typed of state.keysTypedAt) {
    const step = state.steps[typed.step];
    const before = state.candidateNodes.get(typed.element);
    if (step?.kind !== 'type' || !before || laterStepsAct(state, typed.step)) continue;
    if (lacksText(refind(after.elements, before), step.text)) state.keysNotShown.push(typed);
  }
}

/** The field after the call does not hold `text` — judged only where its value is known whole (a secure field's never is, a cut one is not). */
function lacksText(now: ElementNode | null, text: string): boolean {
  const holds = now ? displayValue(now) : undefined;
  return !!now && holds !== undefined && !now.valueTruncated && !holds.includes(text);
}

/** The text a type_text step sent, or the value a set_value step typed as keys; undefined for any other step. */
function sentText(state: CallState, index: number): string | undefined {
  const step = state.steps[index];
  return step?.kind === 'type-text' ? step.text : step?.kind === 'set-value' ? step.value : undefined;
}

function laterStepsAct(state: CallState, index: number): boolean {
  return state.steps.slice(index + 1).some((step) => step.kind !== 'wait');
}
